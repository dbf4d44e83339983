//! Turns: what a player does in one go, in every game.
//!
//! A [`Turn`] is the checked-against-nothing, syntactic meaning of a turn: each game's
//! `parse_turn` produces one from text, and its `play` accepts or refuses it.

use std::fmt;

use crate::piece::Role;
use crate::square::Square;

/// A solid rectangle of cells, from its lower-left to its upper-right corner (Chogo tandems).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rect {
    low: Square,
    high: Square,
}

impl Rect {
    /// The rectangle with these two opposite corners, in either order.
    #[must_use]
    pub fn spanning(a: Square, b: Square) -> Rect {
        let low = Square::new(a.file().min(b.file()), a.rank().min(b.rank()));
        let high = Square::new(a.file().max(b.file()), a.rank().max(b.rank()));
        // Both corners come from in-range files and ranks, so they exist.
        Rect { low: low.unwrap_or(a), high: high.unwrap_or(b) }
    }

    /// The lower-left corner.
    #[must_use]
    pub fn low(&self) -> Square {
        self.low
    }

    /// The upper-right corner.
    #[must_use]
    pub fn high(&self) -> Square {
        self.high
    }

    /// Files the rectangle spans.
    #[must_use]
    pub fn width(&self) -> u8 {
        self.high.file() - self.low.file() + 1
    }

    /// Ranks the rectangle spans.
    #[must_use]
    pub fn height(&self) -> u8 {
        self.high.rank() - self.low.rank() + 1
    }

    /// Whether `square` lies inside the rectangle.
    #[must_use]
    pub fn contains(&self, square: Square) -> bool {
        (self.low.file()..=self.high.file()).contains(&square.file())
            && (self.low.rank()..=self.high.rank()).contains(&square.rank())
    }

    /// Every cell, by rank then file.
    pub fn cells(&self) -> impl Iterator<Item = Square> + '_ {
        (self.low.rank()..=self.high.rank())
            .flat_map(move |rank| (self.low.file()..=self.high.file()).filter_map(move |file| Square::new(file, rank)))
    }
}

/// One turn of any of the five games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Turn {
    /// Passing (Chego, Go with chess pieces).
    Pass,
    /// A piece from hand (or an unlimited supply) onto an empty square: Chego, Go, iChess
    /// drops and deployment, Chogo's king drop.
    Drop {
        /// The piece taken from the hand (or the supply).
        role: Role,
        /// The empty square it goes to.
        to: Square,
    },
    /// A piece moves: Go's `moving=on`, iChess (with an optional promotion), Chogo's single
    /// piece, and a Gess piece named by its centre before and after.
    Move {
        /// The moving piece's square (a Gess piece's centre).
        from: Square,
        /// Where it goes.
        to: Square,
        /// What a pawn becomes on arrival (iChess: the ferz), if it promotes.
        promotion: Option<Role>,
    },
    /// A Chogo tandem: the rectangle `from` slides until its leading piece reaches `to`.
    /// Games keep `to` canonical (the cell the lowest leading piece reaches).
    Tandem {
        /// The rectangle of pieces that move together.
        from: Rect,
        /// The cell the lowest leading piece reaches.
        to: Square,
    },
    /// A Chogo mole drop: the own piece on `from` is put on the empty city cell `to`.
    Relocate {
        /// The own piece taken off the board.
        from: Square,
        /// The empty cell in the opponent's city where it is put.
        to: Square,
    },
}

impl Turn {
    /// A plain move without promotion.
    #[must_use]
    pub fn movement(from: Square, to: Square) -> Turn {
        Turn::Move { from, to, promotion: None }
    }

    /// The squares a picture marks for this turn: where it came from and went to.
    #[must_use]
    pub fn touched(&self) -> Vec<Square> {
        match *self {
            Turn::Pass => Vec::new(),
            Turn::Drop { to, .. } => vec![to],
            Turn::Move { from, to, .. } | Turn::Relocate { from, to } => vec![from, to],
            Turn::Tandem { from, to } => {
                let mut cells: Vec<Square> = from.cells().collect();
                cells.push(to);
                cells
            }
        }
    }
}

/// A plain, game-independent spelling (`pass`, `R@d4`, `d4-d7`, `d4-d8=F`, `f3g4-d3`,
/// `e1@b6`). Games print their own notation; this is for logs and debugging.
impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Turn::Pass => f.write_str("pass"),
            Turn::Drop { role, to } => write!(f, "{}@{to}", role.letter()),
            Turn::Move { from, to, promotion: None } => write!(f, "{from}-{to}"),
            Turn::Move { from, to, promotion: Some(role) } => write!(f, "{from}-{to}={}", role.letter()),
            Turn::Tandem { from, to } => write!(f, "{}{}-{to}", from.low(), from.high()),
            Turn::Relocate { from, to } => write!(f, "{from}@{to}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn rect_corners_in_either_order() {
        let rect = Rect::spanning(sq("g3"), sq("f4"));
        assert_eq!((rect.low(), rect.high()), (sq("f3"), sq("g4")));
        assert_eq!((rect.width(), rect.height()), (2, 2));
        let cells: Vec<String> = rect.cells().map(|s| s.to_string()).collect();
        assert_eq!(cells, ["f3", "g3", "f4", "g4"]);
    }
}
