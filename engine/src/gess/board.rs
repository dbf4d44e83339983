//! Gess stones as bit rows: one `u32` per rank with one bit per file, for each player.
//!
//! Footprints, piece patterns and rings are then a few shifts and masks per row, which is
//! what keeps listing several hundred legal moves (each checked against ruling S1) cheap.

use std::fmt;

use crate::square::{Color, Square, SquareSet};

/// Files and ranks of the Gess grid (`a`..`t`, `1`..`20`).
pub const SIDE: u8 = 20;
const ROWS: usize = SIDE as usize;
/// The inner 18x18 spans 0-based files and ranks 1..=18.
const INNER: std::ops::RangeInclusive<i8> = 1..=18;
/// The files of the inner 18x18 (`b`..`s`) as a row mask.
const INNER_FILES: u32 = ((1 << 18) - 1) << 1;

/// A point of the 20x20 grid by 0-based file and rank (signed, so steps may leave it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Point {
    pub file: i8,
    pub rank: i8,
}

impl Point {
    /// The point of a square of the 20x20 grid (`None` for squares beyond it).
    pub fn of(square: Square) -> Option<Point> {
        (square.file() < SIDE && square.rank() < SIDE)
            .then(|| Point { file: square.file() as i8, rank: square.rank() as i8 })
    }

    /// The square of a point on the grid (callers only ask for points of the grid).
    pub fn square(self) -> Square {
        Square::new(self.file as u8, self.rank as u8).expect("points of the Gess grid are squares")
    }

    /// On the inner 18x18, where stones stand and piece centres lie.
    pub fn is_inner(self) -> bool {
        INNER.contains(&self.file) && INNER.contains(&self.rank)
    }

    pub fn offset(self, df: i8, dr: i8) -> Point {
        Point { file: self.file + df, rank: self.rank + dr }
    }

    /// The nine points of the 3x3 area centred here, by rank then file.
    pub fn area(self) -> impl Iterator<Item = Point> {
        (-1..=1).flat_map(move |dr| (-1..=1).map(move |df| self.offset(df, dr)))
    }

    /// The ranks of the 3x3 area centred here, as row indices (centres are inner points).
    fn area_rows(self) -> [usize; 3] {
        let rank = self.rank as usize;
        [rank - 1, rank, rank + 1]
    }

    /// The files of the 3x3 area centred here as a row mask.
    fn area_files(self) -> u32 {
        0b111 << (self.file - 1)
    }
}

/// One player's stones: `rows[rank]` has bit `file` set where a stone stands.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Layer([u32; ROWS]);

impl Layer {
    pub fn contains(&self, point: Point) -> bool {
        self.0[point.rank as usize] & (1 << point.file) != 0
    }

    pub fn insert(&mut self, point: Point) {
        self.0[point.rank as usize] |= 1 << point.file;
    }

    pub fn union(&self, other: &Layer) -> Layer {
        Layer(std::array::from_fn(|rank| self.0[rank] | other.0[rank]))
    }

    /// The stones of the 3x3 area centred on an inner point, as a pattern: bit
    /// `3 * (dr + 1) + (df + 1)` for the stone `df` files and `dr` ranks from the centre.
    pub fn pattern(&self, centre: Point) -> u16 {
        let [below, here, above] = centre.area_rows().map(|rank| ((self.0[rank] >> (centre.file - 1)) & 0b111) as u16);
        below | here << 3 | above << 6
    }

    /// Empties the 3x3 area centred on an inner point.
    pub fn clear_area(&mut self, centre: Point) {
        let files = centre.area_files();
        for rank in centre.area_rows() {
            self.0[rank] &= !files;
        }
    }

    /// Puts a pattern (as [`Layer::pattern`] reads it) on the 3x3 area centred here.
    pub fn put_pattern(&mut self, centre: Point, pattern: u16) {
        for (i, rank) in centre.area_rows().into_iter().enumerate() {
            self.0[rank] |= u32::from((pattern >> (3 * i)) & 0b111) << (centre.file - 1);
        }
    }

    /// Removes every stone on the outer ring (rule 6).
    pub fn clear_outer_ring(&mut self) {
        self.0[0] = 0;
        self.0[ROWS - 1] = 0;
        for row in &mut self.0 {
            *row &= INNER_FILES;
        }
    }

    /// Every point of the layer, by rank then file.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        self.0.iter().enumerate().flat_map(|(rank, &row)| {
            let mut bits = row;
            std::iter::from_fn(move || {
                let file = bits.trailing_zeros() as i8;
                bits &= bits.wrapping_sub(1);
                (file < 32).then_some(Point { file, rank: rank as i8 })
            })
        })
    }
}

