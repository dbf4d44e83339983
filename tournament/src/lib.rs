//! Stonemate's tournaments as a pure domain: round-robin divisions with balanced colours,
//! Swiss pairing by score groups with no repeated pairing, scores and tiebreaks. No store,
//! no clock, no Discord: the service asks "what games does this start, or this result
//! create, and what are the standings", then writes the answer with the games in one batch.
//!
//! Glossary: an **entrant** joined; a **player** is a seeded entrant of a started
//! tournament (his **seed** is his place in [`Tournament::players`]); a **game** is
//! addressed by a [`GameRef`]; a **bye** is a Swiss round without a game, worth a point;
//! a **division** is a round-robin group (a Swiss has one).
//!
//! ```
//! use stonemate_tournament::{Entrant, Format, GameRef, GameResult, PlayerId, Step, Tournament, Colour};
//!
//! let entrants: Vec<Entrant> =
//!     (1..=3).map(|id| Entrant { id: PlayerId(id), rating: Some(1500 + id as i32) }).collect();
//! let mut swiss = Tournament::start(Format::Swiss { rounds: Some(2) }, &entrants)?;
//! // Three players: one game and a bye for the lowest-ranked.
//! assert_eq!(swiss.games().len(), 1);
//! assert_eq!(swiss.byes()[0].player, PlayerId(1));
//! let step = swiss.record(GameRef(0), GameResult::Win { winner: Colour::White })?;
//! assert!(matches!(step, Step::Paired { round: 2, .. }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod error;
mod field;
mod format;
mod game;
mod ids;
mod points;
mod result;
pub mod round_robin;
mod standings;
pub mod swiss;
mod tournament;

pub use error::{PairingError, RecordError, StartError};
pub use field::{Entrant, Player, seed};
pub use format::{Format, default_rounds};
pub use game::{Bye, Game, Pairing};
pub use ids::{Colour, GameRef, PlayerId};
pub use points::Points;
pub use result::{GameResult, PlayerResult};
pub use standings::{Row, Standings, Tiebreak, standings};
pub use tournament::{End, RoundResult, Step, Tournament, Withdrawal};
