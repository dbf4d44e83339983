//! Pre-drawn tiles: what one cell shows (a stack of marks on a ground), drawn once per cell
//! size and look the first time a picture needs it, mapped to palette indices, and kept.
//! A request only copies them.
//!
//! Tile sets live in a small LRU cache, one set per (size, place): a new size evicts only
//! the set used longest ago. Nothing is drawn while the cache's lock is held: a set starts
//! empty, and each tile is drawn outside every lock (two threads needing the same new tile
//! at once may both draw it; the first one kept wins), so other pictures never wait.

use std::collections::HashMap;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use lru::LruCache;
use stonemate_engine::Look;

use crate::art::Canvas;
use crate::frame::Frame;
use crate::palette::{Ground, Palette, Rgb};
use crate::pieces::{Layer, Mark, layers};

/// A square of palette indices and, per row, the runs of pixels the artwork covers
/// (elsewhere the tile is transparent: the frame's ground and grid lines stay).
#[derive(Debug)]
pub struct Tile {
    size: usize,
    pixels: Vec<u8>,
    /// (row, first column, end column).
    runs: Vec<(u16, u16, u16)>,
}

/// Pixels less covered than this count as not drawn (they keep the frame's ground).
const DRAWN: f32 = 0.02;

impl Tile {
    fn from_canvas(canvas: &Canvas, memo: &mut HashMap<Rgb, u8>) -> Tile {
        let palette = Palette::get();
        let size = canvas.size;
        let pixels = canvas.rgb.iter().map(|&rgb| *memo.entry(rgb).or_insert_with(|| palette.nearest(rgb))).collect();
        let mut runs = Vec::new();
        for (row, alpha) in canvas.alpha.chunks(size.max(1)).enumerate() {
            let mut start = None;
            for (column, &a) in alpha.iter().chain([&0.0]).enumerate() {
                match (start, a > DRAWN) {
                    (None, true) => start = Some(column),
                    (Some(first), false) => {
                        runs.push((row as u16, first as u16, column as u16));
                        start = None;
                    }
                    _ => {}
                }
            }
        }
        Tile { size, pixels, runs }
    }

    /// Copies the drawn part of the tile with its top-left corner at (`x`, `y`).
    pub fn draw(&self, frame: &mut Frame, x: usize, y: usize) {
        for &(row, start, end) in &self.runs {
            let offset = usize::from(row) * self.size;
            let source = &self.pixels[offset + usize::from(start)..offset + usize::from(end)];
            frame.copy_row(x + usize::from(start), y + usize::from(row), source);
        }
    }

    /// How many pixels the tile draws.
    #[cfg(test)]
    pub fn drawn_pixels(&self) -> usize {
        self.runs.iter().map(|&(_, start, end)| usize::from(end - start)).sum()
    }
}

/// Which tiles a set holds: those of a board of some look, or those of the hands beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Place {
    Board(Look),
    Hand(Look),
}

impl Place {
    fn look(self) -> Look {
        match self {
            Place::Board(look) | Place::Hand(look) => look,
        }
    }
}

/// At most this many marks are stacked on one cell.
pub const MAX_STACK: usize = 4;

/// The marks one cell shows, bottom first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Stack([Option<Mark>; MAX_STACK]);

impl Stack {
    /// Puts `mark` on top (a stack that is full keeps its marks).
    pub fn push(&mut self, mark: Mark) {
        if let Some(free) = self.0.iter_mut().find(|slot| slot.is_none()) {
            *free = Some(mark);
        }
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0[0].is_none()
    }

    fn marks(&self) -> impl Iterator<Item = Mark> + '_ {
        self.0.iter().map_while(|slot| *slot)
    }
}

impl From<Mark> for Stack {
    fn from(mark: Mark) -> Stack {
        let mut stack = Stack::default();
        stack.push(mark);
        stack
    }
}

/// The tiles of one size and place drawn so far, and the artwork they were drawn from.
#[derive(Debug)]
pub struct TileSet {
    size: usize,
    place: Place,
    tiles: Mutex<HashMap<(Ground, Stack), Arc<Tile>>>,
    art: Mutex<HashMap<Mark, Arc<Vec<Layer>>>>,
}

/// At most this many tile sets are kept (a set is one size of one place); past it the set
/// used longest ago goes, which bounds memory whatever sizes are asked for.
pub const MAX_CACHED_SETS: usize = 48;

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The tile sets kept, by cell size and place.
type Cache = Mutex<LruCache<(usize, Place), Arc<TileSet>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(LruCache::new(NonZeroUsize::new(MAX_CACHED_SETS).expect("not zero"))))
}

