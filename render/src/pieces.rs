//! The artwork of every piece and mark, as layers of coverage masks and colours on a
//! square tile. Drawn once per size (see `tiles.rs`), never per request.
//!
//! - K Q R B N P: the chess figures of DejaVu Sans (a solid figure under a hollow one).
//! - G (nightrider): the knight turned upside down, the usual fairy-chess sign of a
//!   knight that rides.
//! - H (Chinese knight): a knight on a round disc, like a xiangqi piece.
//! - B: a mitre with its slit, drawn here (the font's bishop reads as a pawn when small).
//! - W F D A (one-step and two-step leapers): square tokens showing where they move: four
//!   short arrows orthogonally (wazir) or diagonally (ferz) from a centre dot, four dots two
//!   steps out orthogonally (dabbaba) or diagonally (alfil).
//! - S: a stone. On boards drawn as stones (plain or intersections) the king is a
//!   crowned stone, so that it reads as one of the stones but clearly the special one.

use stonemate_engine::{Look, Role};

use crate::art::{Canvas, Mask, Sketch, glyph_bounds};
use crate::fonts;
use crate::palette::{Base, CHECK, HALO, HIGHLIGHT, Ink, RED, Rgb, STAR};

/// What a tile shows on top of its ground.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mark {
    Piece(Role, Ink),
    /// A piece was captured here by the last turn and the square is empty now: a small
    /// likeness of it, marked by [`Mark::CapturedCorner`].
    Ghost(Role, Ink),
    /// A piece was captured here: a cross in the corner.
    CapturedCorner,
    /// A square the picture points out (such as a legal target), empty.
    Dot,
    /// A square the picture crosses out (such as a piece proposed as dead): a cross over
    /// the whole cell.
    Crossed,
    /// A square the picture points out, with a piece on it.
    Ring,
    /// The stone beside a player's name, in the side's colour.
    Swatch(Ink),
    /// A red glow under a king in check.
    Check,
    /// A star point of a go board.
    Star,
}

/// One coloured shape of an artwork, painted in order: a plain shape, or a shape with
/// another inside it whose shared edges must mix without a fringe.
#[derive(Debug, Clone)]
pub enum Layer {
    Shape(Mask, Rgb),
    Nested { outer: Mask, outer_colour: Rgb, inner: Mask, inner_colour: Rgb },
}

impl Layer {
    /// What the layer holds, in bytes.
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Layer>()
            + match self {
                Layer::Shape(mask, _) => mask.bytes(),
                Layer::Nested { outer, inner, .. } => outer.bytes() + inner.bytes(),
            }
    }

    pub fn paint(&self, canvas: &mut Canvas) {
        match self {
            Layer::Shape(mask, colour) => canvas.paint(mask, *colour),
            Layer::Nested { outer, outer_colour, inner, inner_colour } => {
                canvas.paint_nested((outer, *outer_colour), (inner, *inner_colour));
            }
        }
    }
}

fn shape(mask: Mask, colour: Rgb) -> Layer {
    Layer::Shape(mask, colour)
}

/// The layers of `mark` on a tile of `size` pixels, for a board of `look`. Pieces shown
/// on the dark page (in hand) stand on a chip of the board's colour, so that both sides'
/// pieces look exactly as they do on the board.
pub fn layers(mark: Mark, look: Look, size: usize, on_page: bool) -> Vec<Layer> {
    let s = size as f32;
    let centre = s / 2.0;
    match mark {
        Mark::Piece(role, ink) if on_page => {
            let chip = Mask::rounded_square(size, centre, centre, centre - 0.5, 0.18 * s);
            let mut layers = vec![shape(chip, chip_colour(look))];
            layers.extend(piece(role, ink, look, size));
            layers
        }
        Mark::Piece(role, ink) => piece(role, ink, look, size),
        Mark::Swatch(ink) => {
            let mut layers = stone(ink, size);
            if ink == Ink::Black {
                // A light rim, so that a black stone shows on the dark page.
                let rim = Mask::disc(size, centre, centre, STONE_SHARE * s + (s / 16.0).max(1.5));
                layers.insert(0, shape(rim, HALO));
            }
            layers
        }
        Mark::Ghost(role, ink) => ghost(role, ink, look, size),
        Mark::CapturedCorner => cross(size, (0.8 * s, 0.2 * s), (0.1 * s).max(3.5), (0.055 * s).max(2.0)),
        Mark::Crossed => cross(size, (centre, centre), 0.3 * s, (0.08 * s).max(2.5)),
        Mark::Dot => vec![shape(Mask::disc(size, centre, centre, (0.13 * s).max(3.0)), HIGHLIGHT)],
        Mark::Ring => vec![shape(Mask::ring(size, centre, centre, 0.465 * s, (0.06 * s).max(2.0)), HIGHLIGHT)],
        Mark::Check => check_glow(size),
        Mark::Star => vec![shape(Mask::disc(size, centre, centre, (0.085 * s).max(2.0)), STAR)],
    }
}

