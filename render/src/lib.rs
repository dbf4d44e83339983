//! Board pictures: turns the engine's generic [`BoardView`](stonemate_engine::BoardView)
//! into PNG images (and a whole game into an animated GIF). Knows nothing about individual
//! games: it draws what the view says (cells, look, last turn, captures, hands, side names,
//! status, score, owners).
//!
//! The API is [`Picture`] (what to draw), [`png()`] (draw it) and [`animation`]. Speed comes
//! from work done once: what a cell shows (a stack of marks on a ground) is drawn with
//! `image` and `imageproc` the first time a picture needs it at that cell size, already
//! mapped to one fixed 8-bit palette, and kept in an LRU cache (`art.rs`, `pieces.rs`,
//! `tiles.rs`, `palette.rs`); a request only fills rectangles, copies tile runs and glyphs
//! into a reused indexed frame, and hands it to the PNG encoder at a fixed, fast
//! compression level (`encode.rs`: the `png` crate, which writes palette images; `image`'s
//! encoder writes only RGB, measured larger and slower in `benches/encoders.rs`).
//! `picture.rs` holds what to draw, `draw.rs` the one path from it to pixels, which the
//! board (`board.rs`), the heading (`header.rs`) and the animation's frames share.

#![warn(missing_docs)]

mod animation;
mod art;
mod board;
mod draw;
mod encode;
mod fonts;
mod frame;
mod header;
mod layout;
mod motion;
mod palette;
mod picture;
mod pieces;
mod table;
mod text;
mod tiles;

pub use animation::{ANIMATION_LONG_SIDE, FRAME_DELAY, LAST_FRAME_DELAY, MAX_ANIMATION_BYTES, MAX_FRAMES, animation};
pub use draw::{frame, png, png_at};
pub use encode::{FALLBACK_LEVEL, MAX_PNG_BYTES, PNG_LEVEL};
pub use frame::Frame;
pub use layout::LONG_SIDE;
pub use palette::palette;
pub use picture::Picture;
pub use table::{
    Align, Column, MAX_CELL_CHARS, MAX_COLUMNS, MAX_TABLE_PNG_BYTES, ROWS_PER_PAGE, Row, Section, TABLE_WIDTH, Table,
    Width,
};
pub use tiles::{CacheLimit, OLD_MAX_CACHED_SETS, TILE_CACHE_BYTES, set_tile_cache_limit, tile_cache_usage};
