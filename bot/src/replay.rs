//! `stonemate replay`: reads a record, plays it, and prints the position as JSON.
//! The output is a contract other programs rely on (`docs/replay-cli.md`).

use std::io::Read;
use std::path::PathBuf;

use serde_json::{Map, Value, json};
use stonemate_engine::formats::{self, Format, ReadError};
use stonemate_engine::options::parse_option_text;
use stonemate_engine::{AnyGame, Color, GameKind, HalfPoints, NewGameError, OptionPairs, Replay, Status};

/// A game record to read: the game, its options, and the file of turns.
#[derive(Debug, clap::Args)]
pub struct RecordArgs {
    /// chego, gess, ichess, go (Go with chess pieces) or chogo.
    #[arg(long = "game", value_name = "GAME", value_parser = parse_game)]
    pub kind: GameKind,
    /// A game option as KEY=VALUE, e.g. --option board=9x9 (repeatable).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// The record: turns separated by whitespace; `-` or nothing reads standard input.
    pub file: Option<PathBuf>,
}

fn parse_game(text: &str) -> Result<GameKind, String> {
    text.parse().map_err(|error: stonemate_engine::game::UnknownGame| error.to_string())
}

/// Reads the record file, or standard input for `-` or no file.
pub fn read_record(file: Option<&PathBuf>) -> std::io::Result<String> {
    let mut text = String::new();
    match file.filter(|path| path.as_os_str() != "-") {
        Some(path) => {
            text = std::fs::read_to_string(path)
                .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))?
        }
        None => {
            std::io::stdin().read_to_string(&mut text)?;
        }
    }
    Ok(text)
}

/// What went wrong before any turn was played: the arguments (exit status 2).
#[derive(Debug, thiserror::Error)]
pub enum ReplayArgsError {
    /// An `--option` (as given) that is not `KEY=VALUE`.
    #[error("`{0}` is not an option: write KEY=VALUE, like board=9x9")]
    NotAPair(String),
    /// The game cannot be set up with these options.
    #[error(transparent)]
    Game(#[from] NewGameError),
    /// An SGF or PGN that breaks its format, or a record naming no game of ours.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The record names its game, and `--game` names another.
    #[error(
        "this {} is a record of {} (`--game {}`), not of {}: `--game` must name the record's own game",
        format.name(), named.title(), named.name(), kind.title()
    )]
    OtherGame {
        /// The record's format (SGF or PGN).
        format: Format,
        /// The game the record names.
        named: GameKind,
        /// The game `--game` names.
        kind: GameKind,
    },
    /// The record sets an option, and `--option` gives it another value.
    #[error(
        "`--option {key}={ours}` disagrees with the record's own `{key}={theirs}`: leave the option out, or give the record's value"
    )]
    OptionConflict {
        /// The option's key.
        key: String,
        /// The value `--option` gives.
        ours: String,
        /// The value the record sets.
        theirs: String,
    },
}

/// Reads `--option` arguments, one pair each, as option text is read (keys in lower case;
/// a value may hold spaces, like `set=K1 Q1`).
pub fn option_pairs(options: &[String]) -> Result<OptionPairs, ReplayArgsError> {
    let pair = |text: &String| match parse_option_text(text).as_deref() {
        Ok([pair]) => Ok(pair.clone()),
        _ => Err(ReplayArgsError::NotAPair(text.clone())),
    };
    options.iter().map(pair).collect()
}