/// Bit f is set when files f-1, f and f+1 of the row all hold stones.
fn three_in_a_row(row: u32) -> u32 {
    row & (row << 1) & (row >> 1)
}

/// Bit f is set when file f-1 or f or f+1 of the row holds a stone.
fn near(row: u32) -> u32 {
    row | (row << 1) | (row >> 1)
}

/// The ring centres of `own` on one inner rank (rule 7): empty squares (`occupied` is
/// that rank's stones of both players) whose eight neighbours all hold stones of `own`.
fn rings_on(own: &Layer, occupied: u32, rank: usize) -> u32 {
    let (below, here, above) = (own.0[rank - 1], own.0[rank], own.0[rank + 1]);
    let sides = (here << 1) & (here >> 1);
    three_in_a_row(below) & three_in_a_row(above) & sides & !occupied & INNER_FILES
}

/// The stones of both players.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub(crate) struct Stones {
    /// Indexed by [`Color::index`].
    layers: [Layer; 2],
}

impl Stones {
    /// Both players' stones; the caller keeps them apart and on the inner 18x18.
    pub fn new(white: Layer, black: Layer) -> Stones {
        Stones { layers: [white, black] }
    }

    pub fn layer(&self, color: Color) -> &Layer {
        &self.layers[color.index()]
    }

    pub fn occupied(&self) -> Layer {
        self.layers[0].union(&self.layers[1])
    }

    pub fn color_at(&self, point: Point) -> Option<Color> {
        Color::BOTH.into_iter().find(|&color| self.layer(color).contains(point))
    }

    /// The centres of one player's rings.
    pub fn rings(&self, color: Color) -> Layer {
        let occupied = self.occupied();
        let mut found = Layer::default();
        for rank in 1..ROWS - 1 {
            found.0[rank] = rings_on(self.layer(color), occupied.0[rank], rank);
        }
        found
    }

    pub fn has_ring(&self, color: Color) -> bool {
        self.has_ring_on(color, 1..=ROWS - 2)
    }

    /// Whether one player has a ring centred on one of these inner ranks (0-based).
    pub fn has_ring_on(&self, color: Color, ranks: impl IntoIterator<Item = usize>) -> bool {
        let [white, black] = &self.layers;
        ranks.into_iter().any(|rank| rings_on(self.layer(color), white.0[rank] | black.0[rank], rank) != 0)
    }

    /// The centres of `mover`'s pieces (rule 3): inner points whose 3x3 area holds a stone
    /// of `mover` and none of the opponent's.
    pub fn piece_centres(&self, mover: Color) -> Layer {
        let (own, enemy) = (self.layer(mover), self.layer(mover.other()));
        let mut centres = Layer::default();
        for rank in 1..ROWS - 1 {
            let area = |layer: &Layer| near(layer.0[rank - 1] | layer.0[rank] | layer.0[rank + 1]);
            centres.0[rank] = area(own) & !area(enemy) & INNER_FILES;
        }
        centres
    }

    /// The stones after `mover`'s piece centred on `from` stops centred on `to` (rule 6):
    /// the piece is lifted, everything under its new footprint removed, the piece put
    /// down in the same pattern, and the outer ring cleared.
    pub fn after_move(&self, mover: Color, from: Point, to: Point) -> Stones {
        let pattern = self.layer(mover).pattern(from);
        let mut after = *self;
        after.layers[mover.index()].clear_area(from);
        for layer in &mut after.layers {
            layer.clear_area(to);
        }
        let own = &mut after.layers[mover.index()];
        own.put_pattern(to, pattern);
        own.clear_outer_ring();
        after
    }

    /// The squares whose stones the move removes: every stone under the new footprint
    /// that is not part of the piece, and the piece's stones put down on the outer ring.
    pub fn captured_by(&self, mover: Color, from: Point, to: Point) -> SquareSet {
        let pattern = self.layer(mover).pattern(from);
        let mut others = self.occupied();
        others.clear_area(from);
        let mut put_down = Layer::default();
        put_down.put_pattern(to, pattern);
        to.area()
            .filter(|&p| others.contains(p) || (put_down.contains(p) && !p.is_inner()))
            .map(Point::square)
            .collect()
    }
}

impl fmt::Debug for Stones {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = |rank: i8| -> String {
            (0..SIDE as i8)
                .map(|file| match self.color_at(Point { file, rank }) {
                    Some(Color::White) => 'S',
                    Some(Color::Black) => 's',
                    None => '.',
                })
                .collect()
        };
        f.debug_list().entries((0..SIDE as i8).rev().map(row)).finish()
    }
}
