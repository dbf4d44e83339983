//! One search at a level's node budget (no time limit, one thread) in the position after
//! the first TURNS turns of a record: what a turn of that level costs on one idle core.
//! Run it under a CPU-time measure on a busy machine, where wall time says little:
//!
//!     cargo run --release -p stonemate-ai --example turn_cost -- GAME LEVEL RECORD TURNS [BOARD] [limited]
//!
//! Go is played on 9x9 with komi 6.5, as in the tournament, or on BOARD (such as 19x19;
//! the record's turns must exist there). With `limited`, the search has the level's
//! whole budget, its time limit too, as the bot searches: what a turn takes on this
//! machine as it is. Printed: the wall time and the CPU time of the searching thread.

use std::time::{Duration, Instant};

use stonemate_ai::{Budget, Level, Method, SearchConfig, search_reusing};
use stonemate_engine::notation::record_tokens;
use stonemate_engine::{AnyGame, GameKind};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some([game, level, record, turns]), extra) = (args.first_chunk::<4>(), args.get(4..).unwrap_or_default())
    else {
        return Err("usage: turn_cost GAME LEVEL RECORD TURNS [BOARD] [limited]".into());
    };
    let limited = extra.iter().any(|word| word == "limited");
    let board = extra.iter().find(|word| *word != "limited").map_or("9x9", String::as_str);
    let kind: GameKind = game.parse().map_err(|e: stonemate_engine::game::UnknownGame| e.to_string())?;
    let level: Level = level.parse().map_err(|e: stonemate_ai::UnknownLevel| e.to_string())?;
    let turns: usize = turns.parse().map_err(|e| format!("TURNS: {e}"))?;
    let text = std::fs::read_to_string(record).map_err(|e| format!("{record}: {e}"))?;
    let tokens: Vec<String> = record_tokens(&text).into_iter().take(turns).collect();
    let options: Vec<(String, String)> = match kind {
        GameKind::Go => vec![("board".into(), board.into()), ("komi".into(), "6.5".into())],
        _ => Vec::new(),
    };
    let replay = AnyGame::replay(kind, &options, &tokens).map_err(|e| e.to_string())?;
    let game = replay.game;
    let budget = if limited { level.budget(kind) } else { Budget::nodes(level.nodes(kind)) };
    let config = SearchConfig { budget, seed: 1, threads: 1 };
    let clock = Instant::now();
    let cpu = cpu_time(clock);
    // The bot's search (`search` is this one without a kept tree), keeping its tree to
    // show what the bot's pool would keep.
    let (result, kept) = search_reusing(&game, &config, Method::Current, None, &[]).ok_or("the game is over")?;
    let cpu = cpu_time(clock) - cpu;
    let size =
        |tree: &stonemate_ai::KeptTree| format!("{} nodes {:.1} MB", tree.node_count(), tree.memory() as f64 / 1e6);
    // The pool keeps only the subtree after the turn played.
    let kept = kept.map_or_else(
        || "none".to_owned(),
        |tree| {
            let whole = size(&tree);
            let after = tree.after(result.turn).map_or_else(|| "none".to_owned(), |tree| size(&tree));
            format!("{whole}, after the turn {after}")
        },
    );
    println!(
        "{kind} {level} after {} turns: {} nodes {} wall {:.2} s cpu {:.2} s value {:.3} tree {kept}",
        tokens.len(),
        game.format_turn(result.turn),
        result.nodes,
        clock.elapsed().as_secs_f64(),
        cpu.as_secs_f64(),
        result.value
    );
    Ok(())
}

/// CPU time this thread has run (Linux's /proc/thread-self/schedstat), or the wall clock
/// since `wall` where the kernel does not say.
fn cpu_time(wall: Instant) -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse().ok())
        .map_or_else(|| wall.elapsed(), Duration::from_nanos)
}
