//! Pre-drawn tiles: what one cell shows (a stack of marks on a ground), drawn once per cell
//! size and look the first time a picture needs it, mapped to palette indices, and kept.
//! A request only copies them.
//!
//! Tile sets live in an LRU cache, one set per (size, place), bounded by the bytes the sets
//! hold rather than by their number (a set's bytes grow with the square of its cell size
//! and with the kinds of pieces drawn), and the budget holds every set the boards users
//! can reach need, so that no mix of board sizes makes pictures draw their tiles again.
//! Past it, the sets used longest ago go. Nothing is drawn while the cache's lock is held: a set
//! starts empty, and each tile is drawn outside the cache's lock (two threads needing the
//! same new tile at once may both draw it; the first one kept wins), so other pictures
//! never wait.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
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
        // Neighbouring pixels mostly share a colour (a ground, a piece's body): the last
        // one found spares most lookups, which otherwise dominate mapping a tile.
        let mut last: Option<(Rgb, u8)> = None;
        let pixels = canvas
            .rgb
            .iter()
            .map(|&rgb| match last {
                Some((colour, index)) if colour == rgb => index,
                _ => {
                    let index = *memo.entry(rgb).or_insert_with(|| palette.nearest(rgb));
                    last = Some((rgb, index));
                    index
                }
            })
            .collect();
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

    /// What the tile holds, in bytes.
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Tile>()
            + self.pixels.capacity()
            + self.runs.capacity() * std::mem::size_of::<(u16, u16, u16)>()
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
    /// The nearest palette index of each colour the set's tiles have met: anti-aliased
    /// edges bring the same blends to every tile of a set, and the search is the costly
    /// part of mapping a tile to the palette.
    nearest: Mutex<HashMap<Rgb, u8>>,
    /// What the set holds, in bytes (it only grows while the set lives).
    bytes: AtomicUsize,
}

/// How much the tile cache keeps before it lets the sets used longest ago go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheLimit {
    /// At most this many bytes of tiles and artwork (the set in use is always kept).
    Bytes(usize),
    /// At most this many sets, whatever their size (the policy before the byte budget,
    /// kept so that the benchmark can compare both in one run).
    Sets(usize),
}

/// The default budget of the tile cache. `benches/sizes.rs` draws the boards of every
/// game at every shape it allows, as stills (800 pixels) and as animation frames (560):
/// they need 108 tile sets holding 21 MiB; the budget leaves room for busier boards than
/// those (more kinds of tiles per set). A process only fills it with the sizes it draws.
pub const TILE_CACHE_BYTES: usize = 48 << 20;

/// The budget of the tile cache before it was counted in bytes: 48 sets (the benchmark's
/// "before").
pub const OLD_MAX_CACHED_SETS: usize = 48;

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Tile sets by cell size and place, in the order they were last used.
#[derive(Debug)]
pub struct Sets {
    sets: LruCache<(usize, Place), Arc<TileSet>>,
    limit: CacheLimit,
}

impl Sets {
    fn new(limit: CacheLimit) -> Sets {
        Sets { sets: LruCache::unbounded(), limit }
    }

    /// The set of `size` and `place`, made if needed, after letting the sets used longest
    /// ago go while the cache is over its limit. Sets grow after they are handed out (a
    /// tile is drawn when first needed), so the cache can pass its budget by what one
    /// picture adds, until the next picture asks for a set.
    fn get(&mut self, size: usize, place: Place) -> Arc<TileSet> {
        let set = Arc::clone(self.sets.get_or_insert((size, place), || Arc::new(TileSet::new(size, place))));
        self.trim();
        set
    }

    /// Lets the sets used longest ago go until the cache is within its limit; the set used
    /// last always stays. (Pictures still drawing with a set that went keep their `Arc`.)
    fn trim(&mut self) {
        match self.limit {
            CacheLimit::Sets(most) => {
                while self.sets.len() > most.max(1) {
                    self.sets.pop_lru();
                }
            }
            CacheLimit::Bytes(most) => {
                let mut total = self.bytes();
                while total > most && self.sets.len() > 1 {
                    let Some((_, gone)) = self.sets.pop_lru() else { break };
                    total = total.saturating_sub(gone.bytes());
                }
            }
        }
    }

    fn bytes(&self) -> usize {
        self.sets.iter().map(|(_, set)| set.bytes()).sum()
    }
}

/// The tile sets kept, by cell size and place.
fn cache() -> &'static Mutex<Sets> {
    static CACHE: OnceLock<Mutex<Sets>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(Sets::new(CacheLimit::Bytes(TILE_CACHE_BYTES))))
}

/// What the cache of pre-drawn tiles holds now: (tile sets, bytes).
#[must_use]
pub fn tile_cache_usage() -> (usize, usize) {
    let cache = lock(cache());
    (cache.sets.len(), cache.bytes())
}

/// Changes the tile cache's limit (by default [`CacheLimit::Bytes`]`(`[`TILE_CACHE_BYTES`]`)`)
/// and, if `clear`, empties it: for benchmarks comparing policies and for tests that need
/// a cold cache. Sets over a lower limit go when the next picture asks for a set.
pub fn set_tile_cache_limit(limit: CacheLimit, clear: bool) {
    let mut cache = lock(cache());
    cache.limit = limit;
    if clear {
        cache.sets.clear();
    }
}

