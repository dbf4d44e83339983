//! The arena: plays the bot's levels against each other, against a uniformly random
//! player, and against GNU Go (go with rooks) and Fairy-Stockfish (iChess after the
//! deployment), alternating colours, and prints win rates and time per turn.
//!
//!     cargo run --release -p stonemate-ai --example tournament -- [OPTIONS]
//!
//! Options (all optional; the defaults run the full plan of issue 17):
//!
//!     --games N            games per pairing and game (default 20)
//!     --first N            start at game N of the plan (default 1): a long plan runs in
//!                          pieces (`--first 17 --games 100` plays games 17 to 100, with
//!                          the seeds and colours those games have in the whole plan)
//!     --game LIST          chego,gess,ichess,go,chogo (default all five)
//!     --pairing A:B        repeatable; players are random, easy, medium, hard (the
//!                          bot's search), oldhard etc. (the search of 54cd0e7: plain
//!                          UCT on the engine's board), ucthard etc. (plain UCT on the
//!                          playout board), ravehard etc. (RAVE with light
//!                          playouts, issue 29's first session), stronghard etc.
//!                          (hard's search at any budget: alpha-beta in iChess,
//!                          heavy playouts in go; in Chogo session 9's Monte Carlo
//!                          hard, which hard's alpha-beta replaced), keephard etc.
//!                          (the bot's search keeping its tree between its turns, as
//!                          the bot's pool does; it prints how much it reused when its
//!                          pairing ends),
//!                          gnugo:LEVEL (go only), fsf:NODES (iChess only:
//!                          Fairy-Stockfish deploys for itself in `[ichess-deploy]`),
//!                          fsfbot:NODES (the same, with our bot deploying for it at
//!                          the opponent's level, as sessions 8-11 played); default
//!                          easy:random medium:random hard:random hard:easy, plus
//!                          hard:gnugo:1 hard:gnugo:10 (go) and hard:fsf:1000 (iChess)
//!     --nodes L=N          a level's node budget instead of its own (repeatable), e.g.
//!                          --nodes hard=2000; levels then have no time limit
//!     --time L=SECONDS     a level's time per turn instead of its own (repeatable); with
//!                          --nodes for the same level, whichever ends first
//!     --threads N          search threads per bot turn (default 1)
//!     --max-turns N        adjudicate by the evaluation after N turns (default 400)
//!     --seed N             base seed (default 1)
//!     --opening N          the first N turns of every game are drawn uniformly at
//!                          random from the legal turns (default 0), the same for each
//!                          pair of games (1-2, 3-4, ...), which play it with the colours
//!                          swapped. Two players that do not draw on a seed (alpha-beta
//!                          against Fairy-Stockfish) otherwise play the same game again
//!                          and again; the table's `distinct` column counts the games
//!                          that differ in at least one turn.
//!     --records DIR        keep every game's record in DIR: SGF for go, PGN for iChess,
//!                          our own format for the others (DIR is created)
//!
//! Go is played on 9x9 with komi 6.5; the other games with their default options.
//! GNU Go is `gnugo` (or /usr/games/gnugo); Fairy-Stockfish is `fairy-stockfish` with the
//! iChess variants of engine/tests/oracles/ichess.ini: `[ichess-deploy]` for its
//! deployment drops (each king kept out of its hand until it is the last piece there, as
//! rule 3 asks), then `[ichess]` from the deployed position.
//!
//! Honest scoring. GNU Go plays with `--capture-all-dead`: it captures every dead stone
//! before it passes, as our rules (which score the board as it stands) require, instead
//! of passing and expecting them to be counted off. And every go game is also scored by a
//! referee: a fresh GNU Go replays the whole game and answers `final_score`, its own count
//! with its own judgement of dead stones. Each game's line on standard error gives our
//! score and the referee's; a disagreement (another winner or another margin) is marked
//! `DISAGREE` and listed after the table. A go game counts as a win, draw or loss only
//! when both counts name the same winner; otherwise it is `disputed` (a win for neither).
//! Each line also gives GNU Go's area count (`--chinese-rules`) and the stones it counts
//! as dead (`final_status_list dead`), and the table how often the area count names our
//! winner. iChess games against Fairy-Stockfish are refereed the same way: at the end
//! Fairy-Stockfish is shown the final position and says whether the side to move is
//! mated, stalemated or has moves, which must match how our engine ended the game.

mod args;
mod bot;
mod fsf;
mod game;
mod gnugo;
mod pairing;
mod player;

use stonemate_engine::GameKind;

use crate::args::parse_args;
use crate::pairing::{default_pairings, median_max, run_pairing};

fn main() {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("tournament: {message}");
            std::process::exit(2);
        }
    };
    println!(
        "| game | A | B | games | A wins | draws | B wins | A score | adjudicated | forfeits | refereed | referee agrees | disputed (no win) | area count agrees | A wins by referee | turns/game | distinct | A s/turn median, max | B s/turn median, max |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut disagreements = Vec::new();
    for &kind in &args.kinds {
        let pairings = if args.pairings.is_empty() { default_pairings(kind) } else { args.pairings.clone() };
        for pair in &pairings {
            let usable = |name: &str| {
                (!name.starts_with("gnugo") || kind == GameKind::Go)
                    && (!name.starts_with("fsf") || kind == GameKind::IChess)
            };
            if !usable(&pair.0) || !usable(&pair.1) {
                continue;
            }
            match run_pairing(kind, pair, &args) {
                Ok(t) => {
                    let games = t.wins + t.draws + t.losses;
                    let score = (t.wins as f64 + 0.5 * t.draws as f64) / games.max(1) as f64 * 100.0;
                    let (am, ax) = median_max(&t.times[0]);
                    let (bm, bx) = median_max(&t.times[1]);
                    let referee_wins = if kind == GameKind::Go && t.refereed > 0 {
                        format!("{} (+{} draws)", t.referee_wins, t.referee_draws)
                    } else {
                        "-".to_owned()
                    };
                    let (disputed, area) = if kind == GameKind::Go {
                        (t.disputed.to_string(), t.area_agreed.to_string())
                    } else {
                        ("-".to_owned(), "-".to_owned())
                    };
                    println!(
                        "| {kind} | {} | {} | {games} | {} | {} | {} | {score:.0}% | {} | {} | {} | {} | {disputed} | {area} | {referee_wins} | {} | {} | {am:.3}, {ax:.3} | {bm:.3}, {bx:.3} |",
                        pair.0,
                        pair.1,
                        t.wins,
                        t.draws,
                        t.losses,
                        t.adjudicated,
                        t.forfeits.len(),
                        t.refereed,
                        t.agreed,
                        t.turns / (games + t.disputed).max(1),
                        t.distinct.len()
                    );
                    for reason in t.forfeits.iter().take(3) {
                        eprintln!("  forfeit: {reason}");
                    }
                    disagreements.extend(t.disagreements);
                }
                Err(message) => eprintln!("{kind} {}:{}: {message}", pair.0, pair.1),
            }
        }
    }
    println!();
    if disagreements.is_empty() {
        println!("Referee: no disagreement.");
    } else {
        println!("Referee disagreements ({}):", disagreements.len());
        for line in &disagreements {
            println!("- {line}");
        }
    }
}
