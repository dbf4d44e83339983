//! Pairing one Swiss round: the bye, then score groups from the top, each paired top half
//! against bottom half, with every choice kept only if the rest can still be paired (see
//! [`super::matching`]), so that no pair meets twice while any legal pairing exists.

use crate::error::PairingError;
use crate::field::Player;
use crate::game::{Bye, Game, Pairing};
use crate::ids::{Colour, PlayerId};
use crate::swiss::colour::{self, Preference, Strength};
use crate::swiss::history::History;
use crate::swiss::matching;

/// The pairings of a Swiss round, board 1 first, and its bye.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwissRound {
    /// The games, board 1 (the highest scores) first.
    pub pairings: Vec<Pairing>,
    /// The player who sits this round out with a point, when the count is odd.
    pub bye: Option<PlayerId>,
}

/// Pairs round `round` of a Swiss between the players (in seed order) who have not
/// withdrawn, given every earlier game (all finished) and bye.
///
/// Absolute: no two players meet twice, a bye only to a player without one while that
/// allows a pairing. Then, where a pairing allows it: no colour difference past ±2, no
/// colour three times running. Refuses when no pairing avoids a repeat, or fewer than two
/// players are left.
pub fn pair(players: &[Player], games: &[Game], byes: &[Bye], round: u32) -> Result<SwissRound, PairingError> {
    let history = History::gather(players, games, byes);
    let mut active: Vec<usize> = (0..players.len()).filter(|&seed| !players[seed].withdrawn).collect();
    if active.len() < 2 {
        return Err(PairingError::TooFewPlayers { round, active: active.len() });
    }
    // The ranking: score, then seed.
    active.sort_by_key(|&seed| (std::cmp::Reverse(history.pasts[seed].score), seed));
    let preferences: Vec<Option<Preference>> = history.pasts.iter().map(colour::preference).collect();
    let (bye, strict) = choose_bye(&history, &preferences, &active).ok_or(PairingError::NoLegalPairing { round })?;
    let mut pairer = Pairer::new(&history, &preferences, strict, players.len());
    for &seed in active.iter().filter(|&&seed| Some(seed) != bye) {
        pairer.include(seed);
    }
    let ranked: Vec<usize> = active.iter().copied().filter(|&seed| Some(seed) != bye).collect();
    let couples = pairer.pair_groups(&ranked);
    Ok(SwissRound {
        pairings: allocate_colours(&history, &ranked, couples, players),
        bye: bye.map(|seed| players[seed].id),
    })
}

/// The bye (for an odd count) and whether the strict colour rule can hold: the
/// lowest-ranked player without a bye whose absence leaves a pairing, strict colours first;
/// a second bye only if no first one works. `None`: no legal pairing at all.
fn choose_bye(
    history: &History,
    preferences: &[Option<Preference>],
    active: &[usize],
) -> Option<(Option<usize>, bool)> {
    let feasible = |without: Option<usize>, strict: bool| {
        let mut pairer = Pairer::new(history, preferences, strict, history.pasts.len());
        active.iter().filter(|&&seed| Some(seed) != without).for_each(|&seed| pairer.include(seed));
        pairer.feasible()
    };
    if active.len() % 2 == 0 {
        return [true, false].into_iter().find(|&strict| feasible(None, strict)).map(|strict| (None, strict));
    }
    for fresh in [true, false] {
        for strict in [true, false] {
            let candidates = active.iter().rev().filter(|&&seed| (history.pasts[seed].byes == 0) == fresh);
            for &candidate in candidates {
                if feasible(Some(candidate), strict) {
                    return Some((Some(candidate), strict));
                }
            }
        }
    }
    None
}

/// The unpaired players of a round being paired, and the rule for who may meet whom.
struct Pairer<'a> {
    history: &'a History,
    preferences: &'a [Option<Preference>],
    /// Whether two players who must both have the same colour may not meet.
    strict: bool,
    /// By seed: still to be paired this round.
    unpaired: Vec<bool>,
    /// The unpaired, by seed, in no particular order.
    members: Vec<usize>,
}

impl<'a> Pairer<'a> {
    fn new(history: &'a History, preferences: &'a [Option<Preference>], strict: bool, players: usize) -> Self {
        Pairer { history, preferences, strict, unpaired: vec![false; players], members: Vec::new() }
    }

    fn include(&mut self, seed: usize) {
        self.unpaired[seed] = true;
        self.members.push(seed);
    }

    fn remove(&mut self, seed: usize) {
        self.unpaired[seed] = false;
        if let Some(at) = self.members.iter().position(|&member| member == seed) {
            self.members.swap_remove(at);
        }
    }

    /// Whether `a` and `b` may meet this round.
    fn allowed(&self, a: usize, b: usize) -> bool {
        a != b
            && !self.history.met(a, b)
            && (!self.strict || colour::compatible(self.preferences[a], self.preferences[b]))
    }