/// The share of a tile a captured piece's likeness fills.
const GHOST_SHARE: f32 = 0.66;

/// A captured piece, small, where it stood (marked by the cross drawn in its corner, so
/// that what it was, such as a king's crown, stays plain to see).
fn ghost(role: Role, ink: Ink, look: Look, size: usize) -> Vec<Layer> {
    let small = ((size as f32 * GHOST_SHARE).round() as usize).max(4);
    let offset = (size - small.min(size)) / 2;
    let place = |mask: Mask| mask.placed(size, offset);
    piece(role, ink, look, small)
        .into_iter()
        .map(|layer| match layer {
            Layer::Shape(mask, colour) => Layer::Shape(place(mask), colour),
            Layer::Nested { outer, outer_colour, inner, inner_colour } => {
                Layer::Nested { outer: place(outer), outer_colour, inner: place(inner), inner_colour }
            }
        })
        .collect()
}

/// Rings of red, stronger towards the middle, under a king in check.
fn check_glow(size: usize) -> Vec<Layer> {
    let (s, c) = (size as f32, size as f32 / 2.0);
    [(0.5, 0.3), (0.42, 0.55), (0.32, 0.85)]
        .into_iter()
        .map(|(radius, strength)| shape(Mask::disc(size, c, c, radius * s).faded(strength), CHECK))
        .collect()
}

/// The chip under a piece in hand: the colour of the board's (light) squares.
fn chip_colour(look: Look) -> Rgb {
    match look {
        Look::Checkered => Base::Light.rgb(),
        Look::Plain => Base::Plain.rgb(),
        Look::Intersections => Base::Wood.rgb(),
    }
}

fn piece(role: Role, ink: Ink, look: Look, size: usize) -> Vec<Layer> {
    let stones = look != Look::Checkered;
    match role {
        Role::King if stones => crowned_stone(ink, size),
        Role::Bishop => bishop(ink, size),
        Role::King | Role::Queen | Role::Rook | Role::Knight | Role::Pawn => figure(role, ink, size, false),
        Role::Nightrider => figure(Role::Knight, ink, size, true),
        Role::Horse => medallion(ink, size),
        Role::Wazir | Role::Ferz | Role::Dabbaba | Role::Alfil => token(role, ink, size),
        Role::Stone => stone(ink, size),
    }
}

/// The offset of a chess figure from the king in U+2654 (white) and U+265A (black).
fn figure_offset(role: Role) -> u32 {
    match role {
        Role::King => 0,
        Role::Queen => 1,
        Role::Rook => 2,
        Role::Bishop => 3,
        Role::Knight => 4,
        _ => 5,
    }
}

/// The share of a tile the tallest or widest chess figure fills.
const FIGURE_SHARE: f32 = 0.8;

