//! Pre-drawn tiles: every piece and mark, drawn once per cell size and look on every
//! ground it can stand on, then mapped to palette indices. A request only copies them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use stonemate_engine::Look;

use crate::art::Canvas;
use crate::frame::Frame;
use crate::palette::{Base, Ground, Palette, Rgb};
use crate::pieces::{Mark, layers};

/// A square of palette indices and, per row, the span of pixels the artwork covers
/// (outside it the tile is its ground, which the frame already shows).
#[derive(Debug)]
pub struct Tile {
    size: usize,
    pixels: Vec<u8>,
    spans: Vec<(u16, u16)>,
}

/// Pixels less covered than this count as not drawn (they keep the frame's ground).
const DRAWN: f32 = 0.02;

impl Tile {
    fn from_canvas(canvas: &Canvas, memo: &mut HashMap<Rgb, u8>) -> Tile {
        let palette = Palette::get();
        let size = canvas.size;
        let pixels = canvas.rgb.iter().map(|&rgb| *memo.entry(rgb).or_insert_with(|| palette.nearest(rgb))).collect();
        let spans = canvas
            .alpha
            .chunks(size)
            .map(|row| {
                let first = row.iter().position(|&a| a > DRAWN);
                let last = row.iter().rposition(|&a| a > DRAWN);
                match (first, last) {
                    (Some(first), Some(last)) => (first as u16, last as u16 + 1),
                    _ => (0, 0),
                }
            })
            .collect();
        Tile { size, pixels, spans }
    }

    /// Copies the drawn part of the tile with its top-left corner at (`x`, `y`).
    pub fn draw(&self, frame: &mut Frame, x: usize, y: usize) {
        for (row, &(start, end)) in self.spans.iter().enumerate() {
            if start < end {
                let source = &self.pixels[row * self.size + usize::from(start)..row * self.size + usize::from(end)];
                frame.copy_row(x + usize::from(start), y + row, source);
            }
        }
    }
}

/// Which tiles a set holds: those of a board of some look, or those of the hands beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    Board(Look),
    Hand(Look),
}

impl Place {
    fn grounds(self) -> Vec<Ground> {
        let bases: &[Base] = match self {
            Place::Hand(_) => return vec![Ground::Normal(Base::Page)],
            Place::Board(Look::Checkered) => &[Base::Light, Base::Dark, Base::OffLimits],
            Place::Board(Look::Plain) => &[Base::Plain, Base::OffLimits],
            Place::Board(Look::Intersections) => &[Base::Wood, Base::OffLimits],
        };
        bases.iter().flat_map(|&base| [Ground::Normal(base), Ground::Last(base)]).collect()
    }

    fn look(self) -> Look {
        match self {
            Place::Board(look) | Place::Hand(look) => look,
        }
    }
}

/// Every tile of one size and place.
#[derive(Debug)]
pub struct TileSet {
    tiles: HashMap<(Mark, Ground), Tile>,
}

type Cache = HashMap<(usize, Place), Arc<TileSet>>;

/// At most this many tile sets are kept (a set is one size of one look); past it the
/// cache starts afresh, which bounds memory whatever sizes are asked for.
const MAX_CACHED_SETS: usize = 24;

impl TileSet {
    /// The tiles of `size` pixels for `place`, drawn on first use and kept.
    pub fn get(size: usize, place: Place) -> Arc<TileSet> {
        static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
        let cache = CACHE.get_or_init(Mutex::default);
        let mut cache = cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(set) = cache.get(&(size, place)) {
            return Arc::clone(set);
        }
        if cache.len() >= MAX_CACHED_SETS {
            cache.clear();
        }
        let set = Arc::new(TileSet::build(size, place));
        cache.insert((size, place), Arc::clone(&set));
        set
    }

    fn build(size: usize, place: Place) -> TileSet {
        let grounds = place.grounds();
        let mut memo = HashMap::new();
        let mut tiles = HashMap::new();
        for mark in Mark::all() {
            let layers = layers(mark, place.look(), size, matches!(place, Place::Hand(_)));
            for &ground in &grounds {
                let mut canvas = Canvas::new(size, ground.rgb());
                for layer in &layers {
                    layer.paint(&mut canvas);
                }
                tiles.insert((mark, ground), Tile::from_canvas(&canvas, &mut memo));
            }
        }
        TileSet { tiles }
    }

    /// The tile of `mark` on `ground`; marks on a ground without tiles of their own (an
    /// owner's shade) use the tiles of the plain base.
    pub fn tile(&self, mark: Mark, ground: Ground) -> Option<&Tile> {
        self.tiles.get(&(mark, ground)).or_else(|| match ground {
            Ground::Owned(base, _) | Ground::Last(base) => self.tiles.get(&(mark, Ground::Normal(base))),
            Ground::Normal(_) => None,
        })
    }
}
