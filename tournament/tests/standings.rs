//! Scores and tiebreaks: named tests of each rule, and a property test against a second,
//! plain computation over random tournaments.

use std::collections::HashMap;

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;
use stonemate_tournament::{
    Bye, Colour, Format, Game, GameResult, Pairing, Player, PlayerId, Points, Row, Tiebreak, Tournament, standings,
};

use crate::common::{entrants, play_out};

fn player(id: u64) -> Player {
    Player { id: PlayerId(id), rating: None, division: 0, withdrawn: false }
}

fn game(white: u64, black: u64, result: GameResult) -> Game {
    Game {
        round: 1,
        division: 0,
        pairing: Pairing { white: PlayerId(white), black: PlayerId(black) },
        result: Some(result),
    }
}

const WHITE_WINS: GameResult = GameResult::Win { winner: Colour::White };
const SWISS: Format = Format::Swiss { rounds: None };
const ROUND_ROBIN: Format = Format::RoundRobin { division: 10, double: false };

fn row(rows: &[Row], id: u64) -> &Row {
    rows.iter().find(|row| row.player == PlayerId(id)).unwrap()
}

fn q(quarters: u32) -> Points {
    Points::from_quarters(quarters)
}

#[test]
fn points_print_as_few_decimals_as_needed() {
    assert_eq!([q(8), q(10), q(25), q(3)].map(|p| p.to_string()), ["2", "2.5", "6.25", "0.75"]);
}

#[test]
fn sonneborn_berger_counts_beaten_opponents_and_half_the_drawn() {
    let players: Vec<Player> = (1..=3).map(player).collect();
    // 1 beats 2 and draws 3; 2 beats 3. Scores: 1: 1.5, 2: 1, 3: 0.5.
    let games = [game(1, 2, WHITE_WINS), game(3, 1, GameResult::Draw), game(2, 3, WHITE_WINS)];
    let table = standings(&ROUND_ROBIN, &players, &games, &[]);
    assert_eq!(table.tiebreaks, [Tiebreak::SonnebornBerger]);
    let rows = &table.divisions[0];
    assert_eq!(row(rows, 1).tiebreaks, [q(4 + 1)], "2's 1 point plus half of 3's 0.5");
    assert_eq!(row(rows, 2).tiebreaks, [q(2)]);
    assert_eq!(row(rows, 3).tiebreaks, [q(3)], "half of 1's 1.5");
}

#[test]
fn buchholz_sums_the_opponents_scores() {
    let players: Vec<Player> = (1..=4).map(player).collect();
    let games = [game(1, 2, WHITE_WINS), game(3, 4, GameResult::Draw), game(1, 3, WHITE_WINS)];
    let rows = &standings(&SWISS, &players, &games, &[]).divisions[0];
    // 1 met 2 (0) and 3 (0.5); 3 met 4 (0.5) and 1 (2).
    assert_eq!(row(rows, 1).tiebreaks[0], q(2));
    assert_eq!(row(rows, 3).tiebreaks[0], q(10));
}

#[test]
fn byes_and_forfeits_count_in_no_tiebreak() {
    let players: Vec<Player> = (1..=3).map(player).collect();
    let forfeit = GameResult::Forfeit { winner: Colour::White };
    let games = [game(1, 2, forfeit), game(2, 3, WHITE_WINS)];
    let byes = [Bye { round: 2, player: PlayerId(1) }];
    let rows = &standings(&SWISS, &players, &games, &byes).divisions[0];
    let first = row(rows, 1);
    assert_eq!(first.points, q(8), "the forfeit and the bye give their points");
    assert_eq!(first.tiebreaks, [Points::ZERO, Points::ZERO], "but no tiebreak");
    assert_eq!(first.games, 1, "a bye is not a game");
    // 2's forfeit loss adds nothing either; his win over 3 counts.
    assert_eq!(row(rows, 2).tiebreaks, [Points::ZERO, Points::ZERO]);
    assert_eq!(row(rows, 3).tiebreaks, [q(4), Points::ZERO], "3 met 2 (1 point) over the board");
}

#[test]
fn time_out_counts_as_a_loss() {
    let players: Vec<Player> = (1..=2).map(player).collect();
    let games = [game(1, 2, GameResult::TimeOut { winner: Colour::Black })];
    let rows = &standings(&ROUND_ROBIN, &players, &games, &[]).divisions[0];
    assert_eq!((rows[0].player, rows[0].points), (PlayerId(2), q(4)));
    assert_eq!(rows[1].points, Points::ZERO);
    assert_eq!(rows[0].tiebreaks, [Points::ZERO], "the loser has no points to give");
}

#[test]
fn direct_encounter_breaks_the_last_tie() {
    // 2 beat 1, 1 beat 3, 4 beat 2, the rest drawn: 1 and 2 have 1.5 points and SB 2.
    let players: Vec<Player> = (1..=4).map(player).collect();
    let games = [
        game(2, 1, WHITE_WINS),
        game(1, 3, WHITE_WINS),
        game(1, 4, GameResult::Draw),
        game(2, 3, GameResult::Draw),
        game(4, 2, WHITE_WINS),
        game(3, 4, GameResult::Draw),
    ];
    let rows = &standings(&ROUND_ROBIN, &players, &games, &[]).divisions[0];
    let (one, two) = (row(rows, 1), row(rows, 2));
    assert_eq!(one.points, two.points);
    assert_eq!(one.tiebreaks, two.tiebreaks);
    assert_eq!((one.direct, two.direct), (Some(Points::ZERO), Some(q(4))));
    assert!(two.rank < one.rank, "{rows:?}");
}

