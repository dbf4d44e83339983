//! What a Swiss pairing needs to know of each player, gathered from the games and byes so
//! far: his score, whom he has met, his colours in played games, and his byes. Players are
//! numbered by their seed (their index in the tournament's list of players).

use std::collections::HashMap;

use crate::field::Player;
use crate::game::{Bye, Game};
use crate::ids::{Colour, PlayerId};
use crate::points::Points;

/// One player's past, as pairing reads it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Past {
    /// Points so far, byes and forfeits included.
    pub score: Points,
    /// The seeds of everyone he has been paired with.
    pub opponents: Vec<usize>,
    /// His colours in played games (forfeits left out), oldest first.
    pub colours: Vec<Colour>,
    /// Byes received.
    pub byes: u32,
}

impl Past {
    /// Whites minus Blacks.
    pub fn colour_difference(&self) -> i32 {
        self.colours.iter().map(|&colour| if colour == Colour::White { 1 } else { -1 }).sum()
    }
}

/// The past of every player, by seed.
#[derive(Debug, Clone)]
pub(crate) struct History {
    /// By seed.
    pub pasts: Vec<Past>,
}

impl History {
    /// Gathers the past of `players` (in seed order) from `games` (in round order) and
    /// `byes`. Games with players outside the list are ignored.
    pub fn gather(players: &[Player], games: &[Game], byes: &[Bye]) -> History {
        let seeds: HashMap<PlayerId, usize> = players.iter().enumerate().map(|(seed, p)| (p.id, seed)).collect();
        let mut pasts = vec![Past::default(); players.len()];
        for game in games {
            let (Some(&white), Some(&black)) = (seeds.get(&game.pairing.white), seeds.get(&game.pairing.black)) else {
                continue;
            };
            pasts[white].opponents.push(black);
            pasts[black].opponents.push(white);
            let Some(result) = game.result else { continue };
            pasts[white].score = pasts[white].score + result.points(Colour::White);
            pasts[black].score = pasts[black].score + result.points(Colour::Black);
            if result.played() {
                pasts[white].colours.push(Colour::White);
                pasts[black].colours.push(Colour::Black);
            }
        }
        for bye in byes {
            if let Some(&seed) = seeds.get(&bye.player) {
                pasts[seed].score = pasts[seed].score + Points::ONE;
                pasts[seed].byes += 1;
            }
        }
        History { pasts }
    }

    /// Whether the players of seeds `a` and `b` have been paired before.
    pub fn met(&self, a: usize, b: usize) -> bool {
        self.pasts[a].opponents.contains(&b)
    }
}
