//! The position a search walks: the engine's game, or, for go with a set whose pieces act
//! like stones, the incremental [`FastGo`] board, which plays the same turns many times
//! faster.

use rand::Rng;
use stonemate_engine::{AnyGame, Color, Outcome, Role, Status, Turn};

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

    /// Hard's playout from here: [`Position::rollout`] with the knowledge of hard's search
    /// in Chego, Gess and Chogo.
    /// `played` gets each turn's mover and RAVE index (see [`Position::turn_index`]).
    pub(crate) fn strong_rollout(&mut self, rng: &mut impl Rng, played: &mut Vec<(u8, Option<u16>)>) -> f64 {
        match self {
            Position::Engine(game) => {
                let cells = drop_cells(game);
                knowledge::strong_rollout(game, rng, |mover, turn| {
                    if let Some(cells) = cells {
                        played.push((mover.index() as u8, drop_index(cells, turn)));
                    }
                })
            }
            Position::Go(go) => go.rollout(rng),
        }
    }

    /// The size of the table of all-moves-as-first statistics a RAVE search of this
    /// position keeps (by [`Position::turn_index`]): go's squares, or Chego's drops (a
    /// role on a square); `None` for the other games.
    pub(crate) fn rave_size(&self) -> Option<usize> {
        match self {
            Position::Go(go) => Some(go.square_count()),
            Position::Engine(game) => drop_cells(game).map(|(width, height)| Role::ALL.len() * width * height),
        }
    }

    /// Where a turn goes in the RAVE table; `None` for a pass (and for turns of games
    /// without RAVE).
    pub(crate) fn turn_index(&self, turn: Turn) -> Option<u16> {
        match self {
            Position::Go(go) => go.turn_index(turn),
            Position::Engine(game) => drop_cells(game).and_then(|cells| drop_index(cells, turn)),
        }
    }

    /// White's expected result without playing on.
    pub(crate) fn evaluate(&self) -> f64 {
        match self {
            Position::Engine(game) => knowledge::evaluate(game),
            Position::Go(go) => go.evaluate(),
        }
    }

    /// The order in which a new node tries `turns` (last first); `strong`: as hard's
    /// search orders them in Chego, Gess and Chogo.
    pub(crate) fn order_turns(&self, turns: Vec<Turn>, rng: &mut impl Rng, strong: bool) -> Vec<Turn> {
        match self {
            Position::Engine(game) if strong => knowledge::strong_order_turns(game, turns, rng),
            Position::Engine(game) => knowledge::order_turns(game, turns, rng),
            Position::Go(go) => knowledge::order_go_turns(go, turns, rng),
        }
    }
}

/// The grid (width, height) of a game whose turns a RAVE search indexes as drops:
/// Chego's.
fn drop_cells(game: &AnyGame) -> Option<(usize, usize)> {
    match game {
        AnyGame::Chego(chego) => {
            let shape = chego.board().shape();
            Some((usize::from(shape.width()), usize::from(shape.height())))
        }
        _ => None,
    }
}

/// A drop's RAVE index on a grid of `cells`: the role, then the square.
fn drop_index((width, height): (usize, usize), turn: Turn) -> Option<u16> {
    let Turn::Drop { role, to } = turn else { return None };
    let at = role.index() * width * height + usize::from(to.rank()) * width + usize::from(to.file());
    u16::try_from(at).ok()
}