#[test]
fn fully_tied_players_share_the_rank() {
    let players: Vec<Player> = (1..=4).map(player).collect();
    let games = [game(1, 2, GameResult::Draw), game(3, 4, GameResult::Draw)];
    let rows = &standings(&ROUND_ROBIN, &players, &games, &[]).divisions[0];
    assert!(rows.iter().all(|row| row.rank == 1), "{rows:?}");
    // Seed order among the tied.
    assert_eq!(rows.iter().map(|r| r.player.0).collect::<Vec<_>>(), [1, 2, 3, 4]);
}

#[test]
fn standings_are_per_division() {
    let tournament = Tournament::start(Format::RoundRobin { division: 3, double: false }, &entrants(6)).unwrap();
    let table = tournament.standings();
    assert_eq!(table.divisions.len(), 2);
    assert_eq!(table.divisions[1].iter().map(|r| r.player.0).collect::<Vec<_>>(), [4, 5, 6]);
}

/// One player's figures computed plainly, in quarter points.
struct Plain {
    points: u32,
    tiebreaks: Vec<u32>,
    /// The opponents he met over the board, with his score against each.
    met: Vec<(PlayerId, u32)>,
}

/// The standings computed again, plainly, for every player of `tournament`.
fn plain(tournament: &Tournament) -> HashMap<PlayerId, Plain> {
    let mut points: HashMap<PlayerId, u32> = tournament.players().iter().map(|p| (p.id, 0)).collect();
    let mut met: HashMap<PlayerId, Vec<(PlayerId, u32)>> = HashMap::new();
    for g in tournament.games() {
        let Some(result) = g.result else { continue };
        let white = match result.winner() {
            None => 2,
            Some(Colour::White) => 4,
            Some(Colour::Black) => 0,
        };
        *points.get_mut(&g.pairing.white).unwrap() += white;
        *points.get_mut(&g.pairing.black).unwrap() += 4 - white;
        if !matches!(result, GameResult::Forfeit { .. }) {
            met.entry(g.pairing.white).or_default().push((g.pairing.black, white));
            met.entry(g.pairing.black).or_default().push((g.pairing.white, 4 - white));
        }
    }
    for bye in tournament.byes() {
        *points.get_mut(&bye.player).unwrap() += 4;
    }
    let swiss = matches!(tournament.format(), Format::Swiss { .. });
    points
        .iter()
        .map(|(&id, &own)| {
            let games = met.remove(&id).unwrap_or_default();
            let buchholz: u32 = games.iter().map(|(o, _)| points[o]).sum();
            let sb: u32 = games.iter().map(|&(o, s)| points[&o] * s / 4).sum();
            let tiebreaks = if swiss { vec![buchholz, sb] } else { vec![sb] };
            (id, Plain { points: own, tiebreaks, met: games })
        })
        .collect()
}

fn check_standings(tournament: &Tournament) -> Result<(), TestCaseError> {
    let table = tournament.standings();
    let plain = plain(tournament);
    for rows in &table.divisions {
        for row in rows {
            let expected = &plain[&row.player];
            prop_assert_eq!(row.points.quarters(), expected.points);
            prop_assert_eq!(row.tiebreaks.iter().map(|t| t.quarters()).collect::<Vec<_>>(), expected.tiebreaks.clone());
            let key = |r: &Row| (r.points, r.tiebreaks.clone());
            let tied: Vec<PlayerId> = rows.iter().filter(|r| key(r) == key(row)).map(|r| r.player).collect();
            let direct: u32 = expected.met.iter().filter(|(o, _)| tied.contains(o)).map(|&(_, s)| s).sum();
            prop_assert_eq!(row.direct.map(Points::quarters), (tied.len() > 1).then_some(direct));
        }
        let full = |r: &Row| (r.points, r.tiebreaks.clone(), r.direct);
        for pair in rows.windows(2) {
            prop_assert!(full(&pair[0]) >= full(&pair[1]), "ordered: {:?}", pair);
        }
        for row in rows {
            let ahead = rows.iter().filter(|r| full(r) > full(row)).count() as u32;
            prop_assert_eq!(row.rank, ahead + 1);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Standings during and after random tournaments of both formats equal the plain
    /// computation, ordered and ranked by points, tiebreaks and direct encounter.
    #[test]
    fn tiebreaks_equal_a_plain_computation(
        seed in any::<u64>(), players in 2usize..=24, swiss in any::<bool>(), withdrawals in 0.0f64..0.05
    ) {
        let mut rng = StdRng::seed_from_u64(seed);
        let format = if swiss { Format::Swiss { rounds: None } } else { Format::RoundRobin { division: 6, double: seed % 2 == 0 } };
        let mut tournament = Tournament::start(format, &entrants(players)).unwrap();
        let mut checks = Vec::new();
        play_out(&mut tournament, &mut rng, withdrawals, |t, _| {
            if sampled(t) {
                checks.push(t.clone());
            }
        });
        for snapshot in checks.iter().chain([&tournament]) {
            check_standings(snapshot)?;
        }
    }
}

/// Which intermediate states to check too: every fifth game recorded.
fn sampled(tournament: &Tournament) -> bool {
    tournament.games().iter().filter(|g| g.result.is_some()).count() % 5 == 0
}
