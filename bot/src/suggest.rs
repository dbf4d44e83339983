//! `stonemate suggest`: reads a record like `stonemate replay` and prints the turn the bot
//! would play next, in the game's notation (with `--json`, the search's figures too).
//!
//! Exit status: 0 with a suggestion; 1 when a turn of the record cannot be read or is
//! illegal (the message names it); 2 for bad arguments or a finished game.

use std::process::ExitCode;
use std::time::Duration;

use serde_json::{Value, json};
use stonemate_ai::{Budget, Level, Proof, SearchConfig, SearchResult};
use stonemate_engine::{AnyGame, GameKind};

use crate::replay::option_pairs;
use crate::replay::{RecordArgs, read_record, read_turns};

/// Candidates listed under `--json`.
const CANDIDATES: usize = 5;

/// What to search and how hard.
#[derive(Debug, clap::Args)]
pub struct SuggestArgs {
    /// The record to search after.
    #[command(flatten)]
    pub record: RecordArgs,
    /// easy, medium or hard.
    #[arg(long, default_value = "medium", value_parser = parse_level)]
    pub level: Level,
    /// The random seed: the same seed, budget of nodes and threads give the same turn
    /// (default: a new seed each run, printed under --json).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Search for this many milliseconds instead of the level's budget.
    #[arg(long, value_name = "MS")]
    pub budget_ms: Option<u64>,
    /// Search this many nodes (playouts) instead of the level's budget.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
    /// Search threads (default: every core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
    /// Print a JSON object with the turn and the search's figures.
    #[arg(long)]
    pub json: bool,
}

fn parse_level(text: &str) -> Result<Level, String> {
    text.parse().map_err(|error: stonemate_ai::UnknownLevel| error.to_string())
}

/// Why there is nothing to suggest.
enum Failure {
    /// A turn of the record (exit 1).
    Record(String),
    /// The arguments, or the game is over (exit 2).
    Arguments(String),
}

/// Runs `stonemate suggest`.
pub fn run(args: &SuggestArgs) -> ExitCode {
    match suggest(args) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(Failure::Record(message)) => {
            eprintln!("stonemate suggest: {message}");
            ExitCode::from(1)
        }
        Err(Failure::Arguments(message)) => {
            eprintln!("stonemate suggest: {message}");
            ExitCode::from(2)
        }
    }
}

fn suggest(args: &SuggestArgs) -> Result<String, Failure> {
    let position = position(args.record.kind, args)?;
    let config = config(args, position.kind());
    let Some(result) = stonemate_ai::search(&position, &config) else {
        let reason = position.status().ending().map_or_else(|| "no legal turn".to_owned(), |e| e.reason.to_string());
        return Err(Failure::Arguments(format!("the game is over ({reason}): there is no turn to suggest")));
    };
    let turn = position.format_turn(result.turn);
    Ok(if args.json { report(&position, &turn, &result, args, &config).to_string() } else { turn })
}

/// The position after the record.
fn position(kind: GameKind, args: &SuggestArgs) -> Result<AnyGame, Failure> {
    let record = read_record(args.record.file.as_ref()).map_err(|e| Failure::Arguments(e.to_string()))?;
    let options = option_pairs(&args.record.options).map_err(|e| Failure::Arguments(e.to_string()))?;
    let (options, turns) = read_turns(kind, &options, &record).map_err(|e| Failure::Arguments(e.to_string()))?;
    let replay = AnyGame::replay(kind, &options, &turns).map_err(|e| Failure::Arguments(e.to_string()))?;
    match replay.error {
        Some(error) => Err(Failure::Record(error.to_string())),
        None => Ok(replay.game),
    }
}

fn config(args: &SuggestArgs, kind: GameKind) -> SearchConfig {
    let budget = if args.budget_ms.is_some() || args.nodes.is_some() {
        Budget { nodes: args.nodes, time: args.budget_ms.map(Duration::from_millis) }
    } else {
        args.level.budget(kind)
    };
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
        |n| usize::try_from(n).unwrap_or(1),
    );
    SearchConfig { budget, seed: args.seed.unwrap_or_else(fresh_seed), threads }
}

/// A seed from the clock, for runs that did not ask for one.
fn fresh_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    now.as_secs().wrapping_mul(1_000_000_007) ^ u64::from(now.subsec_nanos())
}

fn report(position: &AnyGame, turn: &str, result: &SearchResult, args: &SuggestArgs, config: &SearchConfig) -> Value {
    let mut candidates = result.root.clone();
    candidates.sort_by_key(|c| std::cmp::Reverse(c.visits));
    let candidates: Vec<Value> = candidates
        .iter()
        .take(CANDIDATES)
        .map(|c| json!({"turn": position.format_turn(c.turn), "visits": c.visits, "value": round(c.value)}))
        .collect();
    json!({
        "turn": turn,
        "value": round(result.value),
        "nodes": result.nodes,
        "time_ms": u64::try_from(result.elapsed.as_millis()).unwrap_or(u64::MAX),
        "proven": result.proven.map(proof_name),
        "level": args.level.name(),
        "seed": config.seed,
        "threads": config.threads,
        "accepts_draw": stonemate_ai::accepts_draw(result),
        "resigns": stonemate_ai::resigns(result),
        "candidates": candidates,
    })
}

fn proof_name(proof: Proof) -> &'static str {
    match proof {
        Proof::Win => "win",
        Proof::Draw => "draw",
        Proof::Loss => "loss",
    }
}

/// Values to three decimals: more is noise.
fn round(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0
}
