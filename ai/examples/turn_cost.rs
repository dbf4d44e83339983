//! One search at a level's node budget (no time limit, one thread) in the position after
//! the first TURNS turns of a record: what a turn of that level costs on one idle core.
//! Run it under a CPU-time measure on a busy machine, where wall time says little:
//!
//!     cargo run --release -p stonemate-ai --example turn_cost -- GAME LEVEL RECORD TURNS
//!
//! Go is played on 9x9 with komi 6.5, as in the tournament.

use std::time::Instant;

use stonemate_ai::{Budget, Level, SearchConfig, search};
use stonemate_engine::notation::record_tokens;
use stonemate_engine::{AnyGame, GameKind};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [game, level, record, turns] = args.as_slice() else {
        return Err("usage: turn_cost GAME LEVEL RECORD TURNS".into());
    };
    let kind: GameKind = game.parse().map_err(|e: stonemate_engine::game::UnknownGame| e.to_string())?;
    let level: Level = level.parse().map_err(|e: stonemate_ai::UnknownLevel| e.to_string())?;
    let turns: usize = turns.parse().map_err(|e| format!("TURNS: {e}"))?;
    let text = std::fs::read_to_string(record).map_err(|e| format!("{record}: {e}"))?;
    let tokens: Vec<String> = record_tokens(&text).into_iter().take(turns).collect();
    let options: Vec<(String, String)> = match kind {
        GameKind::Go => vec![("board".into(), "9x9".into()), ("komi".into(), "6.5".into())],
        _ => Vec::new(),
    };
    let replay = AnyGame::replay(kind, &options, &tokens).map_err(|e| e.to_string())?;
    let game = replay.game;
    let config = SearchConfig { budget: Budget::nodes(level.nodes(kind)), seed: 1, threads: 1 };
    let clock = Instant::now();
    let result = search(&game, &config).ok_or("the game is over")?;
    println!(
        "{kind} {level} after {} turns: {} nodes {} wall {:.2} s value {:.3}",
        tokens.len(),
        game.format_turn(result.turn),
        result.nodes,
        clock.elapsed().as_secs_f64(),
        result.value
    );
    Ok(())
}
