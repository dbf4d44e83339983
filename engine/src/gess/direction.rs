//! The eight directions of a Gess piece's move (rule 4), as players name them in messages.

use std::fmt;

use super::board::Point;

/// The eight directions a piece may move in (rule 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards rank 20.
    North,
    /// Towards rank 20 and file t.
    NorthEast,
    /// Towards file t.
    East,
    /// Towards rank 1 and file t.
    SouthEast,
    /// Towards rank 1.
    South,
    /// Towards rank 1 and file a.
    SouthWest,
    /// Towards file a.
    West,
    /// Towards rank 20 and file a.
    NorthWest,
}

impl Direction {
    /// Every direction, clockwise from north: the order in which moves are listed.
    pub const ALL: [Direction; 8] = [
        Direction::North,
        Direction::NorthEast,
        Direction::East,
        Direction::SouthEast,
        Direction::South,
        Direction::SouthWest,
        Direction::West,
        Direction::NorthWest,
    ];

    /// One step as (files, ranks); north is towards rank 20.
    #[must_use]
    pub fn delta(self) -> (i8, i8) {
        match self {
            Direction::North => (0, 1),
            Direction::NorthEast => (1, 1),
            Direction::East => (1, 0),
            Direction::SouthEast => (1, -1),
            Direction::South => (0, -1),
            Direction::SouthWest => (-1, -1),
            Direction::West => (-1, 0),
            Direction::NorthWest => (-1, 1),
        }
    }

    /// The direction as players write it in messages (`north-east`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Direction::North => "north",
            Direction::NorthEast => "north-east",
            Direction::East => "east",
            Direction::SouthEast => "south-east",
            Direction::South => "south",
            Direction::SouthWest => "south-west",
            Direction::West => "west",
            Direction::NorthWest => "north-west",
        }
    }

    /// The bit of this direction's perimeter square in a piece pattern.
    pub(super) fn perimeter_bit(self) -> u16 {
        let (df, dr) = self.delta();
        1 << (3 * (dr + 1) + df + 1)
    }

    /// The direction and distance from one centre to another on a line with it.
    pub(super) fn between(from: Point, to: Point) -> Option<(Direction, i8)> {
        let (df, dr) = (to.file - from.file, to.rank - from.rank);
        if df != 0 && dr != 0 && df.abs() != dr.abs() {
            return None;
        }
        let unit = (df.signum(), dr.signum());
        let direction = Direction::ALL.into_iter().find(|d| d.delta() == unit)?;
        Some((direction, df.abs().max(dr.abs())))
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
