//! The one 8-bit palette every picture is drawn in, and the colours it is made of.
//!
//! Pictures are indexed images: tiles are pre-drawn in full colour once, then each pixel is
//! mapped to the nearest palette entry. The palette therefore holds the flat colours of
//! the design plus ramps along the blends anti-aliasing produces (a square's colour into a
//! piece's outline, outline into fill, page into text), so that edges stay smooth.

use std::collections::HashMap;
use std::sync::OnceLock;

use stonemate_engine::Color;

/// A colour as red, green, blue.
pub type Rgb = [u8; 3];

pub const PAGE: Rgb = [0x26, 0x24, 0x21];
pub const TEXT: Rgb = [0xf2, 0xf0, 0xed];
pub const TEXT_DIM: Rgb = [0xa8, 0xa4, 0x9e];
pub const ACCENT: Rgb = [0x8c, 0xc8, 0x4b];
pub const LIGHT: Rgb = [0xf0, 0xd9, 0xb5];
pub const DARK: Rgb = [0xb5, 0x88, 0x63];
pub const PLAIN: Rgb = [0xe4, 0xc2, 0x85];
pub const WOOD: Rgb = [0xdc, 0xb3, 0x5c];
pub const OFF_LIMITS: Rgb = [0x9a, 0x86, 0x66];
pub const OFF_LIMITS_HATCH: Rgb = [0x84, 0x72, 0x55];
pub const LINE: Rgb = [0x3a, 0x2c, 0x18];
/// The tint mixed into a square the last turn touched.
pub const LAST_TINT: Rgb = [0xc8, 0xd2, 0x3c];
pub const LAST_GLOW: Rgb = [0xff, 0xf3, 0xc4];
pub const RED: Rgb = [0xd9, 0x2b, 0x2b];
pub const HIGHLIGHT: Rgb = [0x1e, 0x6f, 0xbf];
/// Outlines of white and green pieces; the body of black ones is almost the same.
pub const INK: Rgb = [0x1c, 0x1c, 0x1c];
pub const WHITE_BODY: Rgb = [0xf8, 0xf8, 0xf6];
pub const WHITE_SHADE: Rgb = [0xc4, 0xc4, 0xc0];
pub const BLACK_BODY: Rgb = [0x22, 0x22, 0x22];
pub const BLACK_SHINE: Rgb = [0x6e, 0x6e, 0x6e];
pub const BLACK_LINE: Rgb = [0xe6, 0xe6, 0xe2];
pub const GREEN_BODY: Rgb = [0x2f, 0x9e, 0x44];
pub const GREEN_SHINE: Rgb = [0x7c, 0xcf, 0x8c];
pub const GREEN_LINE: Rgb = [0x0e, 0x2e, 0x15];
/// The glow under a king in check.
pub const CHECK: Rgb = RED;
/// A go board's star points, drawn like its lines.
pub const STAR: Rgb = LINE;
/// The frames and arrow of a moved block (Gess).
pub const MOVE: Rgb = [0x1f, 0x5f, 0xd0];
/// The light rim around dark pieces shown on the dark page.
pub const HALO: Rgb = [0x8a, 0x86, 0x80];

/// `a` mixed with `b`: `t` = 0 gives `a`, 1 gives `b`.
#[must_use]
pub fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    let channel = |i: usize| (f32::from(a[i]) + (f32::from(b[i]) - f32::from(a[i])) * t).round() as u8;
    [channel(0), channel(1), channel(2)]
}

/// How a side's pieces are painted. Picked from the side's name, so that Chogo's "Green"
/// side looks green without the renderer knowing the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ink {
    White,
    Black,
    Green,
}

impl Ink {
    pub const ALL: [Ink; 3] = [Ink::White, Ink::Black, Ink::Green];

    /// The ink of a side called `name` (such as "Green"), else by its colour.
    #[must_use]
    pub fn of_side(name: &str, color: Color) -> Ink {
        match name.to_ascii_lowercase().as_str() {
            "white" => Ink::White,
            "black" => Ink::Black,
            "green" => Ink::Green,
            _ if color == Color::White => Ink::White,
            _ => Ink::Black,
        }
    }

    /// The main colour of the piece.
    #[must_use]
    pub fn body(self) -> Rgb {
        match self {
            Ink::White => WHITE_BODY,
            Ink::Black => BLACK_BODY,
            Ink::Green => GREEN_BODY,
        }
    }

