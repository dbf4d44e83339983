//! Search speed in Chego, Gess and Chogo, the baseline (54cd0e7's search) and hard's
//! search side by side in one run, at two points of each example record; and the engine's
//! cost of one playout turn (the legal turns, then one of them played on a copy).
//!
//!     cargo run --release -p stonemate-ai --example game_speed -- [NODES] [GAMES]
//!
//! NODES per search (default 5000), GAMES a comma-separated list (default
//! chego,gess,chogo). Times are the CPU time of this thread (Linux's
//! /proc/thread-self/schedstat; wall time elsewhere), so a busy machine slows the numbers
//! less than it slows the clock.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use stonemate_ai::{Budget, Method, SearchConfig, search_with};
use stonemate_engine::notation::record_tokens;
use stonemate_engine::{AnyGame, GameKind};

/// CPU time this thread has run, or the wall clock where the kernel does not say.
fn cpu_time(wall: Instant) -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse().ok())
        .map_or_else(|| wall.elapsed(), Duration::from_nanos)
}

/// The CPU seconds `work` takes.
fn cpu_seconds(work: impl FnOnce()) -> f64 {
    let wall = Instant::now();
    let start = cpu_time(wall);
    work();
    (cpu_time(wall) - start).as_secs_f64()
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let nodes: u64 = args.first().map_or(Ok(5_000), |text| text.parse()).map_err(|e| format!("NODES: {e}"))?;
    let games = args.get(1).map_or("chego,gess,chogo", String::as_str);
    println!("| game | position | engine: playout turns/s | baseline nodes/s | hard's search nodes/s |");
    println!("|---|---|---|---|---|");
    for name in games.split(',') {
        let kind: GameKind = name.parse().map_err(|e: stonemate_engine::game::UnknownGame| e.to_string())?;
        let path = format!("{}/../examples/{name}.txt", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
        let tokens = record_tokens(&text);
        for turns in [tokens.len() / 4, tokens.len() / 2] {
            let replay = AnyGame::replay(kind, &[], &tokens[..turns]).map_err(|e| e.to_string())?;
            let game = replay.game;
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            let mut steps = 0u64;
            let seconds = cpu_seconds(|| {
                while steps < 2_000 {
                    let mut copy = game.clone();
                    for _ in 0..8 {
                        let legal = copy.legal_turns();
                        let Some(&turn) = legal.choose(&mut rng) else { break };
                        if copy.play(turn).is_err() || copy.to_move().is_none() {
                            break;
                        }
                        steps += 1;
                    }
                }
            });
            let step_rate = steps as f64 / seconds;
            let mut rates = Vec::new();
            for method in [Method::Baseline, Method::Strong] {
                let config = SearchConfig::new(Budget::nodes(nodes), 1);
                let mut made = 0;
                let seconds = cpu_seconds(|| made = search_with(&game, &config, method).map_or(0, |r| r.nodes));
                rates.push(made as f64 / seconds);
            }
            println!("| {kind} | after {turns} turns | {step_rate:.0} | {:.0} | {:.0} |", rates[0], rates[1]);
        }
    }
    Ok(())
}
