//! Gess (the Archimedeans, Eureka 53), per `docs/rules/gess.md`.
//!
//! A 20x20 grid whose stones stand on the inner 18x18. A piece is any 3x3 area with own
//! stones and no enemy stone (rule 3); its stones say where and how far it moves (4); it
//! stops at the first stone it meets at the latest (5) and removes every stone under its new
//! footprint (6). A move must leave the mover a ring (ruling S1); taking the opponent's
//! last ring wins (9), and so does leaving the opponent without a legal move (ruling S2).
//!
//! The stones live in bit rows (`board.rs`), so that listing every legal move is fast;
//! `game.rs` is the game, `moves.rs` the pieces and their moves, `direction.rs` their
//! directions, `error.rs` the refusals.

mod board;
mod direction;
mod error;
mod game;
mod moves;

pub use direction::Direction;
pub use error::GessError;
pub use game::{Gess, GessOptions, Setup, SetupError};
