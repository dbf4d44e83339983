//! The arena's command line (the options listed in `main.rs`).

use std::collections::BTreeMap;
use std::time::Duration;

use stonemate_ai::Level;
use stonemate_engine::GameKind;

use crate::player::Failure;

/// The options of a run.
pub(crate) struct Args {
    pub(crate) games: usize,
    /// The index (from 0) of the plan's first game to play.
    pub(crate) first: usize,
    pub(crate) kinds: Vec<GameKind>,
    pub(crate) pairings: Vec<(String, String)>,
    pub(crate) nodes: BTreeMap<Level, u64>,
    pub(crate) time: BTreeMap<Level, Duration>,
    pub(crate) threads: usize,
    pub(crate) max_turns: usize,
    pub(crate) seed: u64,
    pub(crate) opening: usize,
    pub(crate) records: Option<std::path::PathBuf>,
}

pub(crate) fn parse_args() -> Result<Args, Failure> {
    let mut args = Args {
        games: 20,
        first: 0,
        kinds: GameKind::ALL.to_vec(),
        pairings: Vec::new(),
        nodes: BTreeMap::new(),
        time: BTreeMap::new(),
        threads: 1,
        max_turns: 400,
        seed: 1,
        opening: 0,
        records: None,
    };
    let mut words = std::env::args().skip(1);
    while let Some(flag) = words.next() {
        let mut value = || words.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--games" => args.games = value()?.parse().map_err(|e| format!("--games: {e}"))?,
            "--first" => {
                let first: usize = value()?.parse().map_err(|e| format!("--first: {e}"))?;
                args.first = first.checked_sub(1).ok_or("--first counts from 1")?;
            }
            "--game" => {
                args.kinds = value()?
                    .split(',')
                    .map(|k| k.parse().map_err(|e: stonemate_engine::game::UnknownGame| e.to_string()))
                    .collect::<Result<_, _>>()?
            }
            "--pairing" => {
                let text = value()?;
                let (a, b) = text.split_once(':').ok_or(format!("--pairing {text}: write A:B"))?;
                let (a, b) = match (a, b.split_once(':')) {
                    // `hard:gnugo:10`: the second player has its own colon.
                    (a, Some((b, setting))) => (a.to_owned(), format!("{b}:{setting}")),
                    (a, None) => (a.to_owned(), b.to_owned()),
                };
                args.pairings.push((a, b));
            }
            "--nodes" => {
                let text = value()?;
                let (level, nodes) = text.split_once('=').ok_or(format!("--nodes {text}: write LEVEL=N"))?;
                let level: Level = level.parse().map_err(|e: stonemate_ai::UnknownLevel| e.to_string())?;
                args.nodes.insert(level, nodes.parse().map_err(|e| format!("--nodes: {e}"))?);
            }
            "--time" => {
                let text = value()?;
                let (level, seconds) = text.split_once('=').ok_or(format!("--time {text}: write LEVEL=SECONDS"))?;
                let level: Level = level.parse().map_err(|e: stonemate_ai::UnknownLevel| e.to_string())?;
                let seconds: f64 = seconds.parse().map_err(|e| format!("--time: {e}"))?;
                args.time.insert(level, Duration::from_secs_f64(seconds));
            }
            "--threads" => args.threads = value()?.parse().map_err(|e| format!("--threads: {e}"))?,
            "--max-turns" => args.max_turns = value()?.parse().map_err(|e| format!("--max-turns: {e}"))?,
            "--seed" => args.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--opening" => args.opening = value()?.parse().map_err(|e| format!("--opening: {e}"))?,
            "--records" => args.records = Some(value()?.into()),
            other => return Err(format!("unknown option {other} (see the comment at the top of tournament/main.rs)")),
        }
    }
    Ok(args)
}