    /// Contour of a stone or token.
    #[must_use]
    pub fn outline(self) -> Rgb {
        match self {
            Ink::White | Ink::Black => INK,
            Ink::Green => GREEN_LINE,
        }
    }

    /// Marks drawn on the body (details, movement dots, crowns): contrasting with it.
    #[must_use]
    pub fn detail(self) -> Rgb {
        match self {
            Ink::White => INK,
            Ink::Black => BLACK_LINE,
            Ink::Green => WHITE_BODY,
        }
    }

    /// The lit side of a stone.
    #[must_use]
    pub fn shine(self) -> Rgb {
        match self {
            Ink::White => WHITE_BODY,
            Ink::Black => BLACK_SHINE,
            Ink::Green => GREEN_SHINE,
        }
    }

    /// The shaded side of a stone.
    #[must_use]
    pub fn shade(self) -> Rgb {
        match self {
            Ink::White => WHITE_SHADE,
            Ink::Black => BLACK_BODY,
            Ink::Green => GREEN_BODY,
        }
    }
}

/// What a cell's background is, before marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Base {
    /// Around the board, behind hands and text.
    Page,
    Light,
    Dark,
    Plain,
    Wood,
    OffLimits,
}

impl Base {
    pub const ALL: [Base; 6] = [Base::Page, Base::Light, Base::Dark, Base::Plain, Base::Wood, Base::OffLimits];

    #[must_use]
    pub fn rgb(self) -> Rgb {
        match self {
            Base::Page => PAGE,
            Base::Light => LIGHT,
            Base::Dark => DARK,
            Base::Plain => PLAIN,
            Base::Wood => WOOD,
            Base::OffLimits => OFF_LIMITS,
        }
    }
}

/// A cell's background: its base, lit when the last turn touched it, or shaded by the
/// owner of an empty square at the end of a scored game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ground {
    Normal(Base),
    Last(Base),
    Owned(Base, Ink),
}

impl Ground {
    #[must_use]
    pub fn rgb(self) -> Rgb {
        match self {
            Ground::Normal(base) => base.rgb(),
            // On wood a yellow-green tint hardly shows: there the square is lit instead.
            Ground::Last(base @ (Base::Wood | Base::OffLimits)) => mix(base.rgb(), LAST_GLOW, 0.7),
            Ground::Last(base) => mix(base.rgb(), LAST_TINT, 0.55),
            Ground::Owned(base, Ink::White) => mix(base.rgb(), WHITE_BODY, 0.6),
            Ground::Owned(base, ink) => mix(base.rgb(), ink.body(), 0.55),
        }
    }

    /// Every ground a picture uses: the page only plain; the board's bases also lit by the
    /// last turn; those that hold empty squares at the end also shaded by an owner.
    pub fn all() -> impl Iterator<Item = Ground> {
        let owned = [Base::Light, Base::Dark, Base::Plain, Base::Wood]
            .into_iter()
            .flat_map(|base| Ink::ALL.into_iter().map(move |ink| Ground::Owned(base, ink)));
        Ground::with_marks().chain(owned)
    }

    /// The grounds pieces and marks are pre-drawn on.
    pub fn with_marks() -> impl Iterator<Item = Ground> {
        let lit = Base::ALL.into_iter().filter(|&base| base != Base::Page).map(Ground::Last);
        Base::ALL.into_iter().map(Ground::Normal).chain(lit)
    }
}

/// Number of steps in a text ramp: coverage is quantised to this many levels.
pub const TEXT_LEVELS: usize = 10;

/// The palette and the indices of its fixed colours.
#[derive(Debug)]
pub struct Palette {
    colours: Vec<Rgb>,
    exact: HashMap<Rgb, u8>,
    /// `TEXT_LEVELS` indices from the page to bright text.
    pub text: [u8; TEXT_LEVELS],
    pub text_dim: [u8; TEXT_LEVELS],
    pub accent: [u8; TEXT_LEVELS],
    pub line: u8,
    pub hatch: u8,
    pub motion: u8,
}

/// The palette has at most this many colours; index 255 stays free for GIF transparency.
pub const MAX_COLOURS: usize = 255;
/// The palette index that is never a colour (transparent in animation frames).
pub const TRANSPARENT: u8 = 255;

