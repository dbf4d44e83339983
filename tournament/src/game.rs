//! A tournament's games and byes as the tournament keeps them.

use serde::{Deserialize, Serialize};

use crate::ids::{Colour, PlayerId};
use crate::points::Points;
use crate::result::GameResult;

/// Two players to meet, with their colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pairing {
    /// The player with White.
    pub white: PlayerId,
    /// The player with Black.
    pub black: PlayerId,
}

impl Pairing {
    /// The player of `colour`.
    pub fn player(self, colour: Colour) -> PlayerId {
        match colour {
            Colour::White => self.white,
            Colour::Black => self.black,
        }
    }

    /// The colour of `player`, if he is one of the two.
    pub fn colour_of(self, player: PlayerId) -> Option<Colour> {
        if player == self.white {
            Some(Colour::White)
        } else if player == self.black {
            Some(Colour::Black)
        } else {
            None
        }
    }
}

/// A game of the tournament, finished or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    /// The round, from 1: the Swiss round, or the round of the round-robin schedule
    /// (all round-robin games start at once; the round only fixed the colours).
    pub round: u32,
    /// The division the game belongs to (0 in a Swiss).
    pub division: u32,
    /// Who plays whom, with which colour.
    pub pairing: Pairing,
    /// The result, once the game has ended.
    pub result: Option<GameResult>,
}

impl Game {
    /// The points `player` scored in it, if it has ended and he played in it.
    pub fn points_of(&self, player: PlayerId) -> Option<Points> {
        Some(self.result?.points(self.pairing.colour_of(player)?))
    }

    /// The opponent of `player`, if he played in it.
    pub fn opponent_of(&self, player: PlayerId) -> Option<PlayerId> {
        let colour = self.pairing.colour_of(player)?;
        Some(self.pairing.player(colour.other()))
    }
}

/// A round without a game for one player of an odd Swiss field: one point.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bye {
    /// The round.
    pub round: u32,
    /// The player who sat out.
    pub player: PlayerId,
}
