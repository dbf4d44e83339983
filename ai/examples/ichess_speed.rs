//! iChess search speed, the Monte Carlo search and the alpha-beta search side by side in
//! one run, in the positions after the first TURNS turns of a record (default: 16, the
//! end of the deployment, and 30 of `examples/ichess.txt`):
//!
//!     cargo run --release -p stonemate-ai --example ichess_speed -- [SECONDS] [RECORD] [TURNS...]
//!
//! Each search runs for SECONDS (default 2) of wall time; printed: nodes per second, and
//! the turn each one chose. Run it on an idle core: wall time is what the bot's limit is.

use std::time::Duration;

use stonemate_ai::{Budget, Method, SearchConfig, search_with};
use stonemate_engine::notation::record_tokens;
use stonemate_engine::{AnyGame, GameKind};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seconds: f64 = args.first().map_or(Ok(2.0), |s| s.parse()).map_err(|e| format!("SECONDS: {e}"))?;
    let record =
        args.get(1).cloned().unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/ichess.txt").into());
    let points: Vec<usize> = if args.len() > 2 {
        args[2..].iter().map(|s| s.parse().map_err(|e| format!("TURNS: {e}"))).collect::<Result<_, _>>()?
    } else {
        vec![16, 30]
    };
    let text = std::fs::read_to_string(&record).map_err(|e| format!("{record}: {e}"))?;
    let tokens = record_tokens(&text);
    println!("| position | Monte Carlo (UCT) nodes/s | its turn | alpha-beta nodes/s | its turn |");
    println!("|---|---|---|---|---|");
    for turns in points {
        let prefix: Vec<String> = tokens.iter().take(turns).cloned().collect();
        let game = AnyGame::replay(GameKind::IChess, &[], &prefix).map_err(|e| e.to_string())?.game;
        let config = SearchConfig::new(Budget::time(Duration::from_secs_f64(seconds)), 1);
        let mut cells = Vec::new();
        for method in [Method::PlainUct, Method::Strong] {
            let result = search_with(&game, &config, method).ok_or("the game is over")?;
            cells.push(format!("{:.0}", result.nodes as f64 / result.elapsed.as_secs_f64()));
            cells.push(game.format_turn(result.turn));
        }
        println!("| after {turns} turns | {} |", cells.join(" | "));
    }
    Ok(())
}
