//! Go playout and search speed, the engine's board and the playout board side by side in
//! one run: light playouts (random drops that never fill an own eye, to the end of the
//! game) from the empty board and from a middle-game position, then whole searches.
//!
//!     cargo run --release -p stonemate-ai --example playout_speed -- [SECONDS] [BOARD] [NODES]
//!
//! SECONDS per measurement (default 5), BOARD such as 9x9 (default), NODES per search
//! (default 5000, hard's budget on 9x9; 0 skips the searches). Times are the CPU time of this thread (Linux's
//! /proc/thread-self/schedstat; wall time elsewhere), so a busy machine slows the numbers
//! less than it slows the clock. Komi 6.5, rooks.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use stonemate_ai::fastgo::FastGo;
use stonemate_ai::{Budget, Method, SearchConfig, knowledge, search_with};
use stonemate_engine::{AnyGame, GameKind};

/// CPU time this thread has run, or the wall clock where the kernel does not say.
fn cpu_time(wall: Instant) -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse().ok())
        .map_or_else(|| wall.elapsed(), Duration::from_nanos)
}

/// Calls `work` until `seconds` of CPU time have passed; returns calls per CPU second.
fn rate(seconds: f64, mut work: impl FnMut()) -> (u64, f64) {
    let wall = Instant::now();
    let start = cpu_time(wall);
    let mut count = 0;
    loop {
        work();
        count += 1;
        let used = (cpu_time(wall) - start).as_secs_f64();
        if used >= seconds {
            return (count, count as f64 / used);
        }
    }
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seconds: f64 = args.first().map_or(Ok(5.0), |s| s.parse()).map_err(|e| format!("SECONDS: {e}"))?;
    let board = args.get(1).cloned().unwrap_or_else(|| "9x9".into());
    let nodes: u64 = args.get(2).map_or(Ok(5000), |s| s.parse()).map_err(|e| format!("NODES: {e}"))?;
    let options = vec![("board".to_owned(), board.clone()), ("komi".to_owned(), "6.5".to_owned())];
    let empty = AnyGame::new(GameKind::Go, &options).map_err(|e| e.to_string())?;
    // A middle game: 30 turns of the playout policy from the empty board.
    let mut middle = empty.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..30 {
        let AnyGame::Go(go) = &middle else { unreachable!("a go game") };
        let mut fast = FastGo::from_go(go).ok_or("rooks are stones")?;
        let turn = fast.playout_step(&mut rng).ok_or("the game ended")?;
        middle.play(turn).map_err(|e| e.to_string())?;
    }
    println!("| position | board | engine's board | playout board | speed-up |");
    println!("|---|---|---|---|---|");
    for (name, start) in [("empty", &empty), ("after 30 turns", &middle)] {
        let AnyGame::Go(go) = start else { unreachable!("a go game") };
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let (_, before) = rate(seconds, || {
            let mut game = start.clone();
            knowledge::rollout(&mut game, &mut rng);
        });
        let fast_start = FastGo::from_go(go).ok_or("rooks are stones")?;
        let (_, after) = rate(seconds, || {
            let mut fast = fast_start.clone();
            fast.rollout(&mut rng);
        });
        println!("| light playouts/s, {name} | {board} | {before:.0} | {after:.0} | {:.1}x |", after / before);
        let (_, heavy) = rate(seconds, || {
            let mut fast = fast_start.clone();
            fast.heavy_rollout(&mut rng);
        });
        println!("| heavy playouts/s, {name} | {board} | - | {heavy:.0} | - |");
    }
    if nodes > 0 {
        println!();
        println!(
            "| search nodes/s ({nodes} a search) | board | baseline (54cd0e7: UCT, engine's board) | UCT, playout board | RAVE, light playouts | RAVE, heavy playouts and shapes (hard's) |"
        );
        println!("|---|---|---|---|---|---|");
    }
    let searches: &[(&str, &AnyGame)] =
        if nodes == 0 { &[] } else { &[("empty", &empty), ("after 30 turns", &middle)] };
    for &(name, start) in searches {
        let config = SearchConfig { budget: Budget::nodes(nodes), seed: 1, threads: 1 };
        let mut rates = Vec::new();
        for method in [Method::Baseline, Method::PlainUct, Method::RaveLight, Method::Strong] {
            let mut searched = 0;
            // One search at least; more while the time lasts.
            let (count, per_second) = rate(seconds, || {
                searched += search_with(start, &config, method).map_or(0, |r| r.nodes);
            });
            rates.push(per_second * searched as f64 / count as f64);
        }
        println!("| {name} | {board} | {:.0} | {:.0} | {:.0} | {:.0} |", rates[0], rates[1], rates[2], rates[3]);
    }
    Ok(())
}
