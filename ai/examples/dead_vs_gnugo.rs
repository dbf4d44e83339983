//! The dead-piece estimates of the counting phase (rule 10) against GNU Go's own judgement,
//! over games GNU Go played against itself to two passes (rooks, so go's rules).
//!
//!     PATH=$PATH:/usr/games python3 scripts/gnugo-selfplay.py games.jsonl 4,5,6,7,8,9 1 61
//!     PATH=$PATH:/usr/games python3 scripts/gnugo-selfplay.py more.jsonl 7,9,13 1 120 5
//!     cargo run --release -p stonemate-ai --example dead_vs_gnugo -- games.jsonl
//!
//! Each line of the file is one game: `{"size": 9, "moves": ["e5", ..., "pass", "pass"],
//! "dead": ["c3", ...], "score": "W+6.5"}` with GTP vertices. For each game the estimate
//! by the rules' random games (`Playouts::Rules`, which the engine's board plays for any
//! set) and the service's ([`stonemate_ai::counting::estimate_dead`], on the playout board)
//! are compared with GNU Go's `final_status_list dead`; every disagreement is printed with
//! the game's turns in our notation, ready for a test, and the totals and times at the end.

use std::time::{Duration, Instant};

use stonemate_ai::counting::{self, Playouts};
use stonemate_engine::go::DeadPieces;
use stonemate_engine::{AnyGame, GameKind, Square};

/// A GTP vertex (`F3`, letters without I) as our square.
fn square_of(vertex: &str) -> Square {
    let letters = "abcdefghjklmnopqrst";
    let file = letters.find(&vertex[..1].to_ascii_lowercase()).expect("a GTP column");
    let rank: u8 = vertex[1..].parse().expect("a GTP row");
    Square::new(file as u8, rank - 1).expect("on the board")
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: dead_vs_gnugo GAMES.jsonl");
    let text = std::fs::read_to_string(&path).expect("the games file reads");
    let (mut games, mut with_dead) = (0, 0);
    let (mut rules_misses, mut fast_misses) = (0, 0);
    let (mut rules_time, mut fast_time) = (Duration::ZERO, Duration::ZERO);
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let game: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let size = game["size"].as_u64().expect("size");
        let options = [("board", format!("{size}x{size}")), ("komi", "6.5".into()), ("counting", "on".into())]
            .map(|(k, v)| (k.to_owned(), v));
        let mut position = AnyGame::new(GameKind::Go, &options).expect("options");
        let mut turns = Vec::new();
        for vertex in game["moves"].as_array().expect("moves") {
            let vertex = vertex.as_str().expect("a vertex");
            let turn = if vertex == "pass" { "pass".to_owned() } else { square_of(vertex).to_string() };
            position.play_text(&turn).unwrap_or_else(|e| panic!("{turn} refused: {e}"));
            turns.push(turn);
        }
        if !position.is_counting() {
            continue;
        }
        let theirs = DeadPieces::new(
            game["dead"].as_array().expect("dead").iter().map(|v| square_of(v.as_str().expect("a vertex"))),
        );
        games += 1;
        with_dead += usize::from(!theirs.is_empty());
        let start = Instant::now();
        let rules = counting::estimate_dead_with(&position, Playouts::Rules).expect("counting");
        rules_time += start.elapsed();
        let start = Instant::now();
        let fast = counting::estimate_dead(&position).expect("counting");
        fast_time += start.elapsed();
        let seed = &game["seed"];
        for (name, ours, misses) in [("rules", &rules, &mut rules_misses), ("fast", &fast, &mut fast_misses)] {
            if *ours != theirs {
                *misses += 1;
                println!("{size}x{size} seed {seed}: {name} {ours}, GNU Go {theirs}\n  {}", turns.join(" "));
            }
        }
    }
    println!(
        "{games} games ({with_dead} with dead stones): rules missed {rules_misses} ({rules_time:.2?}), \
         fast missed {fast_misses} ({fast_time:.2?})"
    );
}
