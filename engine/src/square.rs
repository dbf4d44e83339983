//! Squares, colours, sets of squares and board shapes (grids with holes).
//!
//! Every game uses the same coordinate space: up to 25 files (`a`..`y`) and 25 ranks. A
//! [`Square`] is an index into that fixed 25x25 space, so that sets and boards of every
//! size share one cheap `Copy` representation.

use std::fmt;
use std::str::FromStr;

/// The largest number of files or ranks any board may have.
pub const MAX_SIDE: u8 = 25;
/// The number of squares in the fixed coordinate space.
pub const MAX_SQUARES: usize = MAX_SIDE as usize * MAX_SIDE as usize;

/// One of the two players. Chogo's second side is shown as "Green" (see its module).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side whose home is rank 1 (except in Gess); moves first in Chego, iChess and Chogo.
    White,
    /// The other side; moves first in Go with chess pieces and Gess, as black does in go.
    Black,
}

impl Color {
    /// White then Black: the order of per-player arrays.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    /// The opponent.
    #[must_use]
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: an index into per-player arrays.
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The word used in records and JSON (`white`, `black`); Chogo shows Black as Green.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A square of the 25x25 coordinate space, named like `a1` (file letter, rank from 1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u16);

impl Square {
    /// The square at 0-based `file` and `rank`, if both are below [`MAX_SIDE`].
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < MAX_SIDE && rank < MAX_SIDE {
            Some(Square(rank as u16 * MAX_SIDE as u16 + file as u16))
        } else {
            None
        }
    }

    /// The square with this [`Square::index`]; `None` past the coordinate space.
    #[must_use]
    pub fn from_index(index: usize) -> Option<Square> {
        (index < MAX_SQUARES).then_some(Square(index as u16))
    }

    /// The file, 0-based from `a`.
    #[must_use]
    pub const fn file(self) -> u8 {
        (self.0 % MAX_SIDE as u16) as u8
    }

    /// The rank, 0-based from rank 1 (the bottom edge).
    #[must_use]
    pub const fn rank(self) -> u8 {
        (self.0 / MAX_SIDE as u16) as u8
    }

    /// A dense index (`rank * 25 + file`); ordering by it is ordering by rank, then file.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square `df` files and `dr` ranks away, if it is inside the coordinate space.
    #[must_use]
    pub fn offset(self, df: i32, dr: i32) -> Option<Square> {
        let file = u8::try_from(i32::from(self.file()) + df).ok()?;
        let rank = u8::try_from(i32::from(self.rank()) + dr).ok()?;
        Square::new(file, rank)
    }

    /// The square's colour on a chessboard: `a1` is dark.
    #[must_use]
    pub fn is_dark(self) -> bool {
        (self.file() + self.rank()) % 2 == 0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file()), self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Text that does not name a square of the 25x25 space.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a square (a file letter a-y and a rank 1-25, like e4)")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        let bad = || ParseSquareError(text.to_owned());
        let mut chars = text.chars();
        let file_char = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
        let digits = chars.as_str();
        if !file_char.is_ascii_lowercase() || digits.is_empty() || digits.len() > 2 {
            return Err(bad());
        }
        if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
            return Err(bad());
        }
        let rank: u8 = digits.parse().map_err(|_| bad())?;
        Square::new(file_char as u8 - b'a', rank - 1).ok_or_else(bad)
    }
}

/// A set of squares as a 640-bit bitset.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SquareSet([u64; 10]);

impl SquareSet {
    /// Every square of the coordinate space (as an occupancy: every move stops at its
    /// first step).
    pub const ALL: SquareSet = SquareSet([u64::MAX; 10]);

    /// The set with no square.
    pub const EMPTY: SquareSet = SquareSet([0; 10]);

    /// Whether `square` is in the set.
    #[must_use]
    pub fn contains(&self, square: Square) -> bool {
        self.0[square.index() / 64] & (1 << (square.index() % 64)) != 0
    }

    /// Adds `square` (no change when it is already in).
    pub fn insert(&mut self, square: Square) {
        self.0[square.index() / 64] |= 1 << (square.index() % 64);
    }

    /// Takes `square` out (no change when it is not in).
    pub fn remove(&mut self, square: Square) {
        self.0[square.index() / 64] &= !(1 << (square.index() % 64));
    }

