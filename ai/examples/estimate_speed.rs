//! How long the dead-piece estimate of go's counting phase (rule 10) takes, by the rules
//! (`Playouts::Rules`, 32 random games on the engine's board) beside the service's
//! ([`stonemate_ai::counting::estimate_dead`], heavy playouts on the playout board), in one
//! run, on the bench's positions (`ai/benches/estimate.rs`: random legal drops from the
//! empty board, seed 7): 19x19 200 turns in and 9x9 45 turns in, rooks.
//!
//!     cargo run --release -p stonemate-ai --example estimate_speed -- [RUNS]
//!
//! Prints the median and the largest of RUNS (default 5) wall times of each. Both are asked
//! of the position with two passes added, as counting opens.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use stonemate_ai::counting::{self, Playouts};
use stonemate_engine::{AnyGame, Game, GameKind, Turn};

/// The bench's busy position (`turns` random legal drops), then two passes.
fn busy(board: &str, turns: usize) -> AnyGame {
    let mut rng = StdRng::seed_from_u64(7);
    let options = [("board", board), ("counting", "on")].map(|(k, v)| (k.to_owned(), v.to_owned()));
    let AnyGame::Go(mut go) = AnyGame::new(GameKind::Go, &options).expect("options") else { unreachable!("go") };
    for _ in 0..turns {
        let legal: Vec<Turn> = go.legal_turns().into_iter().filter(|&t| t != Turn::Pass).collect();
        let Some(&turn) = legal.choose(&mut rng) else { break };
        go.play(turn).expect("legal");
    }
    go.play(Turn::Pass).expect("a pass");
    go.play(Turn::Pass).expect("a pass");
    assert!(go.is_counting());
    AnyGame::Go(go)
}

/// The median and largest of `runs` timings of `work`.
fn timed(runs: usize, mut work: impl FnMut()) -> (Duration, Duration) {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            work();
            start.elapsed()
        })
        .collect();
    times.sort();
    (times[runs / 2], times[runs - 1])
}

fn main() {
    let runs: usize = std::env::args().nth(1).map_or(5, |text| text.parse().expect("RUNS"));
    for (board, turns) in [("19x19", 200), ("9x9", 45)] {
        let game = busy(board, turns);
        let (rules, rules_max) = timed(runs, || {
            std::hint::black_box(counting::estimate_dead_with(&game, Playouts::Rules));
        });
        let (service, service_max) = timed(runs, || {
            std::hint::black_box(counting::estimate_dead(&game));
        });
        let same = counting::estimate_dead_with(&game, Playouts::Rules) == counting::estimate_dead(&game);
        println!(
            "{board} {turns} turns in: rules {rules:.2?} (max {rules_max:.2?}), service {service:.2?} \
             (max {service_max:.2?}), {:.0}x; same pieces: {same}",
            rules.as_secs_f64() / service.as_secs_f64()
        );
    }
}
