//! The Swiss rules: named tests for each, and property tests over random tournaments that
//! check every paired round against brute force on small fields.

use std::collections::HashSet;

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;
use stonemate_tournament::{
    Bye, Colour, End, Entrant, Format, Game, GameRef, GameResult, Pairing, PairingError, Player, PlayerId, Step,
    Tournament, default_rounds, swiss,
};

use crate::common::{entrants, play_out};

fn player(id: u64) -> Player {
    Player { id: PlayerId(id), rating: None, division: 0, withdrawn: false }
}

fn game(round: u32, white: u64, black: u64, result: GameResult) -> Game {
    Game {
        round,
        division: 0,
        pairing: Pairing { white: PlayerId(white), black: PlayerId(black) },
        result: Some(result),
    }
}

const WHITE_WINS: GameResult = GameResult::Win { winner: Colour::White };
const BLACK_WINS: GameResult = GameResult::Win { winner: Colour::Black };

#[test]
fn round_one_pairs_top_half_against_bottom_half() {
    let swiss = Tournament::start(Format::Swiss { rounds: None }, &entrants(8)).unwrap();
    let pairs: Vec<(u64, u64)> = swiss.games().iter().map(|g| (g.pairing.white.0, g.pairing.black.0)).collect();
    // Board 1: seed 1 against seed 5, colours alternating by board.
    assert_eq!(pairs, [(1, 5), (6, 2), (3, 7), (8, 4)]);
}

#[test]
fn default_rounds_are_log2_plus_one() {
    assert_eq!([2, 3, 4, 5, 8, 9, 1000].map(default_rounds), [2, 3, 3, 4, 4, 5, 11]);
    assert_eq!(Tournament::start(Format::Swiss { rounds: None }, &entrants(9)).unwrap().rounds(), 5);
}

#[test]
fn bye_goes_to_lowest_ranked_without_one() {
    let players: Vec<Player> = (1..=5).map(player).collect();
    // Round 1: 5 had the bye; 1 beat 3, 2 beat 4. Round 2's bye: the lowest scorer without
    // one, 4 (3 and 4 have 0 points; 4 is seeded lower).
    let games = [game(1, 1, 3, WHITE_WINS), game(1, 4, 2, BLACK_WINS)];
    let byes = [Bye { round: 1, player: PlayerId(5) }];
    let round = swiss::pair(&players, &games, &byes, 2).unwrap();
    assert_eq!(round.bye, Some(PlayerId(4)));
}

#[test]
fn nobody_gets_a_second_bye_while_another_can_take_it() {
    let players: Vec<Player> = (1..=5).map(player).collect();
    // 5 and 4 had byes and rank lowest; 3, the lowest without one, gets this one.
    let games =
        [game(1, 1, 2, WHITE_WINS), game(1, 3, 4, WHITE_WINS), game(2, 5, 1, BLACK_WINS), game(2, 2, 3, WHITE_WINS)];
    let byes = [Bye { round: 1, player: PlayerId(5) }, Bye { round: 2, player: PlayerId(4) }];
    assert_eq!(swiss::pair(&players, &games, &byes, 3).unwrap().bye, Some(PlayerId(3)));
}

#[test]
fn odd_score_group_floats_its_lowest_down() {
    let players: Vec<Player> = (1..=6).map(player).collect();
    // 1, 2 and 3 won round 1: 1 meets 2 (their colours fit) and 3 floats down.
    let games = [game(1, 1, 4, WHITE_WINS), game(1, 5, 2, BLACK_WINS), game(1, 3, 6, WHITE_WINS)];
    let round = swiss::pair(&players, &games, &[], 2).unwrap();
    let pairs: HashSet<(u64, u64)> = round.pairings.iter().map(|p| key(p.white.0, p.black.0)).collect();
    assert_eq!(pairs, [(1, 2), (3, 5), (4, 6)].into());
}