/// A chess figure, optionally turned upside down. Every figure uses the same scale (set by
/// the largest), so a pawn stays smaller than a king, and is centred on the tile.
fn figure(role: Role, ink: Ink, size: usize, turned: bool) -> Vec<Layer> {
    let font = fonts::sans();
    let offset = figure_offset(role);
    let hollow = char::from_u32(0x2654 + offset).unwrap_or('?');
    let solid = char::from_u32(0x265A + offset).unwrap_or('?');
    let largest = (0x265A..0x2660)
        .filter_map(char::from_u32)
        .map(|ch| {
            let (x0, y0, x1, y1) = glyph_bounds(font, ch);
            (x1 - x0).max(y1 - y0)
        })
        .fold(1.0, f32::max);
    let s = size as f32;
    let scale = FIGURE_SHARE * s / largest;
    let (x0, y0, x1, y1) = glyph_bounds(font, solid);
    let origin = (s / 2.0 - scale * (x0 + x1) / 2.0, s / 2.0 + scale * (y0 + y1) / 2.0);
    let glyph = |ch: char| {
        let mut sketch = Sketch::text(size);
        sketch.glyph(font, ch, scale, origin);
        if turned {
            sketch.turn();
        }
        sketch.mask()
    };
    let solid = glyph(solid);
    let body = solid.filled();
    match ink {
        // The solid figure draws its inner lines as gaps: a light body beneath shows them.
        Ink::Black => {
            vec![Layer::Nested { outer: body, outer_colour: ink.detail(), inner: solid, inner_colour: ink.body() }]
        }
        Ink::White | Ink::Green => {
            vec![shape(body, ink.body()), shape(glyph(hollow), ink.outline())]
        }
    }
}

/// The radius of a stone as a share of the tile.
const STONE_SHARE: f32 = 0.46;

fn outline_width(size: usize) -> f32 {
    (size as f32 / 26.0).max(1.2)
}

fn stone(ink: Ink, size: usize) -> Vec<Layer> {
    let (s, centre) = (size as f32, size as f32 / 2.0);
    let r = STONE_SHARE * s;
    let body = Mask::disc(size, centre, centre, r - outline_width(size));
    // A soft highlight towards the top left gives the stone some depth.
    let shine = Mask::disc(size, centre - 0.14 * s, centre - 0.14 * s, 0.16 * s);
    let mut layers = vec![shape(Mask::disc(size, centre, centre, r), ink.outline()), shape(body, ink.body())];
    if ink != Ink::White {
        let fade = Mask { coverage: shine.coverage.iter().map(|c| c * 0.5).collect(), ..shine };
        layers.push(shape(fade, ink.shine()));
    }
    layers
}

/// A stone with a crown on it: the king of a game played with stones.
fn crowned_stone(ink: Ink, size: usize) -> Vec<Layer> {
    let s = size as f32;
    let (cx, cy, w) = (s / 2.0, s / 2.0 + 0.02 * s, 0.25 * s);
    let crown: Vec<(f32, f32)> =
        [(-1.0, 0.55), (1.0, 0.55), (1.1, -0.6), (0.5, -0.05), (0.0, -0.85), (-0.5, -0.05), (-1.1, -0.6)]
            .into_iter()
            .map(|(x, y)| (cx + x * w, cy + y * w))
            .collect();
    let mut layers = stone(ink, size);
    layers.push(shape(Mask::polygon(size, &crown), ink.detail()));
    layers
}

/// A round disc with a knight's silhouette on it (the Chinese knight, or horse).
fn medallion(ink: Ink, size: usize) -> Vec<Layer> {
    let (s, centre) = (size as f32, size as f32 / 2.0);
    let r = STONE_SHARE * s;
    let font = fonts::sans();
    let knight = '\u{265E}';
    let (x0, y0, x1, y1) = glyph_bounds(font, knight);
    let scale = 1.2 * r / (x1 - x0).max(y1 - y0);
    let origin = (centre - scale * (x0 + x1) / 2.0, centre + scale * (y0 + y1) / 2.0);
    vec![
        shape(Mask::disc(size, centre, centre, r), ink.outline()),
        shape(Mask::disc(size, centre, centre, r - outline_width(size)), ink.body()),
        shape(Sketch::text(size).glyph(font, knight, scale, origin).mask(), ink.detail()),
    ]
}

