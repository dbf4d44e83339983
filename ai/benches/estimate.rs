//! The dead-piece estimate of go's counting phase (rule 10), by the rules' random games
//! (`Playouts::Rules`, 32 of them to the end on the engine's board): from a 19x19 board
//! some 200 turns in (timed five times and printed: each takes seconds), beside the same on
//! 9x9 (45 turns in) and one listing of the 19x19 position's legal turns, in the same run.
//! The positions are random legal drops from the empty board (seed 7), then two passes to
//! open counting. `ai/examples/estimate_speed.rs` sets the service's estimate beside it.

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use stonemate_ai::counting::{Playouts, estimate_dead_with};
use stonemate_engine::{AnyGame, Game, GameKind, Turn};

/// A busy position in counting: `turns` random legal drops from the empty board, then two
/// passes.
fn busy(board: &str, turns: usize) -> AnyGame {
    let mut rng = StdRng::seed_from_u64(7);
    let options = [("board", board), ("counting", "on")].map(|(k, v)| (k.to_owned(), v.to_owned()));
    let AnyGame::Go(mut go) = AnyGame::new(GameKind::Go, &options).unwrap() else { unreachable!("go") };
    for _ in 0..turns {
        let legal: Vec<Turn> = go.legal_turns().into_iter().filter(|&t| t != Turn::Pass).collect();
        let Some(&turn) = legal.choose(&mut rng) else { break };
        go.play(turn).unwrap();
    }
    go.play(Turn::Pass).unwrap();
    go.play(Turn::Pass).unwrap();
    assert!(go.is_counting());
    AnyGame::Go(go)
}

fn estimate(c: &mut Criterion) {
    let large = busy("19x19", 200);
    let small = busy("9x9", 45);
    let mut times: Vec<std::time::Duration> = (0..5)
        .map(|_| {
            let start = std::time::Instant::now();
            std::hint::black_box(estimate_dead_with(&large, Playouts::Rules));
            start.elapsed()
        })
        .collect();
    times.sort();
    eprintln!("go/estimate_dead/19x19: median {:.2?}, max {:.2?} (5 runs)", times[2], times[4]);
    let mut group = c.benchmark_group("go/estimate_dead");
    group.sample_size(10);
    group.bench_function("9x9", |b| b.iter(|| estimate_dead_with(&small, Playouts::Rules)));
    group.bench_function("reference: legal turns 19x19", |b| b.iter(|| large.legal_turns().len()));
    group.finish();
}

criterion_group!(benches, estimate);
criterion_main!(benches);
