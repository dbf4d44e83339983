//! Chogo (Chogo-44, David Jagger 2004), per `docs/rules/chogo.md`: soldiers and kings on a 44-cell
//! board, co-enclosure capture, traps, tandem moves and mole drops.
//!
//! Sides: the engine's [`Color::White`](crate::Color::White) is the bottom side, which
//! moves first (ruling H1); [`Color::Black`](crate::Color::Black) is the top side, which
//! players know as **Green** (the summary's name). Views, errors and messages say "White" and "Green"; records and `stonemate replay` keep
//! the engine's `white`/`black`.
//!
//! Files: `game.rs` is the game, `rules` reads positions (traps, captures, cities, tandem
//! geometry), `turns` checks and lists turns, `notation` reads the notation, `setup` holds
//! the start position and board strings, `error` the rule errors.

mod error;
mod game;
mod notation;
mod rules;
mod setup;
mod turns;

pub use error::{ChogoError, side_name};
pub use game::{Chogo, QUIET_TURNS_FOR_DRAW};
pub use setup::{ChogoOptions, SetupError};
