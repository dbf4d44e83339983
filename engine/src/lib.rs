//! The rules of Stonemate's five chess/go hybrids: Chego, Gess, iChess, Go with chess
//! pieces and Chogo.
//!
//! Pure Rust: no I/O, no clocks, no global state. Every game implements [`Game`] in its own
//! module; [`AnyGame`] dispatches over them; a record (options plus turn texts) replays to a
//! position with [`AnyGame::replay`]. A refused turn is an error enum named after the rule
//! it breaks, and leaves the game unchanged.

pub mod any;
pub mod board;
pub mod catalogue;
pub mod chego;
pub mod chogo;
pub mod game;
pub mod gess;
pub mod go;
pub mod ichess;
pub mod notation;
pub mod options;
pub mod piece;
pub mod square;
pub mod turn;

pub use any::{AnyGame, NewGameError, Replay, ReplayError, TurnError};
pub use board::Board;
pub use game::{
    BlockMove, BoardView, Cell, EndReason, Ending, Game, GameKind, HalfPoints, Look, Outcome, OwnerMap, Score, Status,
};
pub use notation::NotationError;
pub use options::{GameOptions, OptionError, OptionPairs};
pub use piece::{Hand, Piece, Role};
pub use square::{Color, Shape, Square, SquareSet};
pub use turn::{Rect, Turn};
