//! The players of a tournament: who joined (an [`Entrant`]), and the seeded list the
//! tournament keeps from its start (a [`Player`] each), strongest first.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::error::StartError;
use crate::ids::PlayerId;

/// A player as he joined: the list of entrants is in joining order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// The player.
    pub id: PlayerId,
    /// His rating in the tournament's game on this server, rounded as shown; `None`
    /// while he has none.
    pub rating: Option<i32>,
}

/// A seeded player of a started tournament.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// The player.
    pub id: PlayerId,
    /// His rating at the start, as he entered with it.
    pub rating: Option<i32>,
    /// His division (0 first, the strongest; always 0 in a Swiss).
    pub division: u32,
    /// Whether he has withdrawn: he is paired no more, his finished games stand.
    pub withdrawn: bool,
}

/// The entrants in seeding order: rated players by rating, highest first, then unrated
/// players; equal ratings and unrated players keep their joining order.
///
/// Refuses a list with fewer than `minimum` players or with a player twice.
pub fn seed(entrants: &[Entrant], minimum: usize) -> Result<Vec<Entrant>, StartError> {
    if entrants.len() < minimum {
        return Err(StartError::TooFewPlayers { players: entrants.len(), needed: minimum });
    }
    let mut seen = HashSet::with_capacity(entrants.len());
    if let Some(twice) = entrants.iter().find(|entrant| !seen.insert(entrant.id)) {
        return Err(StartError::DuplicatePlayer(twice.id));
    }
    let mut seeded = entrants.to_vec();
    // A stable sort keeps joining order among equals; `None` sorts after every rating.
    seeded.sort_by_key(|entrant| (entrant.rating.is_none(), std::cmp::Reverse(entrant.rating)));
    Ok(seeded)
}
