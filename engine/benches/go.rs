//! Go with chess pieces: playing a turn, listing legal turns, and replaying a long record
//! on the largest board; the dead-piece estimate of the counting phase.

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use stonemate_engine::go::{Go, GoOptions};
use stonemate_engine::{Game, GameOptions, Turn};

fn options(text: &str) -> GoOptions {
    GoOptions::from_pairs(&stonemate_engine::options::parse_option_text(text).unwrap()).unwrap()
}

/// A busy position: `turns` random legal drops from the empty board.
fn busy(text: &str, turns: usize) -> (Go, Vec<String>) {
    let mut rng = StdRng::seed_from_u64(7);
    let mut game = Go::new(options(text));
    let mut record = Vec::new();
    for _ in 0..turns {
        let legal: Vec<Turn> = game.legal_turns().into_iter().filter(|&t| t != Turn::Pass).collect();
        let Some(&turn) = legal.choose(&mut rng) else { break };
        record.push(game.format_turn(turn));
        game.play(turn).unwrap();
    }
    (game, record)
}

fn bench(c: &mut Criterion) {
    let (game, record) = busy("board=25x25", 400);
    let turn = *game.legal_turns().iter().find(|&&t| t != Turn::Pass).unwrap();
    c.bench_function("go/play 25x25", |b| b.iter(|| game.clone().play(turn).unwrap()));
    c.bench_function("go/legal 25x25", |b| b.iter(|| game.legal_turns().len()));
    c.bench_function("go/replay 400 turns 25x25", |b| {
        b.iter(|| {
            let mut replayed = Go::new(options("board=25x25"));
            for text in &record {
                replayed.play_text(text).unwrap();
            }
        })
    });
    let (mixed, _) = busy("board=19x19 pieces=RNBQ", 150);
    c.bench_function("go/legal 19x19 RNBQ", |b| b.iter(|| mixed.legal_turns().len()));
    c.bench_function("go/score 19x19 RNBQ", |b| b.iter(|| mixed.score()));
}

/// The dead-piece estimate of the counting phase (rule 10): 32 random games to the end
/// from a 19x19 board some 200 turns in (timed five times and printed: each takes seconds),
/// beside the same on 9x9 (45 turns in) and one listing of the 19x19 position's legal
/// turns, in the same run.
fn estimate(c: &mut Criterion) {
    let (large, _) = busy("board=19x19", 200);
    let (small, _) = busy("board=9x9", 45);
    let mut times: Vec<std::time::Duration> = (0..5)
        .map(|_| {
            let start = std::time::Instant::now();
            std::hint::black_box(large.estimate_dead());
            start.elapsed()
        })
        .collect();
    times.sort();
    eprintln!("go/estimate_dead/19x19: median {:.2?}, max {:.2?} (5 runs)", times[2], times[4]);
    let mut group = c.benchmark_group("go/estimate_dead");
    group.sample_size(10);
    group.bench_function("9x9", |b| b.iter(|| small.estimate_dead()));
    group.bench_function("reference: legal turns 19x19", |b| b.iter(|| large.legal_turns().len()));
    group.finish();
}

criterion_group!(benches, bench, estimate);
criterion_main!(benches);
