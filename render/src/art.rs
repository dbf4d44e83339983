//! Anti-aliased shapes in full colour, used once per size to pre-draw tiles: coverage
//! masks (discs, rings, rounded squares, strokes, polygons, font glyphs under any affine
//! transform) and a colour canvas they are painted onto.

use ab_glyph::{Font, FontRef, OutlineCurve};
use ab_glyph_rasterizer::{Point, Rasterizer, point};

use crate::palette::{Rgb, mix};

/// How much of each pixel a shape covers, 0 to 1.
#[derive(Debug, Clone)]
pub struct Mask {
    pub width: usize,
    pub height: usize,
    pub coverage: Vec<f32>,
}

impl Mask {
    /// A mask from a signed distance function (negative inside), sampled at pixel centres:
    /// a pixel is covered by how far the edge lies past its centre, which anti-aliases.
    pub fn from_distance(width: usize, height: usize, distance: impl Fn(f32, f32) -> f32) -> Mask {
        let mut coverage = Vec::with_capacity(width * height);
        for y in 0..height {
            for x in 0..width {
                let d = distance(x as f32 + 0.5, y as f32 + 0.5);
                coverage.push((0.5 - d).clamp(0.0, 1.0));
            }
        }
        Mask { width, height, coverage }
    }

    pub fn disc(size: usize, cx: f32, cy: f32, r: f32) -> Mask {
        Mask::from_distance(size, size, |x, y| (x - cx).hypot(y - cy) - r)
    }

    pub fn ring(size: usize, cx: f32, cy: f32, r: f32, width: f32) -> Mask {
        Mask::from_distance(size, size, |x, y| ((x - cx).hypot(y - cy) - r).abs() - width / 2.0)
    }

    /// A square of half-side `half` centred at (`cx`, `cy`) with corners rounded by `radius`.
    pub fn rounded_square(size: usize, cx: f32, cy: f32, half: f32, radius: f32) -> Mask {
        Mask::from_distance(size, size, |x, y| {
            let qx = (x - cx).abs() - half + radius;
            let qy = (y - cy).abs() - half + radius;
            qx.max(0.0).hypot(qy.max(0.0)) + qx.max(qy).min(0.0) - radius
        })
    }

    /// A stroke from `a` to `b` with round ends.
    pub fn stroke(size: usize, a: (f32, f32), b: (f32, f32), width: f32) -> Mask {
        Mask::from_distance(size, size, |x, y| segment_distance((x, y), a, b) - width / 2.0)
    }

    /// A filled polygon (pixel coordinates, y down).
    pub fn polygon(size: usize, points: &[(f32, f32)]) -> Mask {
        let mut rasterizer = Rasterizer::new(size, size);
        for (i, &(x, y)) in points.iter().enumerate() {
            let (nx, ny) = points[(i + 1) % points.len()];
            rasterizer.draw_line(point(x, y), point(nx, ny));
        }
        Mask::from_rasterizer(size, size, &rasterizer)
    }

    fn from_rasterizer(width: usize, height: usize, rasterizer: &Rasterizer) -> Mask {
        let mut coverage = vec![0.0; width * height];
        rasterizer.for_each_pixel_2d(|x, y, alpha| {
            coverage[y as usize * width + x as usize] = alpha.clamp(0.0, 1.0);
        });
        Mask { width, height, coverage }
    }

    /// The union of two masks of the same size.
    #[must_use]
    pub fn union(mut self, other: &Mask) -> Mask {
        for (a, b) in self.coverage.iter_mut().zip(&other.coverage) {
            *a = a.max(*b);
        }
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
}

fn segment_distance(p: (f32, f32), a: (f32, f32), b: (f32, f32)) -> f32 {
    let (px, py, bx, by) = (p.0 - a.0, p.1 - a.1, b.0 - a.0, b.1 - a.1);
    let length = bx * bx + by * by;
    let t = if length == 0.0 { 0.0 } else { ((px * bx + py * by) / length).clamp(0.0, 1.0) };
    (px - bx * t).hypot(py - by * t)
}

/// Places a glyph: pixel = `origin` + `matrix` * font units (font units have y up).
#[derive(Debug, Clone, Copy)]
pub struct Placement {
    pub matrix: [[f32; 2]; 2],
    pub origin: (f32, f32),
}

impl Placement {
    /// Scale `scale` pixels per font unit, upright, with font point (0, 0) at `origin`.
    pub fn upright(scale: f32, origin: (f32, f32)) -> Placement {
        Placement { matrix: [[scale, 0.0], [0.0, -scale]], origin }
    }

    /// The same placement turned half a circle about `centre` (pixel coordinates).
    #[must_use]
    pub fn turned(self, centre: (f32, f32)) -> Placement {
        let [[a, b], [c, d]] = self.matrix;
        let origin = (2.0 * centre.0 - self.origin.0, 2.0 * centre.1 - self.origin.1);
        Placement { matrix: [[-a, -b], [-c, -d]], origin }
    }

    fn apply(&self, p: Point) -> Point {
        let [[a, b], [c, d]] = self.matrix;
        point(self.origin.0 + a * p.x + b * p.y, self.origin.1 + c * p.x + d * p.y)
    }
}

/// The glyph of `ch` rasterised on a `size` square; an empty mask if the font lacks it.
pub fn glyph(font: &FontRef<'_>, ch: char, size: usize, placement: Placement) -> Mask {
    let mut rasterizer = Rasterizer::new(size, size);
    if let Some(outline) = font.outline(font.glyph_id(ch)) {
        for curve in &outline.curves {
            let at = |p: &Point| placement.apply(*p);
            match curve {
                OutlineCurve::Line(p0, p1) => rasterizer.draw_line(at(p0), at(p1)),
                OutlineCurve::Quad(p0, p1, p2) => rasterizer.draw_quad(at(p0), at(p1), at(p2)),
                OutlineCurve::Cubic(p0, p1, p2, p3) => rasterizer.draw_cubic(at(p0), at(p1), at(p2), at(p3)),
            }
        }
    }
    Mask::from_rasterizer(size, size, &rasterizer)
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
    fn polygon_fills_its_inside() {
        let square = Mask::polygon(10, &[(2.0, 2.0), (8.0, 2.0), (8.0, 8.0), (2.0, 8.0)]);
        assert!((square.coverage[5 * 10 + 5] - 1.0).abs() < 1e-3);
        assert_eq!(square.coverage[0], 0.0);
    }
}
