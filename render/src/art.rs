//! Anti-aliased shapes in full colour, used once per size to draw tiles: coverage masks
//! (discs, rings, rounded squares, strokes, polygons, font glyphs) and a colour canvas they
//! are painted onto.
//!
//! Shapes are drawn with `imageproc`'s primitives on an `image` grey buffer [`SUPERSAMPLE`]
//! times the tile's size, then averaged down to the tile: imageproc's fills have hard
//! edges, and the average of each block of samples is the share of the pixel they cover.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use image::{GrayImage, Luma};
use imageproc::drawing::{draw_filled_circle_mut, draw_polygon_mut, draw_text_mut};
use imageproc::point::Point;

use crate::palette::{Rgb, mix};

/// Samples per pixel along each axis while drawing a shape.
pub const SUPERSAMPLE: u32 = 4;

const INK: Luma<u8> = Luma([255]);
const CLEAR: Luma<u8> = Luma([0]);

/// A shape being drawn on a `size` x `size` tile, in tile pixel coordinates (the
/// samples are [`SUPERSAMPLE`] times finer, or as fine as the pixels for text alone).
#[derive(Debug, Clone)]
pub struct Sketch {
    size: usize,
    /// Samples per pixel along each axis.
    fineness: u32,
    samples: GrayImage,
}

impl Sketch {
    /// A sketch for shapes: supersampled, since imageproc's fills have hard edges.
    #[must_use]
    pub fn new(size: usize) -> Sketch {
        Sketch::with_fineness(size, SUPERSAMPLE)
    }

    /// A sketch for glyphs alone, which imageproc's text draws anti-aliased already.
    #[must_use]
    pub fn text(size: usize) -> Sketch {
        Sketch::with_fineness(size, 1)
    }

    fn with_fineness(size: usize, fineness: u32) -> Sketch {
        let side = size as u32 * fineness;
        Sketch { size, fineness, samples: GrayImage::new(side, side) }
    }

    /// A tile coordinate as the sample whose centre is nearest to it.
    fn sample(&self, value: f32) -> i32 {
        (value * self.fineness as f32 - 0.5).round() as i32
    }

    fn circle(&mut self, (cx, cy): (f32, f32), r: f32, colour: Luma<u8>) {
        if r > 0.0 {
            let radius = (r * self.fineness as f32).round() as i32;
            let centre = (self.sample(cx), self.sample(cy));
            draw_filled_circle_mut(&mut self.samples, centre, radius, colour);
        }
    }

    /// Adds a disc.
    pub fn disc(&mut self, centre: (f32, f32), r: f32) -> &mut Sketch {
        self.circle(centre, r, INK);
        self
    }

    /// Takes a disc away.
    pub fn cut_disc(&mut self, centre: (f32, f32), r: f32) -> &mut Sketch {
        self.circle(centre, r, CLEAR);
        self
    }

    fn fill_polygon(&mut self, points: &[(f32, f32)], colour: Luma<u8>) {
        let mut corners: Vec<Point<i32>> =
            points.iter().map(|&(x, y)| Point::new(self.sample(x), self.sample(y))).collect();
        corners.dedup();
        while corners.len() > 1 && corners.first() == corners.last() {
            corners.pop();
        }
        if corners.len() >= 3 {
            draw_polygon_mut(&mut self.samples, &corners, colour);
        }
    }

    /// Adds a filled polygon (tile coordinates, y down).
    pub fn polygon(&mut self, points: &[(f32, f32)]) -> &mut Sketch {
        self.fill_polygon(points, INK);
        self
    }

    /// Adds a stroke from `a` to `b` with round ends.
    pub fn stroke(&mut self, a: (f32, f32), b: (f32, f32), width: f32) -> &mut Sketch {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let length = dx.hypot(dy).max(f32::EPSILON);
        let (nx, ny) = (-dy / length * width / 2.0, dx / length * width / 2.0);
        self.polygon(&[(a.0 + nx, a.1 + ny), (b.0 + nx, b.1 + ny), (b.0 - nx, b.1 - ny), (a.0 - nx, a.1 - ny)]);
        self.disc(a, width / 2.0).disc(b, width / 2.0)
    }

