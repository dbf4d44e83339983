//! What a search answers, whichever searcher ran: the turn, its value, and what it saw of
//! every root turn. The Monte Carlo search and both alpha-beta searches build the same
//! result.

use std::time::Duration;

use stonemate_engine::{Color, Outcome, Turn};

/// One turn of the side to move, as the search saw it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RootTurn {
    /// The turn.
    pub turn: Turn,
    /// How many playouts went through this turn, all threads together.
    pub visits: u64,
    /// The mean result for the side to move after this turn (1 win, 0.5 draw, 0 loss).
    pub value: f64,
    /// `Some` when the search proved the outcome after this turn.
    pub proven: Option<Proof>,
}

/// A result the search proved, for the side that made the turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Proof {
    /// The side that made the turn wins, whatever the opponent does.
    Win,
    /// Best play on both sides leads to a draw.
    Draw,
    /// The side that made the turn loses, whatever it does.
    Loss,
}

impl Proof {
    /// The result for the side that made the turn: 1 a win, 0.5 a draw, 0 a loss.
    pub(super) fn value(self) -> f64 {
        match self {
            Proof::Win => 1.0,
            Proof::Draw => 0.5,
            Proof::Loss => 0.0,
        }
    }

    /// The proof for `mover` of a game that ended with `outcome`.
    pub(super) fn of(outcome: Outcome, mover: Color) -> Proof {
        match outcome {
            Outcome::Draw => Proof::Draw,
            Outcome::Winner(winner) if winner == mover => Proof::Win,
            Outcome::Winner(_) => Proof::Loss,
        }
    }
}

/// The turn the search chose, and what it knows.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    /// The turn to play: a proven win if there is one, else the most visited turn (a proven
    /// loss only when every turn is one).
    pub turn: Turn,
    /// The expected score of the side to move, from 0 (lost) through 0.5 (even) to 1 (won).
    pub value: f64,
    /// Playouts made (tree nodes added), all threads together.
    pub nodes: u64,
    /// The wall-clock time the search took.
    pub elapsed: Duration,
    /// `Some` when the outcome of `turn` is proven (a forced win, draw or loss).
    pub proven: Option<Proof>,
    /// Every legal turn with its statistics, in the engine's order.
    pub root: Vec<RootTurn>,
}
