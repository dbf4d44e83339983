//! The small names of a tournament's things: players, games in the tournament, colours.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A player of a tournament. The service uses the Discord user id; the domain only
/// compares ids, so any number unique within the tournament will do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PlayerId(pub u64);

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.0)
    }
}

/// A game of a tournament: its index in [`crate::Tournament::games`], which only grows.
/// The service keeps it beside its own game id to report the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct GameRef(pub u32);

impl GameRef {
    /// The index into the tournament's list of games.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for GameRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.0 + 1)
    }
}

/// The side a player has in a game: White moves first in the chess-like games and is the
/// side colours are balanced over (Black in go terms: the first mover).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    /// The first to move.
    White,
    /// The second to move.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::White => "White",
            Colour::Black => "Black",
        })
    }
}