    /// The colour a player must have under the strict rule, if any.
    fn must(&self, seed: usize) -> Option<Colour> {
        self.preferences[seed].filter(|p| self.strict && p.strength == Strength::Absolute).map(|p| p.colour)
    }

    /// Whether the unpaired players can all be paired.
    fn feasible(&self) -> bool {
        let count = self.members.len();
        if count % 2 == 1 {
            return false;
        }
        if count == 0 {
            return true;
        }
        let musts = |colour: Colour| self.members.iter().filter(|&&m| self.must(m) == Some(colour)).count();
        let (white, black) = (musts(Colour::White), musts(Colour::Black));
        let degrees = self.members.iter().map(|&seed| {
            let met = self.history.pasts[seed].opponents.iter().filter(|&&o| self.unpaired[o]).count();
            let clash = match self.must(seed) {
                Some(Colour::White) => white - 1,
                Some(Colour::Black) => black - 1,
                None => 0,
            };
            (count - 1).saturating_sub(met + clash)
        });
        if matching::dirac(count, degrees) {
            return true;
        }
        let adjacent: Vec<Vec<usize>> =
            self.members.iter().map(|&a| (0..count).filter(|&b| self.allowed(a, self.members[b])).collect()).collect();
        matching::perfect(&adjacent)
    }

    /// Pairs `a` with `b` if they may meet and the rest can still be paired.
    fn try_pair(&mut self, a: usize, b: usize) -> bool {
        if !self.unpaired[b] || !self.allowed(a, b) {
            return false;
        }
        self.remove(a);
        self.remove(b);
        if self.feasible() {
            return true;
        }
        self.include(a);
        self.include(b);
        false
    }

    /// Pairs the ranked players score group by score group, the leftovers of each group
    /// floating down into the next.
    fn pair_groups(&mut self, ranked: &[usize]) -> Vec<(usize, usize)> {
        let mut couples = Vec::with_capacity(ranked.len() / 2);
        let mut carried: Vec<usize> = Vec::new();
        let mut start = 0;
        while start < ranked.len() || !carried.is_empty() {
            let score = ranked.get(start).map(|&seed| self.history.pasts[seed].score);
            let end = ranked[start..]
                .iter()
                .position(|&seed| Some(self.history.pasts[seed].score) != score)
                .map_or(ranked.len(), |offset| start + offset);
            let mut bracket: Vec<usize> = std::mem::take(&mut carried);
            bracket.extend(ranked[start..end].iter().copied().filter(|&seed| self.unpaired[seed]));
            start = end;
            let rest = &ranked[start..];
            carried = self.pair_bracket(&bracket, rest, &mut couples);
        }
        couples
    }

    /// Pairs one bracket (ranked): its top half against its bottom half, the bottom half's
    /// players who fit both colour preferences first; then a lower player of the top half;
    /// then (floating) the highest-ranked player below who fits. Returns the unpaired.
    fn pair_bracket(&mut self, bracket: &[usize], below: &[usize], couples: &mut Vec<(usize, usize)>) -> Vec<usize> {
        let half = bracket.len() / 2;
        let (top, bottom) = bracket.split_at(half);
        for (i, &a) in top.iter().enumerate() {
            if !self.unpaired[a] {
                continue;
            }
            let fits = |b: &&usize| colour::both_satisfied(self.preferences[a], self.preferences[**b]);
            let preferred: Vec<usize> = bottom.iter().filter(fits).copied().collect();
            let others: Vec<usize> = bottom.iter().filter(|b| !fits(b)).copied().collect();
            let candidates = preferred.into_iter().chain(others).chain(top[i + 1..].iter().rev().copied());
            let candidates: Vec<usize> = candidates.chain(below.iter().copied()).collect();
            if let Some(b) = candidates.into_iter().find(|&b| self.try_pair(a, b)) {
                couples.push((a, b));
            }
        }
        // A top-half player unpaired here (never: the rest was pairable) would float too.
        bracket.iter().copied().filter(|&seed| self.unpaired[seed]).collect()
    }
}

/// The couples as games, board 1 first, with colours by [`colour::allocate`].
fn allocate_colours(
    history: &History,
    ranked: &[usize],
    couples: Vec<(usize, usize)>,
    players: &[Player],
) -> Vec<Pairing> {
    let mut position = vec![usize::MAX; players.len()];
    for (rank, &seed) in ranked.iter().enumerate() {
        position[seed] = rank;
    }
    let mut boards: Vec<(usize, usize)> =
        couples.into_iter().map(|(a, b)| if position[a] < position[b] { (a, b) } else { (b, a) }).collect();
    boards.sort_by_key(|&(higher, _)| position[higher]);
    boards
        .into_iter()
        .enumerate()
        .map(|(board, (higher, lower))| {
            let (h, l) = (players[higher].id, players[lower].id);
            match colour::allocate(&history.pasts[higher], &history.pasts[lower], board % 2 == 0) {
                Colour::White => Pairing { white: h, black: l },
                Colour::Black => Pairing { white: l, black: h },
            }
        })
        .collect()
}
