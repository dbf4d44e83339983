//! One pairing in one game: its players by name, its games with their seeds and colours,
//! and the tally the table prints.

use std::time::Duration;

use stonemate_ai::{Budget, Level, Method};
use stonemate_engine::{AnyGame, Color, GameKind};

use crate::args::Args;
use crate::bot::{Bot, Reuse};
use crate::fsf::Fsf;
use crate::game::{Opening, keep_record, options, play, referee};
use crate::gnugo::{Count, GnuGo, agreed_winner};
use crate::player::{Failure, Player, Random};

/// The tally of one pairing in one game.
#[derive(Default)]
pub(crate) struct Tally {
    pub(crate) wins: usize,
    pub(crate) draws: usize,
    pub(crate) losses: usize,
    pub(crate) adjudicated: usize,
    pub(crate) forfeits: Vec<String>,
    pub(crate) turns: usize,
    pub(crate) times: [Vec<Duration>; 2],
    /// Games the referee scored, and those where it agreed with our result.
    pub(crate) refereed: usize,
    pub(crate) agreed: usize,
    /// A's wins and draws by the referee's count (go).
    pub(crate) referee_wins: usize,
    pub(crate) referee_draws: usize,
    /// Go games whose two counts name different winners: a win for neither, and left
    /// out of wins, draws and losses.
    pub(crate) disputed: usize,
    /// Go games where GNU Go's area count (`--chinese-rules`) names our winner.
    pub(crate) area_agreed: usize,
    /// One line per disagreement.
    pub(crate) disagreements: Vec<String>,
    /// Every game's turns, to count the games that differ.
    pub(crate) distinct: std::collections::BTreeSet<Vec<String>>,
}

pub(crate) fn median_max(times: &[Duration]) -> (f64, f64) {
    let mut sorted: Vec<f64> = times.iter().map(Duration::as_secs_f64).collect();
    sorted.sort_by(f64::total_cmp);
    if sorted.is_empty() {
        return (0.0, 0.0);
    }
    (sorted[sorted.len() / 2], sorted[sorted.len() - 1])
}

/// A player by name; `partner` is the opponent's level, at which our bot deploys for
/// Fairy-Stockfish.
pub(crate) fn player(name: &str, partner: Level, args: &Args) -> Result<Box<dyn Player>, Failure> {
    let bot = |level: Level| Bot {
        level,
        budget: match (args.nodes.get(&level), args.time.get(&level)) {
            (None, None) => None,
            (nodes, time) => Some(Budget { nodes: nodes.copied(), time: time.copied() }),
        },
        threads: args.threads,
        method: Method::Current,
        reuse: None,
    };
    if let Ok(level) = name.parse::<Level>() {
        return Ok(Box::new(bot(level)));
    }
    if let Some(level) = name.strip_prefix("keep").and_then(|rest| rest.parse::<Level>().ok()) {
        // (Reuse prints on drop, so it is built by assignment, not by update syntax.)
        let mut reuse = Reuse::default();
        reuse.player = name.to_owned();
        return Ok(Box::new(Bot { reuse: Some(reuse), ..bot(level) }));
    }
    for (prefix, method) in
        [("old", Method::Baseline), ("uct", Method::PlainUct), ("rave", Method::RaveLight), ("strong", Method::Strong)]
    {
        if let Some(level) = name.strip_prefix(prefix).and_then(|rest| rest.parse::<Level>().ok()) {
            return Ok(Box::new(Bot { method, ..bot(level) }));
        }
    }
    match name.split_once(':') {
        None if name == "random" => Ok(Box::new(Random)),
        Some(("gnugo", level)) => {
            Ok(Box::new(GnuGo { level: level.parse().map_err(|e| format!("{name}: {e}"))?, process: None }))
        }
        Some((prefix @ ("fsf" | "fsfbot"), nodes)) => {
            let ini = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/tests/oracles/ichess.ini").to_owned();
            let nodes = nodes.parse().map_err(|e| format!("{name}: {e}"))?;
            let deployer = (prefix == "fsfbot").then(|| bot(partner));
            Ok(Box::new(Fsf { nodes, deployer, ini }))
        }
        _ => Err(format!("unknown player {name}")),
    }
}

/// The plan of issue 17 for one game.
pub(crate) fn default_pairings(kind: GameKind) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = ["easy:random", "medium:random", "hard:random", "hard:easy"]
        .iter()
        .filter_map(|p| p.split_once(':'))
        .map(|(a, b)| (a.into(), b.into()))
        .collect();
    match kind {
        GameKind::Go => pairs.extend([("hard".into(), "gnugo:1".into()), ("hard".into(), "gnugo:10".into())]),
        GameKind::IChess => pairs.push(("hard".into(), "fsf:1000".into())),
        _ => {}
    }
    pairs
}