    /// Adds a square of half-side `half` centred at `centre`, corners rounded by `radius`.
    pub fn rounded_square(&mut self, (cx, cy): (f32, f32), half: f32, radius: f32) -> &mut Sketch {
        let (outer, inner) = (half, half - radius);
        self.polygon(&[
            (cx - outer, cy - inner),
            (cx + outer, cy - inner),
            (cx + outer, cy + inner),
            (cx - outer, cy + inner),
        ]);
        self.polygon(&[
            (cx - inner, cy - outer),
            (cx + inner, cy - outer),
            (cx + inner, cy + outer),
            (cx - inner, cy + outer),
        ]);
        for (sx, sy) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            self.disc((cx + sx * inner, cy + sy * inner), radius);
        }
        self
    }

    /// Adds the glyph of `ch` drawn with imageproc's text: `scale` tile pixels per font
    /// unit, the font's origin (on the baseline) at `origin`.
    pub fn glyph(&mut self, font: &FontRef<'_>, ch: char, scale: f32, origin: (f32, f32)) -> &mut Sketch {
        let k = self.fineness as f32;
        let px = PxScale::from(scale * k * font.height_unscaled());
        let ascent = font.as_scaled(px).ascent();
        let (x, y) = ((origin.0 * k).round() as i32, (origin.1 * k - ascent).round() as i32);
        draw_text_mut(&mut self.samples, INK, x, y, px, font, &ch.to_string());
        self
    }

    /// The sketch turned half a circle about the tile's centre.
    pub fn turn(&mut self) -> &mut Sketch {
        image::imageops::rotate180_in_place(&mut self.samples);
        self
    }

    /// Each pixel's share covered by the shape.
    #[must_use]
    pub fn mask(&self) -> Mask {
        let (size, k) = (self.size, self.fineness as usize);
        let side = size * k;
        let mut sums = vec![0u32; size * size];
        for (y, row) in self.samples.as_raw().chunks_exact(side).enumerate() {
            // Shapes leave most rows above and below them empty: a quick scan skips them.
            if row.iter().all(|&v| v == 0) {
                continue;
            }
            let sums = &mut sums[(y / k) * size..(y / k + 1) * size];
            for (sum, block) in sums.iter_mut().zip(row.chunks_exact(k)) {
                *sum += block.iter().map(|&v| u32::from(v)).sum::<u32>();
            }
        }
        let full = (255 * k * k) as f32;
        Mask { width: size, height: size, coverage: sums.into_iter().map(|sum| sum as f32 / full).collect() }
    }
}

/// How much of each pixel a shape covers, 0 to 1.
#[derive(Debug, Clone)]
pub struct Mask {
    pub width: usize,
    pub height: usize,
    pub coverage: Vec<f32>,
}

impl Mask {
    /// What the mask's coverage holds, in bytes.
    pub fn bytes(&self) -> usize {
        self.coverage.capacity() * std::mem::size_of::<f32>()
    }

    pub fn disc(size: usize, cx: f32, cy: f32, r: f32) -> Mask {
        Sketch::new(size).disc((cx, cy), r).mask()
    }

    pub fn ring(size: usize, cx: f32, cy: f32, r: f32, width: f32) -> Mask {
        Sketch::new(size).disc((cx, cy), r + width / 2.0).cut_disc((cx, cy), r - width / 2.0).mask()
    }

    /// A square of half-side `half` centred at (`cx`, `cy`) with corners rounded by `radius`.
    pub fn rounded_square(size: usize, cx: f32, cy: f32, half: f32, radius: f32) -> Mask {
        Sketch::new(size).rounded_square((cx, cy), half, radius).mask()
    }

    /// A stroke from `a` to `b` with round ends.
    pub fn stroke(size: usize, a: (f32, f32), b: (f32, f32), width: f32) -> Mask {
        Sketch::new(size).stroke(a, b, width).mask()
    }

    /// A filled polygon (pixel coordinates, y down).
    pub fn polygon(size: usize, points: &[(f32, f32)]) -> Mask {
        Sketch::new(size).polygon(points).mask()
    }

    /// The union of two masks of the same size.
    #[must_use]
    pub fn union(mut self, other: &Mask) -> Mask {
        for (a, b) in self.coverage.iter_mut().zip(&other.coverage) {
            *a = a.max(*b);
        }
        self
    }

    /// The mask with every coverage multiplied by `share`.
    #[must_use]
    pub fn faded(mut self, share: f32) -> Mask {
        self.coverage.iter_mut().for_each(|c| *c *= share);
        self
    }

    /// The shape with its holes filled: every pixel that cannot be reached from the edge
    /// of the tile without crossing the shape becomes fully covered. (Font figures draw
    /// their inner lines as holes; a piece's body must be solid beneath them.)
    #[must_use]
    pub fn filled(&self) -> Mask {
        let (w, h) = (self.width, self.height);
        let open = |i: usize| self.coverage[i] < 0.5;
        let mut outside = vec![false; w * h];
        let mut stack: Vec<usize> =
            (0..w * h).filter(|&i| (i % w == 0 || i % w == w - 1 || i / w == 0 || i / w == h - 1) && open(i)).collect();
        while let Some(i) = stack.pop() {
            if outside[i] {
                continue;
            }
            outside[i] = true;
            let (x, y) = (i % w, i / w);
            let neighbours = [
                (x > 0).then(|| i - 1),
                (x + 1 < w).then(|| i + 1),
                (y > 0).then(|| i - w),
                (y + 1 < h).then(|| i + w),
            ];
            stack.extend(neighbours.into_iter().flatten().filter(|&n| !outside[n] && open(n)));
        }
        let coverage = self.coverage.iter().zip(&outside).map(|(&c, &out)| if out { c } else { 1.0 }).collect();
        Mask { width: w, height: h, coverage }
    }