/// The bishop: a mitre with a slit, on a collar and a base. Its outline is the shape
/// itself; its body the shape drawn again, shrunk towards the middle by the outline's width.
fn bishop(ink: Ink, size: usize) -> Vec<Layer> {
    let s = size as f32;
    let edge = outline_width(size);
    let silhouette = |inset: f32| {
        let c = s / 2.0;
        let at = |x: f32, y: f32| (c + x * s, y * s);
        let mut sketch = Sketch::new(size);
        // The mitre: a pointed arch, widest two thirds of the way down.
        let mitre = [
            at(0.0, 0.2 + inset / s),
            at(0.09 - inset / s, 0.27),
            at(0.155 - inset / s, 0.37),
            at(0.175 - inset / s, 0.48),
            at(0.15 - inset / s, 0.6 - inset / s),
            at(-0.15 + inset / s, 0.6 - inset / s),
            at(-0.175 + inset / s, 0.48),
            at(-0.155 + inset / s, 0.37),
            at(-0.09 + inset / s, 0.27),
        ];
        sketch.polygon(&mitre);
        sketch.disc(at(0.0, 0.155), (0.05 * s - inset).max(0.0));
        let band = |sketch: &mut Sketch, top: f32, bottom: f32, half: f32| {
            let (t, b, h) = (top + inset / s, bottom - inset / s, half - inset / s);
            if b > t && h > 0.0 {
                sketch.polygon(&[at(-h, t), at(h, t), at(h, b), at(-h, b)]);
            }
        };
        band(&mut sketch, 0.595, 0.7, 0.19);
        band(&mut sketch, 0.7, 0.775, 0.12);
        band(&mut sketch, 0.765, 0.86, 0.29);
        sketch.mask()
    };
    let c = s / 2.0;
    let slit = Mask::stroke(size, (c - 0.02 * s, 0.47 * s), (c + 0.085 * s, 0.34 * s), (0.045 * s).max(1.5));
    let collar = Mask::stroke(size, (c - 0.16 * s, 0.7 * s), (c + 0.16 * s, 0.7 * s), (0.03 * s).max(1.0));
    vec![
        shape(silhouette(0.0), ink.outline()),
        shape(silhouette(edge), ink.body()),
        shape(slit.union(&collar), ink.detail()),
    ]
}

/// A square token with the leaper's moves drawn on it.
fn token(role: Role, ink: Ink, size: usize) -> Vec<Layer> {
    let (s, c) = (size as f32, size as f32 / 2.0);
    let half = 0.39 * s;
    let edge = outline_width(size);
    let mut layers = vec![
        shape(Mask::rounded_square(size, c, c, half, 0.12 * s), ink.outline()),
        shape(Mask::rounded_square(size, c, c, half - edge, 0.12 * s - edge), ink.body()),
    ];
    let (arm, thick, far, dot) = (0.33 * s, (0.075 * s).max(1.5), 0.235 * s, (0.07 * s).max(1.6));
    let directions: [(f32, f32); 4] = match role {
        Role::Wazir | Role::Dabbaba => [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)],
        _ => [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)],
    };
    let marks = directions.into_iter().map(|(dx, dy)| match role {
        Role::Wazir | Role::Ferz => arrow(size, (c, c), (dx / dx.hypot(dy), dy / dx.hypot(dy)), arm, thick),
        _ => {
            let reach = far / dx.hypot(dy) * if dx * dy == 0.0 { 1.0 } else { 1.3 };
            Mask::disc(size, c + dx * reach, c + dy * reach, dot)
        }
    });
    let mut marks = marks.reduce(|all, mark| all.union(&mark)).expect("four directions");
    if matches!(role, Role::Wazir | Role::Ferz) {
        marks = marks.union(&Mask::disc(size, c, c, (0.06 * s).max(1.4)));
    }
    layers.push(shape(marks, ink.detail()));
    layers
}

/// A short arrow from near `centre` outwards in `direction` (a unit vector), `reach` long:
/// a shaft that starts clear of the centre, and a head.
fn arrow(size: usize, (cx, cy): (f32, f32), (dx, dy): (f32, f32), reach: f32, thick: f32) -> Mask {
    let s = size as f32;
    let head = (0.14 * s).max(2.5);
    let at = |along: f32, across: f32| (cx + dx * along - dy * across, cy + dy * along + dx * across);
    let mut sketch = Sketch::new(size);
    sketch.stroke(at(0.17 * s, 0.0), at(reach - head * 0.6, 0.0), thick);
    sketch.polygon(&[at(reach, 0.0), at(reach - head, head * 0.7), at(reach - head, -head * 0.7)]);
    sketch.mask()
}