/// Reads a record text, in any of the formats [`formats::read`] tells apart by content
/// (our own turns, SGF, PGN): returns its options and its turns, not yet played.
///
/// A record that names its game (SGF and PGN always; our own when its comments say
/// `# game:`, as `/history` files do) must name `kind`. Its options are kept, and
/// `flags` (`--option`) add to them; a flag for an option the record sets must give the
/// same value (compared as the game reads them: `set=K1Q1` and `set=K1 Q1` agree).
pub fn read_turns(
    kind: GameKind,
    flags: &OptionPairs,
    record: &str,
) -> Result<(OptionPairs, Vec<String>), ReplayArgsError> {
    let imported = formats::read(record)?;
    if let Some(named) = imported.kind.filter(|named| *named != kind) {
        return Err(ReplayArgsError::OtherGame { format: imported.format, named, kind });
    }
    let mut options = imported.options;
    for (key, ours) in flags {
        match options.iter().find(|(theirs, _)| theirs == key) {
            Some((_, theirs)) if !same_value(kind, key, ours, theirs) => {
                let (key, ours, theirs) = (key.clone(), ours.clone(), theirs.clone());
                return Err(ReplayArgsError::OptionConflict { key, ours, theirs });
            }
            Some(_) => {}
            None => options.push((key.clone(), ours.clone())),
        }
    }
    Ok((options, imported.turns))
}

/// Whether two values of option `key` mean the same to the game (as text, when either
/// cannot be read on its own).
fn same_value(kind: GameKind, key: &str, ours: &str, theirs: &str) -> bool {
    let read = |value: &str| {
        let position = AnyGame::new(kind, &[(key.to_owned(), value.to_owned())]).ok()?;
        position.option_pairs().into_iter().find(|(k, _)| k == key).map(|(_, value)| value)
    };
    match (read(ours), read(theirs)) {
        (Some(ours), Some(theirs)) => ours == theirs,
        _ => ours.trim() == theirs.trim(),
    }
}

/// Replays a record text; returns the JSON object to print and whether every turn played.
pub fn replay_record(kind: GameKind, flags: &OptionPairs, record: &str) -> Result<(Value, bool), ReplayArgsError> {
    let (options, turns) = read_turns(kind, flags, record)?;
    let replay = AnyGame::replay(kind, &options, &turns)?;
    let ok = replay.error.is_none();
    Ok((position_json(&replay), ok))
}

/// The JSON object of `docs/replay-cli.md`, fields in the documented order.
#[must_use]
pub fn position_json(replay: &Replay) -> Value {
    let position = &replay.game;
    let status = position.status();
    let (result, reason) = match status {
        Status::Ongoing { .. } => (Value::Null, Value::Null),
        Status::Finished(ending) => (json!(ending.outcome.name()), json!(ending.reason.to_string())),
    };
    let mut object = Map::new();
    object.insert("game".into(), json!(position.kind().name()));
    object.insert(
        "options".into(),
        Value::Object(position.option_pairs().into_iter().map(|(k, v)| (k, json!(v))).collect()),
    );
    object.insert("turns".into(), json!(replay.played.len()));
    object.insert("status".into(), json!(if status.to_move().is_some() { "ongoing" } else { "finished" }));
    object.insert("result".into(), result);
    object.insert("reason".into(), reason);
    object.insert("to_move".into(), status.to_move().map_or(Value::Null, |color| json!(color.name())));
    object.insert(
        "score".into(),
        position
            .score()
            .map_or(Value::Null, |score| json!({"white": points(score.white), "black": points(score.black)})),
    );
    object.insert("board".into(), json!(position.view().rows()));
    object.insert(
        "hands".into(),
        position
            .hands()
            .map_or(Value::Null, |[white, black]| json!({"white": white.to_string(), "black": black.to_string()})),
    );
    object.insert("owner".into(), position.owner().map_or(Value::Null, owner_json));
    object.insert("legal".into(), json!(position.legal_turn_texts()));
    if let Some(error) = &replay.error {
        object.insert(
            "error".into(),
            json!({"index": error.index, "turn": error.text, "message": error.error.to_string()}),
        );
    }
    Value::Object(object)
}

/// Whole points as integers, half points as `25.5`.
fn points(points: HalfPoints) -> Value {
    if points.0 % 2 == 0 { json!(points.0 / 2) } else { json!(points.as_f64()) }
}

fn owner_json(owner: stonemate_engine::OwnerMap) -> Value {
    let name = |owner: Option<Color>| owner.map_or("neutral", Color::name);
    Value::Object(owner.into_iter().map(|(square, owner)| (square.to_string(), json!(name(owner)))).collect())
}