    /// This mask (of a smaller tile) placed with its top-left corner at `offset` on an
    /// empty tile of `size` pixels.
    #[must_use]
    pub fn placed(&self, size: usize, offset: usize) -> Mask {
        let mut coverage = vec![0.0; size * size];
        for (y, row) in self.coverage.chunks_exact(self.width.max(1)).enumerate() {
            if y + offset < size {
                let start = (y + offset) * size + offset;
                let length = row.len().min(size.saturating_sub(offset));
                coverage[start..start + length].copy_from_slice(&row[..length]);
            }
        }
        Mask { width: size, height: size, coverage }
    }
}

/// A glyph's bounds in font units: (min x, min y, max x, max y), y up.
pub fn glyph_bounds(font: &FontRef<'_>, ch: char) -> (f32, f32, f32, f32) {
    font.outline(font.glyph_id(ch)).map_or((0.0, 0.0, 0.0, 0.0), |outline| {
        let b = outline.bounds;
        (b.min.x, b.min.y, b.max.x, b.max.y)
    })
}

/// A full-colour square picture and how opaque each pixel is.
#[derive(Debug, Clone)]
pub struct Canvas {
    pub size: usize,
    pub rgb: Vec<Rgb>,
    pub alpha: Vec<f32>,
}

impl Canvas {
    pub fn new(size: usize, ground: Rgb) -> Canvas {
        Canvas { size, rgb: vec![ground; size * size], alpha: vec![0.0; size * size] }
    }

    /// Paints two nested shapes at once, `outer` in one colour and `inner` (inside it) in
    /// another, mixing each pixel by exact shares so that no fringe of the outer colour
    /// shows along the shared edge.
    pub fn paint_nested(&mut self, outer: (&Mask, Rgb), inner: (&Mask, Rgb)) {
        let cells = self.rgb.iter_mut().zip(&mut self.alpha).zip(outer.0.coverage.iter().zip(&inner.0.coverage));
        for ((pixel, alpha), (&f, &s)) in cells {
            let s = s.min(f);
            if f > 0.0 {
                let mixed = |i: usize| {
                    f32::from(pixel[i]) * (1.0 - f) + f32::from(outer.1[i]) * (f - s) + f32::from(inner.1[i]) * s
                };
                *pixel = [mixed(0).round() as u8, mixed(1).round() as u8, mixed(2).round() as u8];
                *alpha = f + *alpha * (1.0 - f);
            }
        }
    }

    /// Paints `colour` where `mask` covers.
    pub fn paint(&mut self, mask: &Mask, colour: Rgb) {
        for ((pixel, alpha), &cover) in self.rgb.iter_mut().zip(&mut self.alpha).zip(&mask.coverage) {
            if cover > 0.0 {
                *pixel = mix(*pixel, colour, cover);
                *alpha = cover + *alpha * (1.0 - cover);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disc_covers_its_centre_and_not_its_corner() {
        let disc = Mask::disc(20, 10.0, 10.0, 6.0);
        assert_eq!(disc.coverage[10 * 20 + 10], 1.0);
        assert_eq!(disc.coverage[0], 0.0);
        let edge = disc.coverage[10 * 20 + 15];
        assert!(edge > 0.0 && edge <= 1.0);
    }

    #[test]
    fn supersampled_edges_are_anti_aliased() {
        // A disc's rim covers pixels only partly: imageproc's hard edges are averaged down.
        let disc = Mask::disc(40, 20.0, 20.0, 13.3);
        let partial = disc.coverage.iter().filter(|&&c| c > 0.05 && c < 0.95).count();
        assert!(partial > 40, "only {partial} partly covered pixels");
    }

    #[test]
    fn polygon_fills_its_inside() {
        let square = Mask::polygon(10, &[(2.0, 2.0), (8.0, 2.0), (8.0, 8.0), (2.0, 8.0)]);
        assert!((square.coverage[5 * 10 + 5] - 1.0).abs() < 1e-3);
        assert_eq!(square.coverage[0], 0.0);
    }

    #[test]
    fn a_turned_glyph_is_upside_down() {
        let font = crate::fonts::sans();
        let (scale, origin) = (40.0 / 2048.0 * 0.8, (8.0, 34.0));
        let upright = Sketch::new(40).glyph(font, '\u{265F}', scale, origin).mask();
        let turned = Sketch::new(40).glyph(font, '\u{265F}', scale, origin).turn().mask();
        let row_weight = |mask: &Mask, rows: std::ops::Range<usize>| -> f32 {
            rows.flat_map(|y| mask.coverage[y * 40..(y + 1) * 40].to_vec()).sum()
        };
        // A pawn is wider at its foot than at its head.
        assert!(row_weight(&upright, 25..34) > row_weight(&upright, 6..15));
        assert!(row_weight(&turned, 6..15) > row_weight(&turned, 25..34));
    }
}