    /// How many squares the set holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set holds no square.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The squares in ascending order (by rank, then file).
    pub fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        self.0.iter().enumerate().flat_map(|(word_index, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let bit = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(Square(word_index as u16 * 64 + bit as u16))
            })
        })
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> SquareSet {
        let mut set = SquareSet::EMPTY;
        for square in iter {
            set.insert(square);
        }
        set
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The shape of a board: a `width` x `height` grid from `a1`, less its holes.
///
/// A hole is a square that does not exist: nothing stands on it, attacks it or moves to it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    width: u8,
    height: u8,
    holes: SquareSet,
}

impl Shape {
    /// A full grid. Panics unless both sides are in `1..=25` (callers validate options first).
    #[must_use]
    pub fn rectangle(width: u8, height: u8) -> Shape {
        assert!((1..=MAX_SIDE).contains(&width) && (1..=MAX_SIDE).contains(&height));
        Shape { width, height, holes: SquareSet::EMPTY }
    }

    /// The same grid without the given squares (squares off the grid are ignored).
    #[must_use]
    pub fn with_holes(mut self, holes: impl IntoIterator<Item = Square>) -> Shape {
        for hole in holes {
            if self.on_grid(hole) {
                self.holes.insert(hole);
            }
        }
        self
    }

    /// Files of the grid, holes included.
    #[must_use]
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Ranks of the grid, holes included.
    #[must_use]
    pub fn height(&self) -> u8 {
        self.height
    }

    /// Squares of the grid that do not exist for play.
    #[must_use]
    pub fn holes(&self) -> &SquareSet {
        &self.holes
    }

    /// Inside the `width` x `height` rectangle (a hole is on the grid but does not exist).
    #[must_use]
    pub fn on_grid(&self, square: Square) -> bool {
        square.file() < self.width && square.rank() < self.height
    }

    /// The square exists on this board: on the grid and not a hole.
    #[must_use]
    pub fn contains(&self, square: Square) -> bool {
        self.on_grid(square) && !self.holes.contains(square)
    }

    /// The square `df`, `dr` away if it is on the grid (it may be a hole).
    #[must_use]
    pub fn step(&self, square: Square, df: i32, dr: i32) -> Option<Square> {
        square.offset(df, dr).filter(|&to| self.on_grid(to))
    }

    /// Every existing square, by rank then file.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.height)
            .flat_map(move |rank| (0..self.width).filter_map(move |file| Square::new(file, rank)))
            .filter(move |&square| !self.holes.contains(square))
    }

    /// The number of existing squares.
    #[must_use]
    pub fn square_count(&self) -> usize {
        usize::from(self.width) * usize::from(self.height) - self.holes.len()
    }
}

impl fmt::Debug for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)?;
        if !self.holes.is_empty() {
            write!(f, " holes {:?}", self.holes)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for index in 0..MAX_SQUARES {
            let square = Square::from_index(index).unwrap();
            assert_eq!(square.to_string().parse::<Square>(), Ok(square));
        }
        assert_eq!("y25".parse::<Square>().unwrap().index(), MAX_SQUARES - 1);
    }

    #[test]
    fn bad_square_names_are_refused() {
        for text in ["", "a", "a0", "a26", "z1", "1a", "a01", "é4", "a1x", "aa1"] {
            assert!(text.parse::<Square>().is_err(), "{text}");
        }
    }

    #[test]
    fn a1_is_dark() {
        assert!("a1".parse::<Square>().unwrap().is_dark());
        assert!(!"b1".parse::<Square>().unwrap().is_dark());
        assert!("h8".parse::<Square>().unwrap().is_dark());
    }

    #[test]
    fn square_set_iterates_in_order() {
        let squares: Vec<Square> = ["y25", "a1", "c3", "b1"].iter().map(|s| s.parse().unwrap()).collect();
        let set: SquareSet = squares.iter().copied().collect();
        let names: Vec<String> = set.iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["a1", "b1", "c3", "y25"]);
        assert_eq!(set.len(), 4);
    }

    #[test]
    fn shape_holes_do_not_exist() {
        let e4: Square = "e4".parse().unwrap();
        let shape = Shape::rectangle(8, 8).with_holes([e4, "z9".parse().unwrap_or(e4)]);
        assert!(!shape.contains(e4));
        assert!(shape.on_grid(e4));
        assert_eq!(shape.square_count(), 63);
        assert!(!shape.on_grid("i1".parse().unwrap()));
    }
}