#[test]
fn score_groups_pair_within_themselves() {
    let players: Vec<Player> = (1..=8).map(player).collect();
    let games =
        [game(1, 1, 5, WHITE_WINS), game(1, 6, 2, BLACK_WINS), game(1, 3, 7, WHITE_WINS), game(1, 8, 4, BLACK_WINS)];
    let round = swiss::pair(&players, &games, &[], 2).unwrap();
    let winners: HashSet<u64> = [1, 2, 3, 4].into();
    for pairing in &round.pairings {
        assert_eq!(winners.contains(&pairing.white.0), winners.contains(&pairing.black.0), "{pairing:?}");
    }
    // Top half against bottom half of the winners would be 1–3 and 2–4, but 1 and 3 both
    // had White and 2 and 4 Black: as in the Dutch system, colour preferences come before
    // the order of transpositions, so 1–4 and 2–3 give everyone his colour.
    let tops: Vec<(u64, u64)> = round.pairings.iter().map(|p| key(p.white.0, p.black.0)).collect();
    assert_eq!(&tops[..2], [(1, 4), (2, 3)]);
    assert!(round.pairings.iter().take(2).all(|p| [2, 4].contains(&p.white.0)));
}

#[test]
fn no_pair_meets_twice_even_when_the_natural_pairing_would() {
    let players: Vec<Player> = (1..=4).map(player).collect();
    // 1 and 2 met in round 1 and both won nothing else: round 2 cannot pair them again.
    let games = [game(1, 1, 2, GameResult::Draw), game(1, 3, 4, GameResult::Draw)];
    let round = swiss::pair(&players, &games, &[], 2).unwrap();
    for pairing in &round.pairings {
        let pair = [pairing.white.0.min(pairing.black.0), pairing.white.0.max(pairing.black.0)];
        assert!(pair != [1, 2] && pair != [3, 4], "{pairing:?} met already");
    }
}

#[test]
fn no_legal_pairing_is_said_not_repeated() {
    let players: Vec<Player> = (1..=2).map(player).collect();
    let games = [game(1, 1, 2, WHITE_WINS)];
    assert_eq!(swiss::pair(&players, &games, &[], 2), Err(PairingError::NoLegalPairing { round: 2 }));
    // The tournament then ends early.
    let mut swiss = Tournament::start(Format::Swiss { rounds: Some(3) }, &entrants(2)).unwrap();
    let step = swiss.record(GameRef(0), WHITE_WINS).unwrap();
    assert_eq!(step, Step::Ended(End::Stopped(PairingError::NoLegalPairing { round: 2 })));
}

#[test]
fn colour_goes_to_the_one_who_had_it_less() {
    let players: Vec<Player> = (1..=4).map(player).collect();
    // 1 (White in round 1) meets 4 (Black in round 1) after both won: 4 gets White.
    let games = [game(1, 1, 2, WHITE_WINS), game(1, 3, 4, BLACK_WINS)];
    let round = swiss::pair(&players, &games, &[], 2).unwrap();
    let top = round.pairings[0];
    assert_eq!((top.white, top.black), (PlayerId(4), PlayerId(1)));
}

#[test]
fn nobody_gets_a_colour_three_times_running_where_avoidable() {
    let players: Vec<Player> = (1..=6).map(player).collect();
    // 1, 2 and 6 had White twice, 3, 4 and 5 Black twice; each of the first three has one
    // of the others left to meet, so every game can be White-heavy against Black-heavy.
    let games = [
        game(1, 1, 4, WHITE_WINS),
        game(1, 2, 5, WHITE_WINS),
        game(1, 6, 3, WHITE_WINS),
        game(2, 1, 5, WHITE_WINS),
        game(2, 2, 3, WHITE_WINS),
        game(2, 6, 4, GameResult::Draw),
    ];
    let round = swiss::pair(&players, &games, &[], 3).unwrap();
    for pairing in &round.pairings {
        assert!([3, 4, 5].contains(&pairing.white.0), "{pairing:?}: a third White");
    }
}

#[test]
fn colour_rule_gives_way_to_no_repeats() {
    let players: Vec<Player> = (1..=4).map(player).collect();
    // Only 1–3 and 2–4 are left, and both pairs want the same colour: they are paired all
    // the same, since no repeat is the absolute rule.
    let games =
        [game(1, 1, 2, WHITE_WINS), game(1, 3, 4, WHITE_WINS), game(2, 1, 4, WHITE_WINS), game(2, 3, 2, WHITE_WINS)];
    let round = swiss::pair(&players, &games, &[], 3).unwrap();
    let pairs: HashSet<(u64, u64)> = round.pairings.iter().map(|p| key(p.white.0, p.black.0)).collect();
    assert_eq!(pairs, [(1, 3), (2, 4)].into());
}