/// What a map entry costs beyond its key and value (hashbrown's control byte and spare
/// room, rounded up).
const ENTRY_OVERHEAD: usize = 16;

impl TileSet {
    fn new(size: usize, place: Place) -> TileSet {
        TileSet {
            size,
            place,
            tiles: Mutex::default(),
            art: Mutex::default(),
            nearest: Mutex::default(),
            bytes: AtomicUsize::new(std::mem::size_of::<TileSet>()),
        }
    }

    /// The tiles of `size` pixels for `place`: the cached set, or a new empty one.
    pub fn get(size: usize, place: Place) -> Arc<TileSet> {
        lock(cache()).get(size, place)
    }

    /// What the set holds, in bytes.
    pub fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }

    fn grew(&self, bytes: usize) {
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
    }

    /// The tile of `stack` on `ground`, drawn on first use.
    pub fn tile(&self, ground: Ground, stack: Stack) -> Arc<Tile> {
        if let Some(tile) = lock(&self.tiles).get(&(ground, stack)) {
            return Arc::clone(tile);
        }
        let tile = Arc::new(self.draw(ground, stack));
        let mut tiles = lock(&self.tiles);
        let kept = tiles.entry((ground, stack)).or_insert_with(|| {
            self.grew(tile.bytes() + std::mem::size_of::<((Ground, Stack), Arc<Tile>)>() + ENTRY_OVERHEAD);
            Arc::clone(&tile)
        });
        Arc::clone(kept)
    }

    fn art(&self, mark: Mark) -> Arc<Vec<Layer>> {
        if let Some(art) = lock(&self.art).get(&mark) {
            return Arc::clone(art);
        }
        let art = Arc::new(layers(mark, self.place.look(), self.size, matches!(self.place, Place::Hand(_))));
        let mut kept = lock(&self.art);
        let kept = kept.entry(mark).or_insert_with(|| {
            let bytes: usize = art.iter().map(Layer::bytes).sum();
            self.grew(bytes + std::mem::size_of::<(Mark, Arc<Vec<Layer>>)>() + ENTRY_OVERHEAD);
            Arc::clone(&art)
        });
        Arc::clone(kept)
    }

    fn draw(&self, ground: Ground, stack: Stack) -> Tile {
        let mut canvas = Canvas::new(self.size, ground.rgb());
        for mark in stack.marks() {
            for layer in self.art(mark).iter() {
                layer.paint(&mut canvas);
            }
        }
        // The memo's lock is the set's own: drawing never holds the cache's lock.
        let mut nearest = lock(&self.nearest);
        let known = nearest.len();
        let tile = Tile::from_canvas(&canvas, &mut nearest);
        self.grew((nearest.len() - known) * (std::mem::size_of::<(Rgb, u8)>() + ENTRY_OVERHEAD));
        tile
    }
}

#[cfg(test)]
mod tests {
    use stonemate_engine::Role;

    use super::*;
    use crate::palette::{Base, Ink};

    #[test]
    fn a_new_size_evicts_one_set_not_all() {
        // A cache of its own, whose sets weigh 1000 bytes each beyond their empty size.
        let place = Place::Board(Look::Plain);
        let weight = std::mem::size_of::<TileSet>() + 1000;
        let count = 48;
        let mut sets = Sets::new(CacheLimit::Bytes(count * weight));
        let first = 1000;
        for size in first..first + count {
            sets.get(size, place).grew(1000);
        }
        let _ = sets.get(first, place);
        sets.get(first + count, place).grew(1000);
        let _ = sets.get(first + 2, place);
        assert!(sets.sets.contains(&(first, place)), "the set used last was kept");
        assert!(!sets.sets.contains(&(first + 1, place)), "the set used longest ago went");
        assert!(sets.sets.contains(&(first + 2, place)), "only one set went");
        assert!(sets.bytes() <= count * weight);
    }

    #[test]
    fn the_old_limit_counts_sets() {
        let place = Place::Board(Look::Plain);
        let mut sets = Sets::new(CacheLimit::Sets(OLD_MAX_CACHED_SETS));
        for size in 1000..1000 + OLD_MAX_CACHED_SETS + 1 {
            let _ = sets.get(size, place);
        }
        assert_eq!(sets.sets.len(), OLD_MAX_CACHED_SETS);
        assert!(!sets.sets.contains(&(1000, place)));
    }

    #[test]
    fn a_set_counts_what_it_holds() {
        let set = TileSet::new(36, Place::Board(Look::Checkered));
        let empty = set.bytes();
        let tile = set.tile(Ground::Normal(Base::Dark), Stack::from(Mark::Piece(Role::Knight, Ink::Black)));
        assert!(set.bytes() >= empty + tile.bytes(), "the tile is counted");
        let drawn = set.bytes();
        let _ = set.tile(Ground::Normal(Base::Dark), Stack::from(Mark::Piece(Role::Knight, Ink::Black)));
        assert_eq!(set.bytes(), drawn, "a tile kept is counted once");
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