fn cross(size: usize, (cx, cy): (f32, f32), half: f32, width: f32) -> Vec<Layer> {
    let a = Mask::stroke(size, (cx - half, cy - half), (cx + half, cy + half), width);
    let b = Mask::stroke(size, (cx - half, cy + half), (cx + half, cy - half), width);
    vec![shape(a.union(&b), RED)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::palette::LIGHT;

    fn drawn(mark: Mark, look: Look) -> Canvas {
        let mut canvas = Canvas::new(40, LIGHT);
        for layer in layers(mark, look, 40, false) {
            layer.paint(&mut canvas);
        }
        canvas
    }

    /// Pixels where two tiles differ clearly.
    fn difference(a: &Canvas, b: &Canvas) -> usize {
        let far = |p: &Rgb, q: &Rgb| p.iter().zip(q).any(|(x, y)| x.abs_diff(*y) > 64);
        a.rgb.iter().zip(&b.rgb).filter(|(p, q)| far(p, q)).count()
    }

    #[test]
    fn every_role_has_artwork_and_no_two_look_alike() {
        let empty = Canvas::new(40, LIGHT);
        for look in [Look::Checkered, Look::Plain, Look::Intersections] {
            for ink in Ink::ALL {
                let tiles: Vec<(Role, Canvas)> =
                    Role::ALL.into_iter().map(|role| (role, drawn(Mark::Piece(role, ink), look))).collect();
                for (i, (role, tile)) in tiles.iter().enumerate() {
                    assert!(difference(tile, &empty) > 150, "{role:?} ({ink:?}, {look:?}) draws almost nothing");
                    for (other, other_tile) in &tiles[i + 1..] {
                        let differing = difference(tile, other_tile);
                        assert!(
                            differing > 60,
                            "{role:?} and {other:?} ({ink:?}, {look:?}) differ in {differing} pixels"
                        );
                    }
                }
            }
        }
    }

    fn painted(layers: Vec<Layer>) -> Canvas {
        let mut canvas = Canvas::new(40, LIGHT);
        for layer in layers {
            layer.paint(&mut canvas);
        }
        canvas
    }

    #[test]
    fn the_bishop_is_told_apart_from_the_pawn() {
        // The font's bishop is a pawn with a little cross on top; ours must differ clearly more.
        for ink in [Ink::White, Ink::Black] {
            let pawn = drawn(Mark::Piece(Role::Pawn, ink), Look::Checkered);
            let ours = difference(&drawn(Mark::Piece(Role::Bishop, ink), Look::Checkered), &pawn);
            let font = difference(&painted(figure(Role::Bishop, ink, 40, false)), &pawn);
            assert!(ours * 4 > font * 5, "{ink:?}: ours differs from the pawn in {ours} pixels, the font's in {font}");
        }
    }

    #[test]
    fn the_ferz_shows_arrows_not_a_cross() {
        // A cross runs through the middle; the ferz's arrows start clear of its centre dot.
        for ink in [Ink::White, Ink::Black] {
            let ferz = drawn(Mark::Piece(Role::Ferz, ink), Look::Checkered);
            for (x, y) in [(22, 22), (17, 22), (22, 17), (17, 17)] {
                assert_eq!(ferz.rgb[y * 40 + x], ink.body(), "{ink:?}: the diagonal by the centre is the body");
            }
            assert_eq!(ferz.rgb[20 * 40 + 20], ink.detail(), "{ink:?}: the centre dot");
        }
    }

    #[test]
    fn king_is_a_crowned_stone_on_stone_boards() {
        for look in [Look::Plain, Look::Intersections] {
            let king = drawn(Mark::Piece(Role::King, Ink::Black), look);
            let stone = drawn(Mark::Piece(Role::Stone, Ink::Black), look);
            let crown = difference(&king, &stone);
            assert!((40..400).contains(&crown), "the crown covers {crown} pixels");
        }
        let figure = drawn(Mark::Piece(Role::King, Ink::Black), Look::Checkered);
        assert!(difference(&figure, &drawn(Mark::Piece(Role::Stone, Ink::Black), Look::Checkered)) > 400);
    }
}
