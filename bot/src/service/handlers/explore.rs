//! `/explore line:"e5 d4 c3"`: privately, the line played on a copy of the game as far as
//! the game allows it, through the same checks as every turn ([`AnyGame::play_turn`]), and
//! the board after the legal part; the first turn the game refuses is named with the
//! game's own reason. The game itself is not touched, and nothing is searched or
//! estimated. A line of any length is answered in one message: the turns played are
//! listed up to a point, and a refused turn is quoted by its first characters.
//!
//! When the line fits `/conditional` for the caller (his opponent is to move and the line
//! starts with the opponent's reply), the reply offers **Keep as conditional**, which
//! stores it as `/conditional` would ([`keep`]).

pub(crate) mod refusal;

use stonemate_engine::{AnyGame, TurnError};

use crate::service::buttons::{Action, KeptLine};
use crate::service::error::{Failure, Refusal};
use crate::service::games::Fit;
use crate::service::loaded::Loaded;
use crate::service::options::keys;
use crate::service::parts::Parts;
use crate::service::text;
use crate::service::types::{Button, ButtonStyle, Caller, GameId, Reply, Response, UserId};
use crate::store::Phase;
use refusal::ExploreRefusal;

use super::conditional::{self, MAX_LINE_TURNS, MAX_LINES};

/// Turns of a line played at most: a line longer than any game is cut here, so that a
/// long text costs no more than this many checked turns.
pub const MAX_EXPLORED: usize = 1000;

/// Turns the reply lists by name; the rest are counted.
const LISTED: usize = 60;

/// Characters of the game's reason for a refused turn shown at most (a reason quotes
/// what was typed).
const REASON: usize = 300;

/// A line played on a copy of a game: the position after its legal part, the turns
/// played as the game prints them, and the first turn refused, if any.
pub(crate) struct Explored {
    /// The position after the last turn played.
    pub position: AnyGame,
    /// The turns played, as the game prints them.
    pub played: Vec<String>,
    /// The first turn refused: its place in the line (from 1), as typed, and why.
    pub refused: Option<(usize, String, TurnError)>,
    /// Whether the line had more than [`MAX_EXPLORED`] turns (the rest were not played).
    pub cut: bool,
}

