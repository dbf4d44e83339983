//! Go with chess pieces: playing a turn, listing legal turns, and replaying a long record
//! on the largest board. (The dead-piece estimate of the counting phase is the ai's:
//! `ai/benches/estimate.rs`.)

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

criterion_group!(benches, bench);
criterion_main!(benches);
