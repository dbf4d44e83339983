//! Board pictures: turns the engine's generic [`BoardView`] into PNG images (and a whole
//! game into an animated GIF). Knows nothing about individual games: it draws what the
//! view says (cells, look, last turn, captures, hands, side names, status, score, owners).
//!
//! The API is [`Picture`] (what to draw), [`png()`] (draw it) and [`animation`]. Speed comes
//! from work done once: what a cell shows (a stack of marks on a ground) is drawn with
//! `image` and `imageproc` the first time a picture needs it at that cell size, already
//! mapped to one fixed 8-bit palette, and kept in an LRU cache (`art.rs`, `pieces.rs`,
//! `tiles.rs`, `palette.rs`); a request only fills rectangles, copies tile runs and glyphs
//! into a reused indexed frame, and hands it to the PNG encoder at a fixed, fast
//! compression level (`encode.rs`: the `png` crate, which writes palette images; `image`'s
//! encoder writes only RGB, measured larger and slower in `benches/encoders.rs`).

#![warn(missing_docs)]

mod animation;
mod art;
mod board;
mod encode;
mod fonts;
mod frame;
mod header;
mod layout;
mod motion;
mod palette;
mod pieces;
mod table;
mod text;
mod tiles;

use std::cell::RefCell;

use stonemate_engine::{BoardView, Color, Square};

pub use animation::{ANIMATION_LONG_SIDE, FRAME_DELAY, LAST_FRAME_DELAY, MAX_ANIMATION_BYTES, MAX_FRAMES, animation};
pub use encode::{FALLBACK_LEVEL, MAX_PNG_BYTES, PNG_LEVEL};
pub use frame::Frame;
pub use layout::LONG_SIDE;
pub use table::{Align, Column, MAX_CELL_CHARS, MAX_COLUMNS, ROWS_PER_PAGE, Row, Section, TABLE_WIDTH, Table, Width};
pub use tiles::{CacheLimit, OLD_MAX_CACHED_SETS, TILE_CACHE_BYTES};

use crate::layout::Layout;
use crate::palette::{Base, Ground, Palette};

/// Everything one picture shows: the position and the words around it.
#[derive(Debug, Clone, PartialEq)]
pub struct Picture {
    /// The position, as the engine describes it for any game.
    pub view: BoardView,
    /// A heading such as `#12 Chego`.
    pub title: String,
    /// The players' display names, `[white, black]`.
    pub players: [String; 2],
    /// Whose side is drawn at the bottom.
    pub perspective: Color,
    /// Extra squares to mark, such as the targets `/legal` lists.
    pub highlights: Vec<Square>,
    /// Arrows drawn over the board, from a cell's centre to another's: a turn shown
    /// before it is played (the turn picker's preview).
    pub arrows: Vec<(Square, Square)>,
    /// Squares to cross out, such as pieces proposed as dead: a large cross over whatever
    /// stands there. What the marking means is the caller's to say.
    pub marked: Vec<Square>,
}

impl Picture {
    /// A picture of `view` with no title, the side names as player names, the side whose
    /// home is rank 1 at the bottom, and nothing highlighted or marked.
    #[must_use]
    pub fn new(view: BoardView) -> Picture {
        let players = view.side_names.map(str::to_owned);
        let perspective = view.first_rank_side;
        Picture {
            view,
            title: String::new(),
            players,
            perspective,
            highlights: Vec::new(),
            arrows: Vec::new(),
            marked: Vec::new(),
        }
    }
}

thread_local! {
    /// The frame each thread draws into, kept between pictures to avoid a fresh allocation.
    static FRAME: RefCell<Frame> = RefCell::new(Frame::default());
}

/// The picture as PNG bytes, [`LONG_SIDE`] pixels on its long side (less for tiny boards).
#[must_use]
pub fn png(picture: &Picture) -> Vec<u8> {
    png_at(picture, LONG_SIDE)
}

/// The picture as PNG bytes, `long_side` pixels on its long side (less for tiny boards):
/// for thumbnails, and for benchmarks that need many cell sizes.
#[must_use]
pub fn png_at(picture: &Picture, long_side: usize) -> Vec<u8> {
    FRAME.with_borrow_mut(|frame| {
        let rows = layout::hand_rows(&picture.view, long_side);
        draw(picture, long_side, rows, frame);
        encode::png(frame)
    })
}

/// What the cache of pre-drawn tiles holds now: (tile sets, bytes).
#[must_use]
pub fn tile_cache_usage() -> (usize, usize) {
    tiles::cache_usage()
}

/// Changes the tile cache's limit (by default [`CacheLimit::Bytes`]`(`[`TILE_CACHE_BYTES`]`)`)
/// and, if `clear`, empties it: for benchmarks comparing policies and for tests that need
/// a cold cache. Sets over a lower limit go when the next picture asks for a set.
pub fn set_tile_cache_limit(limit: CacheLimit, clear: bool) {
    tiles::set_cache_limit(limit, clear);
}

/// Draws `picture` into `frame` at `long_side` pixels, with `hand_rows` rows for each hand
/// (so that the frames of one animation all share a layout).
pub(crate) fn draw(picture: &Picture, long_side: usize, hand_rows: usize, frame: &mut Frame) -> Layout {
    let layout = Layout::new(&picture.view, picture.perspective, long_side, hand_rows);
    frame.reset(layout.width, layout.height, Palette::get().ground(Ground::Normal(Base::Page)));
    board::draw(frame, picture, &layout);
    header::draw(frame, picture, &layout);
    layout
}

/// The palette of every picture, as `r g b` triples (index 255 is never used: animations
/// use it for transparency).
#[must_use]
pub fn palette() -> Vec<[u8; 3]> {
    let palette = Palette::get();
    (0..palette.len()).map(|index| palette.rgb(index as u8)).collect()
}

/// The picture as an indexed frame in [`palette`] (for tests and tools that compare pixels).
#[must_use]
pub fn frame(picture: &Picture) -> Frame {
    let mut frame = Frame::default();
    draw(picture, LONG_SIDE, layout::hand_rows(&picture.view, LONG_SIDE), &mut frame);
    frame
}
