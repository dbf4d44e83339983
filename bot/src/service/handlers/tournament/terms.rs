//! The options of `/tournament` as the handlers take them: the format, the status a list
//! shows, a tournament id, the `starts` duration, and the name, each checked (a name is
//! cut, never echoed whole).

use stonemate_engine::GameKind;

use super::refusal::TournamentRefusal;
use crate::clock::Span;
use crate::ids::TournamentId;
use crate::service::error::Refusal;
use crate::service::text;

/// The most characters of a tournament's name; past that it is cut.
pub const MAX_NAME: usize = 60;
/// The longest `starts`.
const MAX_STARTS_DAYS: i64 = 60;

/// `format`: round robin (default) or Swiss.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TournamentFormat {
    /// Everyone plays everyone in divisions, all games at once.
    RoundRobin,
    /// Rounds paired by score.
    Swiss,
}

/// `status` of `/tournament list`: open and running when left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListStatus {
    /// Open and running ones.
    Current,
    /// Open ones.
    Open,
    /// Running ones.
    Running,
    /// Finished ones (and cancelled ones).
    Finished,
}

/// What `/tournament create` asks for, as typed.
#[derive(Debug)]
pub(crate) struct Terms {
    pub game: GameKind,
    pub format: TournamentFormat,
    pub days: Option<u32>,
    pub options: Option<String>,
    pub name: Option<String>,
    pub rounds: Option<u32>,
    pub double: Option<bool>,
    pub division: Option<u32>,
    pub max: Option<u32>,
    pub starts: Option<String>,
    pub rated: Option<bool>,
}

/// The start of a typed value, as refusals quote it.
fn quoted(typed: &str) -> String {
    text::short(typed)
}

/// Reads `format`.
pub(crate) fn format(typed: Option<&str>) -> Result<TournamentFormat, Refusal> {
    match typed.map(|text| text.trim().to_ascii_lowercase()).as_deref() {
        None | Some("" | "round-robin" | "roundrobin" | "rr") => Ok(TournamentFormat::RoundRobin),
        Some("swiss") => Ok(TournamentFormat::Swiss),
        Some(_) => Err(TournamentRefusal::BadFormat(quoted(typed.unwrap_or_default())).into()),
    }
}

/// Reads the list's `status`.
pub(crate) fn status(typed: Option<&str>) -> Result<ListStatus, Refusal> {
    match typed.map(|text| text.trim().to_ascii_lowercase()).as_deref() {
        None | Some("") => Ok(ListStatus::Current),
        Some("open") => Ok(ListStatus::Open),
        Some("running") => Ok(ListStatus::Running),
        Some("finished") => Ok(ListStatus::Finished),
        Some(_) => Err(crate::service::input::BadValue::Status(quoted(typed.unwrap_or_default())).into()),
    }
}

/// Reads a tournament id: `T1`, `t1` or `1` (blank: none).
pub(crate) fn id(typed: Option<&str>) -> Result<Option<TournamentId>, Refusal> {
    let Some(typed) = typed.filter(|text| !text.trim().is_empty()) else { return Ok(None) };
    let digits = typed.trim().trim_start_matches(['T', 't', '#']).trim();
    match digits.parse::<u32>() {
        Ok(number) if number > 0 => Ok(Some(TournamentId(number))),
        _ => Err(TournamentRefusal::BadId(quoted(typed)).into()),
    }
}

/// Reads `starts`: a number and `d`, `h` or `m` (`2d`, `12h`, `1d12h`), at most 60 days.
pub(crate) fn starts(typed: &str) -> Result<Span, TournamentRefusal> {
    let bad = || TournamentRefusal::BadDuration(quoted(typed));
    let mut total = 0i64;
    let mut number = String::new();
    for ch in typed.trim().chars() {
        match ch {
            '0'..='9' if number.len() < 6 => number.push(ch),
            'd' | 'h' | 'm' if !number.is_empty() => {
                let value: i64 = number.parse().map_err(|_| bad())?;
                total += value
                    * match ch {
                        'd' => 1_440,
                        'h' => 60,
                        _ => 1,
                    };
                number.clear();
            }
            _ => return Err(bad()),
        }
    }
    if !number.is_empty() || total == 0 || total > MAX_STARTS_DAYS * 1_440 {
        return Err(bad());
    }
    Ok(Span(total * Span::MINUTE.0))
}

/// The name as stored: one line, trimmed, at most [`MAX_NAME`] characters (cut, with
/// `…`); the game's title when none is given.
pub(crate) fn name(typed: Option<&str>, game: GameKind) -> String {
    let line: String = typed.unwrap_or_default().chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let line = line.trim();
    if line.is_empty() {
        return format!("{} tournament", game.title());
    }
    if line.chars().count() <= MAX_NAME {
        return line.to_owned();
    }
    let mut cut: String = line.chars().take(MAX_NAME - 1).collect();
    cut.push('…');
    cut
}

/// The user of a tournament player (the domain numbers players by their user ids).
pub(crate) fn user_of(player: stonemate_tournament::PlayerId) -> crate::ids::UserId {
    crate::ids::UserId(player.0)
}
