//! Criterion benchmarks of Gess move listing: every legal move of a busy middle-game
//! position (and of the start), each checked against ruling S1.

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use stonemate_engine::Game;
use stonemate_engine::gess::{Gess, GessOptions};
use stonemate_engine::notation::record_tokens;

/// A busy middle game: the example record after twelve moves a side (79 stones on the
/// board, 324 legal moves for Black).
fn middle_game() -> Gess {
    let record = record_tokens(include_str!("../../examples/gess.txt"));
    let mut game = Gess::new(GessOptions::default());
    for text in &record[..24] {
        game.play_text(text).expect("the example record replays");
    }
    game
}

fn listing(c: &mut Criterion) {
    let middle = middle_game();
    let stones = middle.view().rows().concat().chars().filter(|c| c.eq_ignore_ascii_case(&'s')).count();
    eprintln!("middle game: {stones} stones, {} legal moves", middle.legal_turns().len());
    c.bench_function("gess legal_turns middle game", |b| b.iter(|| black_box(&middle).legal_turns()));
    c.bench_function("gess legal_move_count middle game", |b| b.iter(|| black_box(&middle).legal_move_count()));
    let start = Gess::new(GessOptions::default());
    c.bench_function("gess legal_turns start", |b| b.iter(|| black_box(&start).legal_turns()));
    let turn = middle.legal_turns()[0];
    c.bench_function("gess play one move", |b| b.iter(|| black_box(&middle).clone().play(turn)));
}

criterion_group!(benches, listing);
criterion_main!(benches);
