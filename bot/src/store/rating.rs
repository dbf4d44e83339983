//! Ratings as stored: one [`RatingRecord`] per player, game and server, and the
//! [`RatingChange`]s a finishing write carries, so that a rating changes in the same
//! transaction as the result that causes it (issue 18). The figures themselves come from
//! the service (Glicko-2, through `skillratings`); the store only keeps them, and refuses a
//! change made from a rating that has moved since it was read (another game of the same
//! player finished first), exactly as it refuses a stale record.

use serde::{Deserialize, Serialize};
use stonemate_engine::GameKind;

use crate::ids::{GuildId, UserId};

/// A player's Glicko-2 rating in one game of one server.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RatingRecord {
    /// The player.
    pub user: UserId,
    /// The kind of game it rates (stored as `game`).
    #[serde(rename = "game", with = "super::record::kind_name")]
    pub kind: GameKind,
    /// The server (ratings are per server; records without one are not rated).
    pub guild: GuildId,
    /// The Glicko-2 rating, on the Glicko scale (a new player starts at 1500).
    pub rating: f64,
    /// The rating deviation, on the same scale: how unsure the rating is.
    pub deviation: f64,
    /// The Glicko-2 volatility: how much the rating is expected to swing.
    pub volatility: f64,
    /// Rated games played: it grows by one with every change, so it also tells a
    /// rating read before another game changed it.
    pub games: u32,
}

/// One rating a write sets: `after`, replacing `before` (`None`: the player had no rating
/// yet). The store refuses the whole write ([`super::StoreError::Conflict`]) when the
/// stored rating is not `before`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingChange {
    /// The stored rating the write expects; `None`: none yet.
    pub before: Option<RatingRecord>,
    /// The rating written.
    pub after: RatingRecord,
}
