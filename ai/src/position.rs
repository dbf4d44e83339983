//! The position a search walks: the engine's game, or, for go with a set whose pieces act
//! like stones, the incremental [`FastGo`] board, which plays the same turns many times
//! faster.

use rand::Rng;
use stonemate_engine::{AnyGame, Color, Outcome, Status, Turn};

use crate::fastgo::FastGo;
use crate::knowledge;

/// A game as the search plays it.
#[derive(Debug, Clone)]
pub(crate) enum Position {
    /// Any game, through the engine (boxed: an engine game is kilobytes, the playout
    /// board a few pointers).
    Engine(Box<AnyGame>),
    /// Go with a stone-like set, on the playout board.
    Go(FastGo),
}

impl Position {
    /// The fastest position that plays `game` exactly.
    pub(crate) fn new(game: &AnyGame) -> Position {
        match game {
            AnyGame::Go(go) => {
                FastGo::from_go(go).map_or_else(|| Position::Engine(Box::new(game.clone())), Position::Go)
            }
            _ => Position::Engine(Box::new(game.clone())),
        }
    }

    pub(crate) fn to_move(&self) -> Option<Color> {
        match self {
            Position::Engine(game) => game.to_move(),
            Position::Go(go) => go.to_move(),
        }
    }

    /// The result once the game is over.
    pub(crate) fn outcome(&self) -> Option<Outcome> {
        match self {
            Position::Engine(game) => match game.status() {
                Status::Finished(ending) => Some(ending.outcome),
                Status::Ongoing { .. } => None,
            },
            Position::Go(go) => go.to_move().is_none().then(|| go.score().outcome()),
        }
    }

    pub(crate) fn legal_turns(&self) -> Vec<Turn> {
        match self {
            Position::Engine(game) => game.legal_turns(),
            Position::Go(go) => go.legal_turns(),
        }
    }

    /// Plays `turn`; `false` when the rules refuse it (nothing changes then).
    pub(crate) fn play(&mut self, turn: Turn) -> bool {
        match self {
            Position::Engine(game) => game.play(turn).is_ok(),
            Position::Go(go) => go.play(turn),
        }
    }

    /// A playout from here (changing the position): White's expected result.
    pub(crate) fn rollout(&mut self, rng: &mut impl Rng) -> f64 {
        match self {
            Position::Engine(game) => knowledge::rollout(game, rng),
            Position::Go(go) => go.rollout(rng),
        }
    }

    /// White's expected result without playing on.
    pub(crate) fn evaluate(&self) -> f64 {
        match self {
            Position::Engine(game) => knowledge::evaluate(game),
            Position::Go(go) => go.evaluate(),
        }
    }

    /// The order in which a new node tries `turns` (last first).
    pub(crate) fn order_turns(&self, turns: Vec<Turn>, rng: &mut impl Rng) -> Vec<Turn> {
        match self {
            Position::Engine(game) => knowledge::order_turns(game, turns, rng),
            Position::Go(go) => knowledge::order_go_turns(go, turns, rng),
        }
    }
}
