//! Chogo speed: listing legal turns (what every reply's "legal" and the stalemate check
//! cost) and playing whole random games.

use criterion::{Criterion, black_box, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use stonemate_engine::chogo::{Chogo, ChogoOptions};
use stonemate_engine::{Color, Game};

fn crowded() -> Chogo {
    let rows = ["--ssss--", "-ss..ss-", "..s..s..", "..SSk...", "..SS.K..", "-S....S-", "--S..S--"];
    Chogo::from_setup(&rows, Color::White).expect("a valid position")
}

fn random_game(seed: u64) -> u32 {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Chogo::new(ChogoOptions::default());
    let mut turns = 0;
    while let Some(&turn) = game.legal_turns().choose(&mut rng) {
        game.play(turn).expect("a listed turn plays");
        turns += 1;
    }
    turns
}

fn benches(c: &mut Criterion) {
    let mut start = Chogo::new(ChogoOptions::default());
    for text in ["K@d2", "K@e6"] {
        start.play_text(text).expect("legal");
    }
    c.bench_function("chogo legal_turns after the king drops", |b| b.iter(|| black_box(&start).legal_turns()));
    let crowded = crowded();
    c.bench_function("chogo legal_turns crowded", |b| b.iter(|| black_box(&crowded).legal_turns()));
    let turn = crowded.legal_turns()[0];
    c.bench_function("chogo play one turn", |b| b.iter(|| black_box(crowded.clone()).play(turn)));
    let mut seed = 0;
    c.bench_function("chogo random game to the end", |b| {
        b.iter(|| {
            seed += 1;
            random_game(seed)
        })
    });
}

criterion_group!(chogo, benches);
criterion_main!(chogo);
