//! Tournaments at the sizes users reach (issue 39): pairing round 5 of a 1,000-player
//! Swiss with random results, dealing 1,000 players into round-robin divisions with their
//! schedules, and the standings of 1,000 players.

use criterion::{Criterion, criterion_group, criterion_main};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use stonemate_tournament::{Colour, Entrant, Format, GameRef, GameResult, PlayerId, Tournament, swiss};

const PLAYERS: usize = 1000;

fn entrants() -> Vec<Entrant> {
    (1..=PLAYERS as u64).map(|id| Entrant { id: PlayerId(id), rating: Some(2500 - id as i32) }).collect()
}

fn random_result(rng: &mut StdRng) -> GameResult {
    let winner = if rng.gen_bool(0.5) { Colour::White } else { Colour::Black };
    if rng.gen_bool(0.3) { GameResult::Draw } else { GameResult::Win { winner } }
}

/// Finishes every open game with a random result, `rounds` times over (each time the
/// tournament pairs the next round or ends).
fn play_rounds(tournament: &mut Tournament, rng: &mut StdRng, rounds: usize) {
    for _ in 0..rounds {
        let open: Vec<u32> = (0..tournament.games().len() as u32)
            .filter(|&index| tournament.games()[index as usize].result.is_none())
            .collect();
        for index in open {
            tournament.record(GameRef(index), random_result(rng)).unwrap();
        }
    }
}

fn bench(c: &mut Criterion) {
    let mut rng = StdRng::seed_from_u64(39);
    let mut group = c.benchmark_group("tournament");
    group.sample_size(10);

    // Four rounds played, a few players withdrawn: round 5 is due.
    let mut swiss = Tournament::start(Format::Swiss { rounds: Some(11) }, &entrants()).unwrap();
    play_rounds(&mut swiss, &mut rng, 3);
    for id in [17, 333, 901] {
        swiss.withdraw(PlayerId(id)).unwrap();
    }
    let open: Vec<u32> =
        (0..swiss.games().len() as u32).filter(|&i| swiss.games()[i as usize].result.is_none()).collect();
    let (last, rest) = open.split_last().unwrap();
    for &index in rest {
        swiss.record(GameRef(index), random_result(&mut rng)).unwrap();
    }
    let mut before_round_five = swiss.clone();
    before_round_five.record(GameRef(*last), GameResult::Draw).unwrap();
    assert_eq!(before_round_five.round(), 5);
    let round_four = swiss.round();
    group.bench_function("swiss/pair round 5 of 1000", |b| {
        b.iter(|| swiss::pair(swiss.players(), swiss.games(), swiss.byes(), round_four + 1).unwrap())
    });
    // Later rounds carry more history and more groups of equal scores.
    let mut late = before_round_five.clone();
    play_rounds(&mut late, &mut rng, 5);
    let round = late.round();
    let open = late.games().iter().filter(|g| g.result.is_none()).count();
    assert!(open > 0, "round {round} is being played");
    let finished: Vec<_> = late.games().iter().filter(|g| g.round < round).copied().collect();
    let byes: Vec<_> = late.byes().iter().filter(|b| b.round < round).copied().collect();
    group.bench_function("swiss/pair round 10 of 1000", |b| {
        b.iter(|| swiss::pair(late.players(), &finished, &byes, round).unwrap())
    });

    for division in [10, 30] {
        let format = Format::RoundRobin { division, double: false };
        group.bench_function(format!("round robin/deal 1000 into divisions of {division}"), |b| {
            b.iter(|| Tournament::start(format, &entrants()).unwrap())
        });
    }
    let double = Format::RoundRobin { division: 30, double: true };
    group.bench_function("round robin/deal 1000 into double divisions of 30", |b| {
        b.iter(|| Tournament::start(double, &entrants()).unwrap())
    });

    let mut finished_swiss = before_round_five;
    play_rounds(&mut finished_swiss, &mut rng, 12);
    assert!(finished_swiss.end().is_some());
    group.bench_function("standings/swiss of 1000 after 11 rounds", |b| b.iter(|| finished_swiss.standings()));
    let mut round_robin = Tournament::start(Format::RoundRobin { division: 10, double: false }, &entrants()).unwrap();
    play_rounds(&mut round_robin, &mut rng, 1);
    assert!(round_robin.end().is_some());
    group.bench_function("standings/round robin of 1000 in divisions of 10", |b| b.iter(|| round_robin.standings()));
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
