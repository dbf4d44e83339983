//! The artwork of every piece and mark, as layers of coverage masks and colours on a
//! square tile. Drawn once per size (see `tiles.rs`), never per request.
//!
//! - K Q R B N P: the chess figures of DejaVu Sans (a solid figure under a hollow one).
//! - G (nightrider): the knight turned upside down, the usual fairy-chess sign of a
//!   knight that rides.
//! - H (Chinese knight): a knight on a round disc, like a xiangqi piece.
//! - W F D A (one-step and two-step leapers): square tokens showing where they move: a
//!   plus (wazir), a cross (ferz), four dots two steps out orthogonally (dabbaba) or
//!   diagonally (alfil).
//! - S: a stone. On boards drawn as stones (plain or intersections) the king is a
//!   crowned stone, so that it reads as one of the stones but clearly the special one.

use stonemate_engine::{Look, Role};

use crate::art::{Canvas, Mask, Placement, glyph, glyph_bounds};
use crate::fonts;
use crate::palette::{Base, HALO, HIGHLIGHT, Ink, RED, Rgb};

/// What a tile shows on top of its ground.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mark {
    Piece(Role, Ink),
    /// A piece was captured here by the last turn and the square is empty now.
    Captured,
    /// A piece was captured here and another piece stands on it: a cross in the corner.
    CapturedCorner,
    /// A square the picture points out (such as a legal target), empty.
    Dot,
    /// A square the picture points out, with a piece on it.
    Ring,
    /// The stone beside a player's name, in the side's colour.
    Swatch(Ink),
}

impl Mark {
    /// Every mark a tile set holds.
    pub fn all() -> impl Iterator<Item = Mark> {
        let pieces = Ink::ALL.into_iter().flat_map(|ink| Role::ALL.into_iter().map(move |role| Mark::Piece(role, ink)));
        let swatches = Ink::ALL.into_iter().map(Mark::Swatch);
        pieces.chain([Mark::Captured, Mark::CapturedCorner, Mark::Dot, Mark::Ring]).chain(swatches)
    }
}

/// One coloured shape of an artwork, painted in order: a plain shape, or a shape with
/// another inside it whose shared edges must mix without a fringe.
#[derive(Debug, Clone)]
pub enum Layer {
    Shape(Mask, Rgb),
    Nested { outer: Mask, outer_colour: Rgb, inner: Mask, inner_colour: Rgb },
}

impl Layer {
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
        Mark::Captured => cross(size, (centre, centre), 0.2 * s, (0.085 * s).max(2.5)),
        Mark::CapturedCorner => cross(size, (0.8 * s, 0.2 * s), (0.1 * s).max(3.5), (0.055 * s).max(2.0)),
        Mark::Dot => vec![shape(Mask::disc(size, centre, centre, (0.13 * s).max(3.0)), HIGHLIGHT)],
        Mark::Ring => vec![shape(Mask::ring(size, centre, centre, 0.465 * s, (0.06 * s).max(2.0)), HIGHLIGHT)],
    }
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
        Role::King | Role::Queen | Role::Rook | Role::Bishop | Role::Knight | Role::Pawn => {
            figure(role, ink, size, false)
        }
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
    let mut placement = Placement::upright(scale, origin);
    if turned {
        placement = placement.turned((s / 2.0, s / 2.0));
    }
    let solid = glyph(font, solid, size, placement);
    let body = solid.filled();
    match ink {
        // The solid figure draws its inner lines as gaps: a light body beneath shows them.
        Ink::Black => {
            vec![Layer::Nested { outer: body, outer_colour: ink.detail(), inner: solid, inner_colour: ink.body() }]
        }
        Ink::White | Ink::Green => {
            vec![shape(body, ink.body()), shape(glyph(font, hollow, size, placement), ink.outline())]
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
        shape(glyph(font, knight, size, Placement::upright(scale, origin)), ink.detail()),
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
    let (arm, thick, far, dot) = (0.2 * s, (0.09 * s).max(2.0), 0.235 * s, (0.07 * s).max(1.6));
    let directions: [(f32, f32); 4] = match role {
        Role::Wazir | Role::Dabbaba => [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)],
        _ => [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)],
    };
    let marks = directions.into_iter().map(|(dx, dy)| match role {
        Role::Wazir | Role::Ferz => {
            let reach = arm / dx.hypot(dy) * 1.15;
            Mask::stroke(size, (c, c), (c + dx * reach, c + dy * reach), thick)
        }
        _ => {
            let reach = far / dx.hypot(dy) * if dx * dy == 0.0 { 1.0 } else { 1.3 };
            Mask::disc(size, c + dx * reach, c + dy * reach, dot)
        }
    });
    let marks = marks.reduce(|all, mark| all.union(&mark)).expect("four directions");
    layers.push(shape(marks, ink.detail()));
    layers
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
