//! Go with chess pieces (H. Bodlaender, 1998), per `docs/rules/go-with-pieces.md`.
//!
//! Stones are replaced by catalogue pieces: a piece is alive when it can move to an empty
//! square or defends a friendly alive piece (rule 3). After a drop or move, the opponent's
//! pieces that are not alive are captured (4); the mover's own must all be alive (5, G4);
//! simple ko (6); two passes end the game (7); territory plus prisoners scores (8, 9).
//! With `counting=on`, the two passes open a counting phase instead (rule 10): the players
//! agree on dead pieces (`dead c3 d4`) or resume play.
//!
//! `game.rs` is the game and its turns, `rules.rs` the whole-board rules (life, control),
//! `counting.rs` the agreement on dead pieces, `options.rs` and `error.rs` the options and
//! the refusals.

mod counting;
mod error;
mod game;
mod options;
mod rules;

pub use counting::{DeadPieces, MAX_DEAD_TEXT};
pub use error::GoError;
pub use game::Go;
pub use options::{GoOptions, Squares};
