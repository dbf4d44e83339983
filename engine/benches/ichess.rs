//! iChess move generation: perft from a busy middle-game position (pieces and pawns in
//! both hands, many captures and checks about). Compare with Fairy-Stockfish's own
//! `go perft 3` on the same position: `engine/tests/oracles/fsf_perft.py --bench`.

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use stonemate_engine::Game;
use stonemate_engine::ichess::{IChess, IChessOptions};

/// The middle-game position of the benchmark (also in `tests/data/ichess-perft.txt`).
const MIDDLE_GAME: &str = "r1bqk2r/6b1/p2p1npp/1pp1p3/2P1P3/PP1P1NPP/6B1/R1BQK2R[NPnp] w";

fn perft(c: &mut Criterion) {
    let game = IChess::from_fen(MIDDLE_GAME).expect("the benchmark position is valid");
    let mut group = c.benchmark_group("ichess");
    group.sample_size(20);
    group.bench_function("perft 3 middle game", |b| b.iter(|| black_box(&game).perft(3)));
    group.bench_function("perft 2 middle game", |b| b.iter(|| black_box(&game).perft(2)));
    group.bench_function("legal turns middle game", |b| b.iter(|| black_box(&game).legal_turns()));
    let start = IChess::new(IChessOptions::default());
    group.bench_function("perft 3 start (deployment)", |b| b.iter(|| black_box(&start).perft(3)));
    group.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
