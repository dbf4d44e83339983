//! Gess pieces and their moves (rules 3-5) with ruling S1, both for listing every legal
//! move of a position and for checking one move a player typed.

use std::ops::ControlFlow;

use super::board::{Layer, Point, Stones};
use super::direction::Direction;
use super::error::GessError;
use crate::square::{Color, Square};

const CENTRE_BIT: u16 = 1 << 4;
/// Rule 4: without a centre stone a piece moves 1 to 3 squares.
const SHORT_RANGE: i8 = 3;
/// With a centre stone, any distance: the inner board stops it first.
const LONG_RANGE: i8 = 17;

/// The point of bit `index` of a pattern centred on `centre`.
fn pattern_point(centre: Point, index: u32) -> Point {
    centre.offset(index as i8 % 3 - 1, index as i8 / 3 - 1)
}

/// A piece of the player to move (rule 3): its centre and the pattern of its stones.
#[derive(Debug, Clone, Copy)]
struct Piece {
    centre: Point,
    pattern: u16,
}

impl Piece {
    /// The piece centred on an inner point, if its area holds own stones and no enemy ones.
    fn find(stones: &Stones, mover: Color, centre: Point) -> Option<Piece> {
        let pattern = stones.layer(mover).pattern(centre);
        (pattern != 0 && stones.layer(mover.other()).pattern(centre) == 0).then_some(Piece { centre, pattern })
    }

    /// Like [`Piece::find`], saying which part of rule 3 fails.
    fn at(stones: &Stones, mover: Color, centre: Point) -> Result<Piece, GessError> {
        let enemy = stones.layer(mover.other()).pattern(centre);
        if enemy != 0 {
            let stone = pattern_point(centre, enemy.trailing_zeros()).square();
            return Err(GessError::EnemyStoneInPiece { centre: centre.square(), stone });
        }
        Piece::find(stones, mover, centre).ok_or(GessError::NoOwnStone { centre: centre.square() })
    }

    fn range(self) -> i8 {
        if self.pattern & CENTRE_BIT != 0 { LONG_RANGE } else { SHORT_RANGE }
    }

    fn directions(self) -> impl Iterator<Item = Direction> {
        Direction::ALL.into_iter().filter(move |d| self.pattern & d.perimeter_bit() != 0)
    }

    /// The centres where the piece may stop going `direction` (rule 5), nearest first.
    fn stops(self, others: &Layer, direction: Direction) -> Stops<'_> {
        let (df, dr) = direction.delta();
        Stops { others, at: self.centre, df, dr, steps_left: self.range(), blocked: false }
    }
}

/// The stops of a piece in one direction: within its range and the inner board, up to the
/// first step whose footprint meets one of `others` (the stones outside the starting
/// footprint).
struct Stops<'a> {
    others: &'a Layer,
    at: Point,
    df: i8,
    dr: i8,
    steps_left: i8,
    blocked: bool,
}

impl Iterator for Stops<'_> {
    type Item = Point;

    fn next(&mut self) -> Option<Point> {
        let to = self.at.offset(self.df, self.dr);
        if self.blocked || self.steps_left == 0 || !to.is_inner() {
            return None;
        }
        self.at = to;
        self.steps_left -= 1;
        self.blocked = self.others.pattern(to) != 0;
        Some(to)
    }
}

/// Every stone outside the footprint of the piece centred on `centre`.
fn others(stones: &Stones, centre: Point) -> Layer {
    let mut others = stones.occupied();
    others.clear_area(centre);
    others
}

/// Ruling S1 for many moves of one position: a ring of the mover whose 3x3 meets neither
/// the old nor the new footprint survives the move, so only moves near every ring need
/// the position after them.
struct RingGuard<'a> {
    stones: &'a Stones,
    mover: Color,
    rings: Vec<Point>,
}

impl<'a> RingGuard<'a> {
    fn new(stones: &'a Stones, mover: Color) -> RingGuard<'a> {
        RingGuard { stones, mover, rings: stones.rings(mover).points().collect() }
    }

    fn keeps_a_ring(&self, from: Point, to: Point) -> bool {
        // Two 3x3 areas are apart when their centres are 3 or more files or ranks apart.
        let apart = |a: Point, b: Point| (a.file - b.file).abs() >= 3 || (a.rank - b.rank).abs() >= 3;
        if self.rings.iter().any(|&ring| apart(ring, from) && apart(ring, to)) {
            return true;
        }
        // Otherwise a ring after the move must meet one of the footprints (one apart from
        // both would have been a ring before), so only ranks near them need a look.
        let near = |p: Point| (p.rank - 2).max(1) as usize..=(p.rank + 2).min(18) as usize;
        self.stones.after_move(self.mover, from, to).has_ring_on(self.mover, near(from).chain(near(to)))
    }
}

/// Calls `visit(from, to)` for every legal move of `mover`: pieces by centre (rank, then
/// file), directions in [`Direction::ALL`] order, nearest stop first. `visit` may break.
pub(crate) fn for_each_legal_move(
    stones: &Stones,
    mover: Color,
    mut visit: impl FnMut(Point, Point) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let guard = RingGuard::new(stones, mover);
    let occupied = stones.occupied();
    for centre in stones.piece_centres(mover).points() {
        let piece = Piece { centre, pattern: stones.layer(mover).pattern(centre) };
        let mut others = occupied;
        others.clear_area(centre);
        for direction in piece.directions() {
            for to in piece.stops(&others, direction) {
                if guard.keeps_a_ring(centre, to) {
                    visit(centre, to)?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// The point of a square where a piece's centre may be (rules 3 and 5).
fn inner_centre(square: Square) -> Result<Point, GessError> {
    Point::of(square).filter(|p| p.is_inner()).ok_or(GessError::CentreOutside { square })
}

/// A move that passed [`check_move`]: the piece's centre before and after, and the stones
/// after it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CheckedMove {
    pub from: Point,
    pub to: Point,
    pub after: Stones,
}

/// Checks a move typed by a player against rules 3-5 and ruling S1.
pub(crate) fn check_move(stones: &Stones, mover: Color, from: Square, to: Square) -> Result<CheckedMove, GessError> {
    let (start, end) = (inner_centre(from)?, inner_centre(to)?);
    let piece = Piece::at(stones, mover, start)?;
    if start == end {
        return Err(GessError::Stationary { centre: from });
    }
    let (direction, distance) = Direction::between(start, end).ok_or(GessError::NotALine { from, to })?;
    if piece.pattern & direction.perimeter_bit() == 0 {
        let (df, dr) = direction.delta();
        let square = start.offset(df, dr).square();
        return Err(GessError::NoStoneForDirection { centre: from, direction, square });
    }
    if distance > piece.range() {
        return Err(GessError::TooFar { from, to, distance: distance as u8 });
    }
    let others = others(stones, start);
    if let Some(stop) = piece.stops(&others, direction).take(distance as usize - 1).last() {
        let area = others.pattern(stop);
        if area != 0 {
            let stone = pattern_point(stop, area.trailing_zeros()).square();
            return Err(GessError::Blocked { from, to, stop: stop.square(), stone });
        }
    }
    let after = stones.after_move(mover, start, end);
    if !after.has_ring(mover) {
        return Err(GessError::BreaksOwnLastRing { from, to });
    }
    Ok(CheckedMove { from: start, to: end, after })
}