impl TileSet {
    /// The tiles of `size` pixels for `place`: the cached set, or a new empty one.
    pub fn get(size: usize, place: Place) -> Arc<TileSet> {
        let mut cache = lock(cache());
        let set = cache.get_or_insert((size, place), || {
            Arc::new(TileSet { size, place, tiles: Mutex::default(), art: Mutex::default() })
        });
        Arc::clone(set)
    }

    /// Whether the set of `size` and `place` is in the cache.
    #[cfg(test)]
    pub fn is_cached(size: usize, place: Place) -> bool {
        lock(cache()).contains(&(size, place))
    }

    /// The tile of `stack` on `ground`, drawn on first use.
    pub fn tile(&self, ground: Ground, stack: Stack) -> Arc<Tile> {
        if let Some(tile) = lock(&self.tiles).get(&(ground, stack)) {
            return Arc::clone(tile);
        }
        let tile = Arc::new(self.draw(ground, stack));
        Arc::clone(lock(&self.tiles).entry((ground, stack)).or_insert(tile))
    }

    fn art(&self, mark: Mark) -> Arc<Vec<Layer>> {
        if let Some(art) = lock(&self.art).get(&mark) {
            return Arc::clone(art);
        }
        let art = Arc::new(layers(mark, self.place.look(), self.size, matches!(self.place, Place::Hand(_))));
        Arc::clone(lock(&self.art).entry(mark).or_insert(art))
    }

    fn draw(&self, ground: Ground, stack: Stack) -> Tile {
        let mut canvas = Canvas::new(self.size, ground.rgb());
        for mark in stack.marks() {
            for layer in self.art(mark).iter() {
                layer.paint(&mut canvas);
            }
        }
        Tile::from_canvas(&canvas, &mut HashMap::new())
    }
}

#[cfg(test)]
mod tests {
    use stonemate_engine::Role;

    use super::*;
    use crate::palette::{Base, Ink};

    #[test]
    fn a_new_size_evicts_one_set_not_all() {
        // Sizes no picture uses, so that other tests do not disturb the order.
        let place = Place::Board(Look::Plain);
        let first = 1000;
        for size in first..first + MAX_CACHED_SETS {
            let _ = TileSet::get(size, place);
        }
        let _ = TileSet::get(first, place);
        let _ = TileSet::get(first + MAX_CACHED_SETS, place);
        assert!(TileSet::is_cached(first, place), "the set used last was kept");
        assert!(!TileSet::is_cached(first + 1, place), "the set used longest ago went");
        assert!(TileSet::is_cached(first + 2, place), "only one set went");
    }

    #[test]
    fn tiles_are_drawn_once_and_kept() {
        let set = TileSet::get(33, Place::Board(Look::Checkered));
        let stack = Stack::from(Mark::Piece(Role::Queen, Ink::White));
        let ground = Ground::Normal(Base::Light);
        let (a, b) = (set.tile(ground, stack), set.tile(ground, stack));
        assert!(Arc::ptr_eq(&a, &b));
        assert!(a.drawn_pixels() > 200);
    }

    #[test]
    fn drawing_a_tile_does_not_hold_the_cache_lock() {
        // Another thread keeps the cache's lock; a set already handed out still draws.
        let set = TileSet::get(41, Place::Board(Look::Checkered));
        let guard = lock(cache());
        let drawn = std::thread::scope(|scope| {
            scope
                .spawn(|| set.tile(Ground::Normal(Base::Dark), Stack::from(Mark::Piece(Role::King, Ink::Black))))
                .join()
                .expect("drawing does not panic")
        });
        drop(guard);
        assert!(drawn.drawn_pixels() > 200);
    }

    #[test]
    fn transparent_gaps_inside_a_tile_keep_the_frame() {
        // The cross of a capture leaves the middle of its top row free: grid lines there stay.
        let set = TileSet::get(40, Place::Board(Look::Intersections));
        let tile = set.tile(Ground::Normal(Base::Wood), Stack::from(Mark::CapturedCorner));
        let mut frame = Frame::default();
        frame.reset(40, 40, 7);
        tile.draw(&mut frame, 0, 0);
        let top = (0..40).find(|&y| (0..40).any(|x| frame.get(x, y) != 7)).expect("the cross draws");
        assert_eq!(frame.get(32, top), 7, "the gap between the arms is not painted");
    }
}