impl Palette {
    /// The palette, built once.
    pub fn get() -> &'static Palette {
        static PALETTE: OnceLock<Palette> = OnceLock::new();
        PALETTE.get_or_init(Palette::build)
    }

    fn build() -> Palette {
        let mut builder = Builder::default();
        for ground in Ground::all() {
            builder.add(ground.rgb());
        }
        let text = builder.ramp(PAGE, TEXT);
        let text_dim = builder.ramp(PAGE, TEXT_DIM);
        let accent = builder.ramp(PAGE, ACCENT);
        let (line, hatch, motion) = (builder.add(LINE), builder.add(OFF_LIMITS_HATCH), builder.add(MOVE));
        for ink in Ink::ALL {
            builder.steps(ink.outline(), ink.body(), 6);
            builder.steps(ink.body(), ink.detail(), 6);
            builder.steps(ink.shade(), ink.shine(), 3);
        }
        builder.steps(PAGE, HALO, 2);
        for chip in [LIGHT, PLAIN, WOOD] {
            builder.steps(PAGE, chip, 3);
        }
        for ground in Ground::with_marks() {
            builder.steps(ground.rgb(), INK, 5);
            builder.steps(ground.rgb(), RED, 2);
            builder.steps(ground.rgb(), HIGHLIGHT, 2);
        }
        assert!(builder.colours.len() <= MAX_COLOURS, "palette has {} colours", builder.colours.len());
        Palette { exact: builder.exact, colours: builder.colours, text, text_dim, accent, line, hatch, motion }
    }

    /// The index of a colour that is in the palette (every [`Ground`] is).
    #[must_use]
    pub fn index(&self, colour: Rgb) -> u8 {
        self.exact.get(&colour).copied().unwrap_or_else(|| self.nearest(colour))
    }

    /// The index of the entry closest to `colour` (by perceptually weighted distance).
    #[must_use]
    pub fn nearest(&self, colour: Rgb) -> u8 {
        let distance = |entry: &Rgb| {
            let d = |i: usize| i32::from(entry[i]) - i32::from(colour[i]);
            3 * d(0) * d(0) + 4 * d(1) * d(1) + 2 * d(2) * d(2)
        };
        let best = self.colours.iter().enumerate().min_by_key(|(_, entry)| distance(entry));
        best.map_or(0, |(index, _)| index as u8)
    }

    #[must_use]
    pub fn ground(&self, ground: Ground) -> u8 {
        self.index(ground.rgb())
    }

    /// The palette as `r g b` bytes, for the PNG `PLTE` chunk and the GIF colour table.
    #[must_use]
    pub fn bytes(&self) -> Vec<u8> {
        self.colours.iter().flatten().copied().collect()
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.colours.len()
    }

    #[must_use]
    pub fn rgb(&self, index: u8) -> Rgb {
        self.colours[usize::from(index)]
    }
}

#[derive(Default)]
struct Builder {
    colours: Vec<Rgb>,
    exact: HashMap<Rgb, u8>,
}

impl Builder {
    fn add(&mut self, colour: Rgb) -> u8 {
        if let Some(&index) = self.exact.get(&colour) {
            return index;
        }
        let index = self.colours.len() as u8;
        self.colours.push(colour);
        self.exact.insert(colour, index);
        index
    }

    /// `count` colours strictly between `a` and `b`.
    fn steps(&mut self, a: Rgb, b: Rgb, count: usize) {
        for step in 1..=count {
            self.add(mix(a, b, step as f32 / (count + 1) as f32));
        }
    }

    /// The full ramp from `a` (level 0) to `b` (the last level).
    fn ramp(&mut self, a: Rgb, b: Rgb) -> [u8; TEXT_LEVELS] {
        std::array::from_fn(|level| self.add(mix(a, b, level as f32 / (TEXT_LEVELS - 1) as f32)))
    }
}

/// The palette of every picture, as `r g b` triples (index 255 is never used: animations
/// use it for transparency).
#[must_use]
pub fn palette() -> Vec<[u8; 3]> {
    let palette = Palette::get();
    (0..palette.len()).map(|index| palette.rgb(index as u8)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palette_fits_in_255_colours_and_holds_every_ground() {
        let palette = Palette::get();
        assert!(palette.len() <= MAX_COLOURS);
        for ground in Ground::all() {
            assert_eq!(palette.rgb(palette.ground(ground)), ground.rgb());
        }
    }

    #[test]
    fn side_names_pick_inks() {
        assert_eq!(Ink::of_side("Green", Color::Black), Ink::Green);
        assert_eq!(Ink::of_side("Black", Color::Black), Ink::Black);
        assert_eq!(Ink::of_side("Sente", Color::White), Ink::White);
    }
}