#[test]
fn withdrawn_players_are_not_paired() {
    let mut players: Vec<Player> = (1..=5).map(player).collect();
    players[0].withdrawn = true;
    let round = swiss::pair(&players, &[], &[], 1).unwrap();
    assert_eq!(round.pairings.len(), 2);
    assert!(round.pairings.iter().all(|p| p.white != PlayerId(1) && p.black != PlayerId(1)));
    assert_eq!(round.bye, None);
}

#[test]
fn too_few_players_left_ends_the_swiss() {
    let mut swiss = Tournament::start(Format::Swiss { rounds: Some(3) }, &entrants(3)).unwrap();
    let withdrawal = swiss.withdraw(PlayerId(1)).unwrap();
    assert_eq!(withdrawal.forfeited.len(), 1);
    let step = swiss.withdraw(PlayerId(2)).unwrap().step;
    assert_eq!(step, Step::Ended(End::Stopped(PairingError::TooFewPlayers { round: 3, active: 1 })));
}

/// The plain facts of a field at some round, as the checks read them.
struct Field {
    active: Vec<u64>,
    met: HashSet<(u64, u64)>,
    had_bye: HashSet<u64>,
    /// Players who must have White (or Black) under the absolute colour rule.
    must: Vec<(u64, Colour)>,
}

fn key(a: u64, b: u64) -> (u64, u64) {
    (a.min(b), a.max(b))
}

/// The field as it stood before `round` was paired.
fn field_before(tournament: &Tournament, round: u32) -> Field {
    let before: Vec<&Game> = tournament.games().iter().filter(|g| g.round < round).collect();
    let met = before.iter().map(|g| key(g.pairing.white.0, g.pairing.black.0)).collect();
    let had_bye = tournament.byes().iter().filter(|b| b.round < round).map(|b| b.player.0).collect();
    // Called right after the step, so who is in now is who was in at the pairing.
    let active: Vec<u64> = tournament.players().iter().filter(|p| !p.withdrawn).map(|p| p.id.0).collect();
    let must = active
        .iter()
        .filter_map(|&id| {
            let colours: Vec<Colour> = before
                .iter()
                .filter(|g| g.result.is_some_and(|r| r.played()))
                .filter_map(|g| g.pairing.colour_of(PlayerId(id)))
                .collect();
            let difference: i32 = colours.iter().map(|&c| if c == Colour::White { 1 } else { -1 }).sum();
            let last_two = colours.len() >= 2 && colours[colours.len() - 1] == colours[colours.len() - 2];
            match () {
                _ if difference >= 2 => Some((id, Colour::Black)),
                _ if difference <= -2 => Some((id, Colour::White)),
                _ if last_two => Some((id, colours[colours.len() - 1].other())),
                _ => None,
            }
        })
        .collect();
    Field { active, met, had_bye, must }
}

/// Whether `players` can all be paired with no pair in `met` and none `clash`ing: every
/// partner of the first tried, over subsets remembered (a field of 16 has 65,536).
fn pairable(players: &[u64], met: &HashSet<(u64, u64)>, clash: &dyn Fn(u64, u64) -> bool) -> bool {
    let count = players.len();
    let allowed: Vec<Vec<bool>> = players
        .iter()
        .map(|&a| players.iter().map(|&b| a != b && !met.contains(&key(a, b)) && !clash(a, b)).collect())
        .collect();
    let mut memo: Vec<Option<bool>> = vec![None; 1 << count];
    fn solve(mask: usize, allowed: &[Vec<bool>], memo: &mut [Option<bool>]) -> bool {
        if mask == 0 {
            return true;
        }
        if let Some(known) = memo[mask] {
            return known;
        }
        let first = mask.trailing_zeros() as usize;
        let rest = mask & !(1 << first);
        let found = (0..allowed.len())
            .filter(|&other| rest & (1 << other) != 0 && allowed[first][other])
            .any(|other| solve(rest & !(1 << other), allowed, memo));
        memo[mask] = Some(found);
        found
    }
    solve((1 << count) - 1, &allowed, &mut memo)
}

