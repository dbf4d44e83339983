//! Chego speed: listing legal turns (every drop judged against conditions a-e), playing a
//! drop, and replaying the example record.

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use stonemate_engine::chego::{Chego, ChegoOptions};
use stonemate_engine::notation::record_tokens;
use stonemate_engine::options::parse_option_text;
use stonemate_engine::{AnyGame, Game, GameKind, GameOptions, Turn};

const EXAMPLE: &str = include_str!("../../examples/chego.txt");

fn game(option_text: &str, turns: &[String]) -> Chego {
    let pairs = parse_option_text(option_text).expect("option text");
    let mut game = Chego::new(ChegoOptions::from_pairs(&pairs).expect("options"));
    for text in turns {
        game.play_text(text).expect("legal");
    }
    game
}

/// A 16x16 game with unlimited pieces after `turns` drops, each the middle legal drop.
fn crowded(turns: usize) -> Chego {
    let mut game = game("board=16x16 \"set=unlimited KQRBNP\"", &[]);
    for _ in 0..turns {
        let drops: Vec<Turn> = game.legal_turns().into_iter().filter(|t| *t != Turn::Pass).collect();
        let Some(&turn) = drops.get(drops.len() / 2) else { break };
        game.play(turn).expect("listed");
    }
    game
}

fn bench(c: &mut Criterion) {
    let tokens = record_tokens(EXAMPLE);
    let empty = game("", &[]);
    let middle = game("", &tokens[..12]);
    let big = crowded(60);
    c.bench_function("chego legal_turns 8x8 empty", |b| b.iter(|| black_box(&empty).legal_turns()));
    c.bench_function("chego legal_turns 8x8 after 12 turns", |b| b.iter(|| black_box(&middle).legal_turns()));
    c.bench_function("chego legal_turns 16x16 unlimited after 60 drops", |b| b.iter(|| black_box(&big).legal_turns()));
    c.bench_function("chego play one drop 16x16", |b| {
        let turn = big.legal_turns()[0];
        b.iter(|| black_box(big.clone()).play(turn))
    });
    c.bench_function("chego replay example record", |b| {
        b.iter(|| AnyGame::replay(GameKind::Chego, &[], black_box(&tokens)).expect("valid"))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
