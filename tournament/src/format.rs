//! The two formats and their settings.

use serde::{Deserialize, Serialize};

/// How a tournament is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Format {
    /// Divisions where everyone plays everyone, all games at once.
    RoundRobin {
        /// The most players in a division (at least 3).
        division: u32,
        /// Whether each pair plays twice, colours swapped.
        double: bool,
    },
    /// Rounds paired by score, no pair meeting twice.
    Swiss {
        /// The number of rounds; `None`: [`default_rounds`] of the players at the start.
        rounds: Option<u32>,
    },
}

/// The rounds a Swiss needs for a single winner, as the contract fixes them: ⌈log2 n⌉ + 1.
pub fn default_rounds(players: usize) -> u32 {
    let players = players.max(1);
    // ⌈log2 n⌉ is the bit length of n - 1.
    (usize::BITS - (players - 1).leading_zeros()) + 1
}
