//! Standings: points, tiebreaks and ranks, per division.
//!
//! A win (on the board, on time or by forfeit) is 1, a draw ½, a loss 0, a bye 1. The
//! tiebreaks are Sonneborn-Berger (round robin), Buchholz then Sonneborn-Berger (Swiss),
//! then the points the tied players scored against each other. **Unplayed games** (byes
//! and forfeits) give their points but count in no tiebreak, for either player: they have
//! no opponent for Buchholz, Sonneborn-Berger or the direct encounter. The opponents'
//! scores used are their full scores, byes and forfeits included.

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::field::Player;
use crate::format::Format;
use crate::game::{Bye, Game};
use crate::ids::PlayerId;
use crate::points::Points;

/// A tiebreak, as the standings show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tiebreak {
    /// The sum of the scores of the opponents met over the board.
    Buchholz,
    /// The scores of the opponents beaten over the board, plus half of those drawn with.
    SonnebornBerger,
}

impl Tiebreak {
    /// The tiebreaks of a format, in the order they apply.
    pub fn of(format: &Format) -> &'static [Tiebreak] {
        match format {
            Format::RoundRobin { .. } => &[Tiebreak::SonnebornBerger],
            Format::Swiss { .. } => &[Tiebreak::Buchholz, Tiebreak::SonnebornBerger],
        }
    }
}

/// Short column headings: `Buch`, `SB`.
impl fmt::Display for Tiebreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Tiebreak::Buchholz => "Buch",
            Tiebreak::SonnebornBerger => "SB",
        })
    }
}

/// One player's line in the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// His place: 1 plus the players strictly ahead (fully tied players share it).
    pub rank: u32,
    /// The player.
    pub player: PlayerId,
    /// His points.
    pub points: Points,
    /// His tiebreak values, in the order of [`Standings::tiebreaks`].
    pub tiebreaks: Vec<Points>,
    /// Points against the players tied with him on points and tiebreaks, if any are.
    pub direct: Option<Points>,
    /// Finished games (forfeits included; a bye is not a game).
    pub games: u32,
    /// Whether he has withdrawn.
    pub withdrawn: bool,
}

/// The standings of a tournament.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standings {
    /// The tiebreak columns, in the order they apply.
    pub tiebreaks: Vec<Tiebreak>,
    /// Each division's rows, best first (a Swiss has one division).
    pub divisions: Vec<Vec<Row>>,
}

/// The standings of `players` (in seed order) after `games` and `byes`. Games without a
/// result do not count yet.
pub fn standings(format: &Format, players: &[Player], games: &[Game], byes: &[Bye]) -> Standings {
    let tiebreaks = Tiebreak::of(format);
    let seeds: HashMap<PlayerId, usize> = players.iter().enumerate().map(|(seed, p)| (p.id, seed)).collect();
    let finished: Vec<(usize, usize, &Game)> = games
        .iter()
        .filter(|game| game.result.is_some())
        .filter_map(|game| Some((*seeds.get(&game.pairing.white)?, *seeds.get(&game.pairing.black)?, game)))
        .collect();
    let mut points = vec![Points::ZERO; players.len()];
    let mut played = vec![0u32; players.len()];
    for &(white, black, game) in &finished {
        points[white] = points[white] + game.points_of(game.pairing.white).unwrap_or_default();
        points[black] = points[black] + game.points_of(game.pairing.black).unwrap_or_default();
        played[white] += 1;
        played[black] += 1;
    }
    for bye in byes {
        if let Some(&seed) = seeds.get(&bye.player) {
            points[seed] = points[seed] + Points::ONE;
        }
    }
    let mut values = vec![vec![Points::ZERO; tiebreaks.len()]; players.len()];
    for &(white, black, game) in finished.iter().filter(|(_, _, game)| game.result.is_some_and(|r| r.played())) {
        for (me, them) in [(white, black), (black, white)] {
            let scored = game.points_of(players[me].id).unwrap_or_default();
            for (value, tiebreak) in values[me].iter_mut().zip(tiebreaks) {
                *value = *value + contribution(*tiebreak, scored, points[them]);
            }
        }
    }
    let division_count = players.iter().map(|p| p.division as usize + 1).max().unwrap_or(0);
    let divisions = (0..division_count)
        .map(|division| {
            let members: Vec<usize> =
                (0..players.len()).filter(|&s| players[s].division as usize == division).collect();
            let table = Table { players, points: &points, values: &values, played: &played, finished: &finished };
            table.rows(members)
        })
        .collect();
    Standings { tiebreaks: tiebreaks.to_vec(), divisions }
}

/// What one played game adds to a tiebreak: `scored` is the player's points in it, and
/// `opponent` his opponent's total.
fn contribution(tiebreak: Tiebreak, scored: Points, opponent: Points) -> Points {
    match tiebreak {
        Tiebreak::Buchholz => opponent,
        Tiebreak::SonnebornBerger if scored == Points::ONE => opponent,
        Tiebreak::SonnebornBerger if scored == Points::HALF => opponent.half(),
        Tiebreak::SonnebornBerger => Points::ZERO,
    }
}

/// The figures of every player, for ranking a division.
struct Table<'a> {
    players: &'a [Player],
    points: &'a [Points],
    values: &'a [Vec<Points>],
    played: &'a [u32],
    finished: &'a [(usize, usize, &'a Game)],
}

impl Table<'_> {
    /// The rows of one division's members (seeds), ranked.
    fn rows(&self, mut members: Vec<usize>) -> Vec<Row> {
        let key = |seed: usize| (self.points[seed], self.values[seed].clone());
        members.sort_by(|&a, &b| key(b).cmp(&key(a)).then(a.cmp(&b)));
        let mut direct: Vec<Option<Points>> = vec![None; self.players.len()];
        for tied in members.chunk_by(|&a, &b| key(a) == key(b)).filter(|tied| tied.len() > 1) {
            for &seed in tied {
                direct[seed] = Some(self.direct(seed, tied));
            }
        }
        let full = |seed: usize| (key(seed), direct[seed]);
        members.sort_by(|&a, &b| full(b).cmp(&full(a)).then(a.cmp(&b)));
        let mut rows: Vec<Row> = Vec::with_capacity(members.len());
        for (place, &seed) in members.iter().enumerate() {
            let shared = place > 0 && full(members[place - 1]) == full(seed);
            let rank = if shared { rows[place - 1].rank } else { place as u32 + 1 };
            rows.push(Row {
                rank,
                player: self.players[seed].id,
                points: self.points[seed],
                tiebreaks: self.values[seed].clone(),
                direct: direct[seed],
                games: self.played[seed],
                withdrawn: self.players[seed].withdrawn,
            });
        }
        rows
    }

    /// The points `seed` scored in played games against the others of `tied`.
    fn direct(&self, seed: usize, tied: &[usize]) -> Points {
        self.finished
            .iter()
            .filter(|(_, _, game)| game.result.is_some_and(|r| r.played()))
            .filter_map(|&(white, black, game)| {
                let other = if white == seed {
                    black
                } else if black == seed {
                    white
                } else {
                    return None;
                };
                tied.contains(&other).then(|| game.points_of(self.players[seed].id).unwrap_or_default())
            })
            .sum()
    }
}
