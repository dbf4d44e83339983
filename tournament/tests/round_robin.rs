//! Round robin: divisions and the Berger schedule, named tests and properties.

use std::collections::HashMap;

use proptest::prelude::*;
use stonemate_tournament::round_robin::{deal, division_sizes, schedule};
use stonemate_tournament::{Entrant, Format, PlayerId, StartError, Tournament};

use crate::common::entrants;

fn ids(n: u64) -> Vec<PlayerId> {
    (1..=n).map(PlayerId).collect()
}

#[test]
fn divisions_differ_by_at_most_one_strongest_first() {
    assert_eq!(division_sizes(23, 10), [8, 8, 7]);
    assert_eq!(division_sizes(10, 10), [10]);
    assert_eq!(division_sizes(11, 10), [6, 5]);
    let dealt = deal(&ids(7), 3);
    assert_eq!(dealt, [ids(3), vec![PlayerId(4), PlayerId(5)], vec![PlayerId(6), PlayerId(7)]]);
}

#[test]
fn unrated_players_seed_by_joining_order_after_the_rated() {
    let field = [
        Entrant { id: PlayerId(10), rating: None },
        Entrant { id: PlayerId(11), rating: Some(1400) },
        Entrant { id: PlayerId(12), rating: None },
        Entrant { id: PlayerId(13), rating: Some(1700) },
    ];
    let tournament = Tournament::start(Format::RoundRobin { division: 3, double: false }, &field).unwrap();
    let order: Vec<(u64, u32)> = tournament.players().iter().map(|p| (p.id.0, p.division)).collect();
    assert_eq!(order, [(13, 0), (11, 0), (10, 1), (12, 1)]);
}

#[test]
fn a_division_needs_three_seats_and_a_tournament_two_players() {
    let start = |division, n| Tournament::start(Format::RoundRobin { division, double: false }, &entrants(n));
    assert_eq!(start(2, 4).unwrap_err(), StartError::DivisionTooSmall { division: 2 });
    assert_eq!(start(10, 1).unwrap_err(), StartError::TooFewPlayers { players: 1, needed: 2 });
    let twice = [Entrant { id: PlayerId(1), rating: None }, Entrant { id: PlayerId(1), rating: None }];
    assert_eq!(
        Tournament::start(Format::RoundRobin { division: 10, double: false }, &twice).unwrap_err(),
        StartError::DuplicatePlayer(PlayerId(1))
    );
}

#[test]
fn berger_schedule_of_four_balances_colours() {
    let games = schedule(&ids(4), false);
    assert_eq!(games.len(), 6);
    let whites = whites(&games.iter().map(|g| g.pairing).collect::<Vec<_>>());
    assert!(whites.values().all(|&w| w == 1 || w == 2), "{whites:?}");
    assert_eq!(games.iter().map(|g| g.round).max(), Some(3));
}

#[test]
fn double_round_robin_swaps_colours_in_the_second_cycle() {
    let games = schedule(&ids(5), true);
    assert_eq!(games.len(), 20);
    let (first, second) = games.split_at(10);
    for (a, b) in first.iter().zip(second) {
        assert_eq!((a.pairing.white, a.pairing.black), (b.pairing.black, b.pairing.white));
        assert_eq!(b.round, a.round + 5);
    }
}

#[test]
fn all_round_robin_games_start_at_once() {
    let tournament = Tournament::start(Format::RoundRobin { division: 10, double: false }, &entrants(7)).unwrap();
    assert_eq!(tournament.games().len(), 21);
    assert!(tournament.games().iter().all(|g| g.result.is_none()));
}

fn whites(pairings: &[stonemate_tournament::Pairing]) -> HashMap<PlayerId, usize> {
    let mut whites = HashMap::new();
    for pairing in pairings {
        *whites.entry(pairing.white).or_insert(0) += 1;
        whites.entry(pairing.black).or_insert(0);
    }
    whites
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Divisions of the right sizes in seeding order; every pair of a division meets once
    /// (twice with `double`, colours swapped), nobody meets outside his division, and
    /// colour counts are within one.
    #[test]
    fn round_robin_pairs_meet_once_with_balanced_colours(
        players in 2usize..=70, division in 3u32..=14, double in any::<bool>()
    ) {
        let tournament = Tournament::start(Format::RoundRobin { division, double }, &entrants(players)).unwrap();
        let mut by_division: Vec<Vec<PlayerId>> = Vec::new();
        for player in tournament.players() {
            if by_division.len() <= player.division as usize {
                by_division.push(Vec::new());
            }
            by_division[player.division as usize].push(player.id);
        }
        let sizes: Vec<usize> = by_division.iter().map(Vec::len).collect();
        prop_assert!(sizes.iter().all(|&s| s <= division as usize));
        prop_assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1);
        prop_assert_eq!(sizes.len(), players.div_ceil(division as usize));
        let seeded: Vec<PlayerId> = by_division.concat();
        prop_assert_eq!(seeded, ids(players as u64), "strongest first, in order");
        for (number, members) in by_division.iter().enumerate() {
            let games: Vec<_> = tournament.games().iter().filter(|g| g.division as usize == number).map(|g| g.pairing).collect();
            let mut meetings: HashMap<(PlayerId, PlayerId), usize> = HashMap::new();
            for pairing in &games {
                prop_assert!(members.contains(&pairing.white) && members.contains(&pairing.black));
                *meetings.entry((pairing.white, pairing.black)).or_insert(0) += 1;
            }
            let n = members.len();
            for &a in members {
                for &b in members.iter().filter(|&&b| b != a) {
                    let (ab, ba) = (meetings.get(&(a, b)).copied().unwrap_or(0), meetings.get(&(b, a)).copied().unwrap_or(0));
                    if double {
                        prop_assert_eq!((ab, ba), (1, 1), "{:?} and {:?} meet once with each colour", a, b);
                    } else {
                        prop_assert_eq!(ab + ba, 1, "{:?} and {:?} meet once", a, b);
                    }
                }
            }
            let whites = whites(&games);
            for &member in members {
                let w = whites[&member];
                if double {
                    prop_assert_eq!(w, n - 1);
                } else {
                    prop_assert!(w == (n - 1) / 2 || w == n / 2, "{:?} has {} Whites of {}", member, w, n - 1);
                }
            }
        }
    }
}