pub(crate) fn run_pairing(kind: GameKind, pair: &(String, String), args: &Args) -> Result<Tally, Failure> {
    let partner = |name: &str| name.parse::<Level>().unwrap_or(Level::Hard);
    let mut players = [player(&pair.0, partner(&pair.1), args)?, player(&pair.1, partner(&pair.0), args)?];
    let mut tally = Tally::default();
    for index in args.first..args.games {
        let first_color = if index % 2 == 0 { Color::White } else { Color::Black };
        let seed = args.seed.wrapping_mul(7919).wrapping_add(index as u64);
        // Both games of a pair (index 2k and 2k+1) open alike, with the colours swapped.
        let opening_seed = (args.seed ^ 0x6f70_656e).wrapping_mul(1_000_003).wrapping_add((index / 2) as u64) << 10;
        let opening = Opening { turns: args.opening, seed: opening_seed };
        let played = play(kind, &mut players, first_color, seed, opening, args.max_turns);
        tally.distinct.insert(played.texts.clone());
        tally.adjudicated += usize::from(played.adjudicated);
        tally.turns += played.turns;
        if let Some(reason) = &played.forfeit {
            tally.forfeits.push(reason.clone());
        }
        let result = match played.winner {
            Some(0) => pair.0.as_str(),
            Some(_) => pair.1.as_str(),
            None => "draw",
        };
        let game_name = format!("{kind} {}:{} game {} ({} as {first_color})", pair.0, pair.1, index + 1, pair.0);
        let start = AnyGame::new(kind, &options(kind)).expect("valid options");
        let verdict = match referee(kind, pair, &start, &played, first_color) {
            Some(Ok(verdict)) => Some(verdict),
            Some(Err(e)) => {
                eprintln!("{game_name}: the referee failed: {e}");
                None
            }
            None => None,
        };
        let disputed = verdict.as_ref().is_some_and(|v| v.count == Some(Count::Disputed));
        match played.winner {
            _ if disputed => tally.disputed += 1,
            Some(0) => tally.wins += 1,
            Some(_) => tally.losses += 1,
            None => tally.draws += 1,
        }
        let mut referee_note = String::new();
        if let Some(verdict) = &verdict {
            if let Some(area) = &verdict.area {
                tally.area_agreed += usize::from(agreed_winner(&verdict.ours, area) != Count::Disputed);
            }
            tally.refereed += 1;
            tally.agreed += usize::from(verdict.agrees);
            match verdict.referee_winner {
                Some(Some(0)) => tally.referee_wins += 1,
                Some(None) => tally.referee_draws += 1,
                _ => {}
            }
            let mark = match (verdict.agrees, disputed) {
                (_, true) => " DISAGREE (another winner: counted for neither)",
                (false, false) => " DISAGREE (another margin)",
                _ => "",
            };
            let go = match (&verdict.area, &verdict.dead) {
                (Some(area), Some(dead)) => format!(", area {area}, dead {dead}"),
                _ => String::new(),
            };
            referee_note = format!("; ours {}, referee {}{go}{mark}", verdict.ours, verdict.theirs);
            if !verdict.agrees {
                tally
                    .disagreements
                    .push(format!("{game_name}: ours {}, referee {}{go}{mark}", verdict.ours, verdict.theirs));
            }
        }
        if let Some(dir) = &args.records {
            let white_seat = usize::from(first_color != Color::White);
            let players = [pair_name(pair, white_seat), pair_name(pair, 1 - white_seat)];
            let file = format!("{kind}-{}-{}-seed{}-game{}", pair.0, pair.1.replace(':', ""), args.seed, index + 1);
            match keep_record(dir, &file, kind, players, first_color, &played, verdict.as_ref()) {
                Ok(path) => referee_note.push_str(&format!("; record {}", path.display())),
                Err(e) => eprintln!("{game_name}: the record was not kept: {e}"),
            }
        }
        eprintln!(
            "{game_name}: {result} in {} turns{}{}{referee_note}",
            played.turns,
            if played.adjudicated { " (adjudicated)" } else { "" },
            played.forfeit.as_ref().map(|r| format!(" (forfeit: {r})")).unwrap_or_default()
        );
        let [a, b] = played.times;
        tally.times[0].extend(a);
        tally.times[1].extend(b);
    }
    Ok(tally)
}

/// The name of the pairing's player in `seat` (0 or 1).
pub(crate) fn pair_name(pair: &(String, String), seat: usize) -> String {
    if seat == 0 { pair.0.clone() } else { pair.1.clone() }
}