/// `/explore`: the line tried in `id` (default: the caller's game here), privately.
pub(crate) fn explore(parts: &Parts, caller: &Caller, id: Option<GameId>, line: &str) -> Result<Response, Failure> {
    let game = parts.games.open(caller, id, Fit::Any)?;
    if game.record.phase == Phase::Finished {
        return Err(Refusal::GameOver { id: game.id(), result: game.result() }.into());
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.is_empty() {
        return Err(ExploreRefusal::EmptyLine(keys::Explore::line.usage("\"e5 d4 c3\"").to_string()).into());
    }
    let explored = play_line(&game.position, &words);
    let message = described(&game, &explored);
    let images = vec![parts.pictures.board_at(&game, &explored.position, caller.user.id, Vec::new())];
    let buttons = keep_button(&game, caller.user.id, &words, &explored).into_iter().collect();
    let reply =
        Reply { ok: true, message: message.into(), images, buttons, about: Some(game.id()), ..Reply::default() };
    Ok(Response { reply, notices: Vec::new() })
}

/// **Keep as conditional**, when the line (all of it played, as `explored` shows) fits
/// `/conditional` for the caller: he plays the game, his opponent is to move (not
/// counting), the line is pairs of turns within the limits, he may keep one more line,
/// and it is short enough for a button's id. Each turn is kept as typed or as printed,
/// whichever is shorter (both read as the same turn there).
fn keep_button(game: &Loaded, caller: UserId, words: &[&str], explored: &Explored) -> Option<Button> {
    let side = game.record.seats.side_of(caller)?;
    let counting = game.record.pending.counting.is_some() || game.position.is_counting();
    let mine = game.record.pending.conditionals.iter().filter(|line| line.owner == caller).count();
    let turns = explored.played.len();
    let fits = turns >= 2 && turns % 2 == 0 && turns <= MAX_LINE_TURNS && mine < MAX_LINES;
    if counting || game.to_move() != Some(side.other()) || explored.refused.is_some() || explored.cut || !fits {
        return None;
    }
    let shortest = words.iter().zip(&explored.played).map(|(typed, printed)| {
        if typed.len() < printed.len() && !typed.contains(',') { *typed } else { printed.as_str() }
    });
    let line = KeptLine::new(&shortest.collect::<Vec<_>>().join(","))?;
    let button = Action::Keep { id: game.id(), version: game.record.version, line }
        .button("Keep as conditional", ButtonStyle::Primary);
    (button.custom_id.len() <= MAX_CUSTOM_ID).then_some(button)
}

/// The longest `custom_id` Discord takes.
const MAX_CUSTOM_ID: usize = 100;

/// The **Keep as conditional** button: stores `line` as `/conditional` would, when the
/// game's record is still at `version`, where `/explore` showed it.
pub(crate) fn keep(
    parts: &Parts,
    caller: &Caller,
    id: GameId,
    version: u64,
    line: KeptLine,
) -> Result<Response, Failure> {
    let game = parts.games.open(caller, Some(id), Fit::Any)?;
    if game.record.version != version {
        return Err(ExploreRefusal::MovedOn(id).into());
    }
    let spaced: Vec<&str> = line.turns().collect();
    conditional::conditional(parts, caller, Some(id), Some(&spaced.join(" ")))
}

/// Plays `words` on a copy of `position`, each read and checked as a typed turn is, up to
/// the first the game refuses (or [`MAX_EXPLORED`] turns).
pub(crate) fn play_line(position: &AnyGame, words: &[&str]) -> Explored {
    let mut position = position.clone();
    let mut played = Vec::new();
    for (index, word) in words.iter().take(MAX_EXPLORED).enumerate() {
        match position.parse_turn(word).and_then(|turn| position.play_turn(turn)) {
            Ok(printed) => played.push(printed),
            Err(error) => {
                let refused = Some((index + 1, text::short(word), error));
                return Explored { position, played, refused, cut: false };
            }
        }
    }
    Explored { position, played, refused: None, cut: words.len() > MAX_EXPLORED }
}

/// The reply's text: the turns played, the one refused, and where the board stands.
fn described(game: &Loaded, explored: &Explored) -> String {
    let Explored { position, played, refused, cut } = explored;
    let mut parts =
        vec![format!("Explored in {} from the position now (only you see it; the game is not touched):", game.id())];
    parts.push(match played.len() {
        0 => "no turn played.".to_owned(),
        count => format!("{} played: {}.", text::counted(count, "turn", "turns"), listed(played)),
    });
    if let Some((number, typed, error)) = refused {
        parts.push(format!("Turn {number}, `{typed}`, is refused: {}.", reason(error)));
    }
    if *cut {
        parts.push(format!("The line was cut after {MAX_EXPLORED} turns."));
    }
    let after = if played.is_empty() { "as it stands".to_owned() } else { format!("after turn {}", played.len()) };
    let next = match position.to_move() {
        Some(side) => format!("{} to move", game.side_name(side)),
        None => "the game would be over".to_owned(),
    };
    parts.push(format!("The board shows the position {after}: {next}."));
    parts.join(" ")
}

/// The turns, the first [`LISTED`] by name.
fn listed(played: &[String]) -> String {
    let shown = played[..played.len().min(LISTED)].join(" ");
    match played.len().saturating_sub(LISTED) {
        0 => shown,
        more => format!("{shown} … and {more} more"),
    }
}

/// The game's reason for refusing a turn, cut to [`REASON`] characters.
fn reason(error: &TurnError) -> String {
    let reason = error.to_string();
    let trimmed = reason.trim_end_matches('.');
    if trimmed.chars().count() <= REASON {
        return trimmed.to_owned();
    }
    format!("{}…", trimmed.chars().take(REASON).collect::<String>())
}
