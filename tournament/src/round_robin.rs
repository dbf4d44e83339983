//! Round robin: seeded players dealt into divisions, and each division's Berger schedule
//! (the circle method). Correspondence plays every game at once, so the schedule only
//! decides colours: alternating along each player's rounds gives everyone White in
//! ⌊(n−1)/2⌋ or ⌈(n−1)/2⌉ of his n−1 games.

use crate::game::Pairing;
use crate::ids::PlayerId;

/// One scheduled round-robin game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scheduled {
    /// The schedule's round, from 1 (the second cycle of a double round robin follows the
    /// first: rounds n..2n−2 for an even division of n).
    pub round: u32,
    /// Who plays whom.
    pub pairing: Pairing,
}

/// The sizes of the divisions `players` players are dealt into, at most `division` each,
/// as few divisions as that allows, sizes differing by at most one (larger ones first).
/// `division` must be at least 1.
pub fn division_sizes(players: usize, division: usize) -> Vec<usize> {
    let count = players.div_ceil(division.max(1));
    let (base, larger) = (players / count.max(1), players % count.max(1));
    (0..count).map(|index| base + usize::from(index < larger)).collect()
}

/// Deals seeded players (strongest first) into divisions: consecutive runs of the seeding,
/// so the first division holds the strongest.
pub fn deal(seeded: &[PlayerId], division: usize) -> Vec<Vec<PlayerId>> {
    let mut rest = seeded;
    division_sizes(seeded.len(), division)
        .into_iter()
        .map(|size| {
            let (this, after) = rest.split_at(size);
            rest = after;
            this.to_vec()
        })
        .collect()
}

/// The Berger schedule of one division (players in seeding order): every pair once, or
/// twice with `double` (the second cycle repeats the first with colours swapped).
///
/// The circle method: with an odd count a dummy joins (his opponent rests); the last
/// position stays fixed while the others rotate. In round r the fixed player meets the
/// player at r, and for k = 1.. the players at r+k and r−k meet, the first with White when
/// k is odd: each player then has White exactly once for every k, plus his game against
/// the fixed player, whose own colours alternate by round.
pub fn schedule(players: &[PlayerId], double: bool) -> Vec<Scheduled> {
    let n = players.len();
    if n < 2 {
        return Vec::new();
    }
    let slots = n + n % 2;
    let rotating = slots - 1;
    let seat = |position: usize| players.get(position).copied();
    let mut games = Vec::with_capacity(n * (n - 1) / 2 * (1 + usize::from(double)));
    for r in 0..rotating {
        let round = r as u32 + 1;
        let (first, second) = if r % 2 == 0 { (slots - 1, r) } else { (r, slots - 1) };
        if let (Some(white), Some(black)) = (seat(first), seat(second)) {
            games.push(Scheduled { round, pairing: Pairing { white, black } });
        }
        for k in 1..slots / 2 {
            let up = (r + k) % rotating;
            let down = (r + rotating - k) % rotating;
            let (white, black) = if k % 2 == 1 { (up, down) } else { (down, up) };
            // Only the fixed slot can be the dummy, so both seats here are players.
            games.push(Scheduled { round, pairing: Pairing { white: players[white], black: players[black] } });
        }
    }
    if double {
        let first_cycle = games.len();
        for index in 0..first_cycle {
            let Scheduled { round, pairing } = games[index];
            let swapped = Pairing { white: pairing.black, black: pairing.white };
            games.push(Scheduled { round: round + rotating as u32, pairing: swapped });
        }
    }
    games
}
