//! What the tournament refuses, named after the rule.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ids::{GameRef, PlayerId};

/// Why a tournament cannot start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum StartError {
    /// Fewer players than the format needs.
    #[error("a tournament needs at least {needed} players; it has {players}")]
    TooFewPlayers {
        /// The players who joined.
        players: usize,
        /// The fewest it can start with.
        needed: usize,
    },
    /// The same player is in the list twice.
    #[error("{0} joined twice")]
    DuplicatePlayer(PlayerId),
    /// A division must have room for at least three players (with two, an odd field
    /// would leave a division of one).
    #[error("a division needs room for at least 3 players, not {division}")]
    DivisionTooSmall {
        /// The division size asked for.
        division: u32,
    },
    /// A Swiss of no rounds.
    #[error("a Swiss needs at least one round")]
    NoRounds,
}

/// Why a Swiss round cannot be paired: the tournament then ends early (the end keeps it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error, Serialize, Deserialize)]
pub enum PairingError {
    /// Every way of pairing the active players repeats a pairing.
    #[error("round {round} cannot be paired without two players meeting again")]
    NoLegalPairing {
        /// The round that could not be paired.
        round: u32,
    },
    /// Withdrawals left fewer than two players to pair.
    #[error("round {round} cannot be paired: {active} player(s) still in")]
    TooFewPlayers {
        /// The round that could not be paired.
        round: u32,
        /// The players still in.
        active: usize,
    },
}

/// Why a result or a withdrawal is refused. Nothing changes when it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum RecordError {
    /// No such game in this tournament.
    #[error("{0} is not a game of this tournament")]
    UnknownGame(GameRef),
    /// The game already has its result.
    #[error("{0} has already ended")]
    GameOver(GameRef),
    /// No such player in this tournament.
    #[error("{0} does not play in this tournament")]
    UnknownPlayer(PlayerId),
    /// The player has already withdrawn.
    #[error("{0} has already withdrawn")]
    AlreadyWithdrawn(PlayerId),
    /// The tournament has ended.
    #[error("the tournament has ended")]
    TournamentOver,
}
