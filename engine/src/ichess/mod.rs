//! iChess (Pangus Ho, 2014), per `docs/rules/ichess.md`: chess pieces with shogi pawns, drops into
//! the own half, and a deployment phase.
//!
//! The position lives on 64-bit bitboards (`bitboard.rs`, `position.rs`); turns are generated
//! legal (`movegen.rs`); `notation.rs` reads and prints the rules file's table; `repetition.rs`
//! keeps the positions seen for ruling I3; `bare.rs` is the bare position searches use.
//! `game.rs` holds the game itself: the rule checks that name what a refused turn breaks
//! (`error.rs`), and the endings.

mod bare;
mod bitboard;
mod error;
mod game;
mod movegen;
mod notation;
mod position;
mod repetition;

pub use bare::{Bare, BareTurn, history_checks, history_keys};
pub use error::IChessError;
pub use game::{IChess, IChessOptions};
pub use position::SetupError;