/// Whether a pairing exists with the bye (odd count) among `candidates`.
fn legal_exists(field: &Field, fresh_only: bool, clash: &dyn Fn(u64, u64) -> bool) -> bool {
    if field.active.len() % 2 == 0 {
        return pairable(&field.active, &field.met, clash);
    }
    field.active.iter().filter(|id| !fresh_only || !field.had_bye.contains(id)).any(|&bye| {
        let rest: Vec<u64> = field.active.iter().copied().filter(|&p| p != bye).collect();
        pairable(&rest, &field.met, clash)
    })
}

/// Checks one paired round (or the early end) against the rules, by brute force when the
/// field is small.
fn check_round(tournament: &Tournament, round: u32, stopped: Option<PairingError>) {
    let field = field_before(tournament, round);
    let small = field.active.len() <= 16;
    let none = |_: u64, _: u64| false;
    if let Some(error) = stopped {
        if let PairingError::NoLegalPairing { .. } = error {
            if small {
                assert!(!legal_exists(&field, false, &none), "round {round}: a legal pairing existed");
            }
        }
        return;
    }
    let games: Vec<&Game> = tournament.games().iter().filter(|g| g.round == round).collect();
    let bye: Vec<u64> = tournament.byes().iter().filter(|b| b.round == round).map(|b| b.player.0).collect();
    let mut seen: Vec<u64> =
        games.iter().flat_map(|g| [g.pairing.white.0, g.pairing.black.0]).chain(bye.clone()).collect();
    seen.sort();
    let mut active = field.active.clone();
    active.sort();
    assert_eq!(seen, active, "round {round}: every active player paired or given the bye, once");
    assert!(bye.len() == field.active.len() % 2, "round {round}: a bye exactly when the count is odd");
    for g in &games {
        assert!(!field.met.contains(&key(g.pairing.white.0, g.pairing.black.0)), "round {round}: {g:?} repeats");
    }
    if let Some(&bye) = bye.first() {
        if field.had_bye.contains(&bye) && small {
            assert!(!legal_exists(&field, true, &none), "round {round}: a second bye while a first was possible");
        }
    }
    let must = |id: u64| field.must.iter().find(|(p, _)| *p == id).map(|&(_, c)| c);
    let broken = games
        .iter()
        .any(|g| must(g.pairing.white.0) == Some(Colour::Black) || must(g.pairing.black.0) == Some(Colour::White));
    if broken && small {
        let clash = |a: u64, b: u64| must(a).is_some() && must(a) == must(b);
        let fresh = bye.first().is_none_or(|b| !field.had_bye.contains(b));
        assert!(!legal_exists(&field, fresh, &clash), "round {round}: an avoidable colour break");
    }
}

/// Plays a random Swiss and checks each round.
fn check_random_swiss(seed: u64, players: usize, rounds: u32, withdrawals: f64, rated: bool) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut field = entrants(players);
    if !rated {
        field.iter_mut().step_by(3).for_each(|e: &mut Entrant| e.rating = None);
    }
    let mut swiss = Tournament::start(Format::Swiss { rounds: Some(rounds) }, &field).unwrap();
    check_round(&swiss, 1, None);
    play_out(&mut swiss, &mut rng, withdrawals, |tournament, step| match step {
        Step::Paired { round, .. } => check_round(tournament, *round, None),
        Step::Ended(End::Stopped(error)) => check_round(tournament, tournament.round() + 1, Some(*error)),
        _ => {}
    });
    let pairs: Vec<(u64, u64)> = swiss.games().iter().map(|g| key(g.pairing.white.0, g.pairing.black.0)).collect();
    assert_eq!(pairs.iter().collect::<HashSet<_>>().len(), pairs.len(), "no pair met twice");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Small fields, many rounds (up to past exhaustion): every round checked by brute force.
    #[test]
    fn small_swiss_rounds_follow_the_rules(
        seed in any::<u64>(), players in 2usize..=13, extra in 0u32..=6, withdrawals in 0.0f64..0.08, rated in any::<bool>()
    ) {
        check_random_swiss(seed, players, (players as u32 / 2 + extra).max(1), withdrawals, rated);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Larger fields, the default number of rounds (brute force up to 16 players still in).
    #[test]
    fn larger_swiss_rounds_follow_the_rules(
        seed in any::<u64>(), players in 12usize..=80, withdrawals in 0.0f64..0.02
    ) {
        check_random_swiss(seed, players, default_rounds(players), withdrawals, true);
    }
}
