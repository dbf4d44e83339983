//! Commands that look and do not play: `/board`, `/history`, `/games`, `/legal`,
//! `/rules`, and `/notify` (a user setting).

use std::cmp::Reverse;
use std::fmt::Write as _;

use stonemate_engine::{Analysis, GameKind, Square, Turn};

use crate::service::buttons::Action;
use crate::service::error::Failure;
use crate::service::error::Refusal;
use crate::service::games::Fit;
use crate::service::input::BadValue;
use crate::service::loaded::Loaded;
use crate::service::message::Message;
use crate::service::options::keys;
use crate::service::parts::Parts;
use crate::service::rules;
use crate::service::text;
use crate::service::types::{Button, ButtonStyle, Caller, GameId, GameStatus, Reply, Response, User, UserId};
use crate::store::{Finish, Phase};

/// Replies longer than this are cut (Discord allows 2000 characters).
const MAX_TEXT: usize = 1800;

/// `head` followed by as many whole `items` as fit in one message, joined by `separator`;
/// when some are left out, `rest(count)` says how many and how to see them.
pub(crate) fn cut_list(head: &str, items: &[String], separator: &str, rest: impl Fn(usize) -> String) -> String {
    let whole = format!("{head}{}", items.join(separator));
    if whole.chars().count() <= MAX_TEXT {
        return whole;
    }
    // The note for all items is the longest, so every shorter one fits too.
    let room = MAX_TEXT.saturating_sub(rest(items.len()).chars().count());
    let mut text = head.to_owned();
    let mut length = text.chars().count();
    for (shown, item) in items.iter().enumerate() {
        let gap = if shown == 0 { "" } else { separator };
        length += gap.chars().count() + item.chars().count();
        if length > room {
            text.push_str(&rest(items.len() - shown));
            return text;
        }
        text.push_str(gap);
        text.push_str(item);
    }
    text
}

/// One line about where a record stands: whose turn, the result, or the challenge state.
pub(crate) fn state(parts: &Parts, game: &Loaded) -> String {
    let record = &game.record;
    match record.phase {
        Phase::Playing => match super::counting::standing(game) {
            // While counting, nobody moves: one player's answer to the proposal is due.
            Some(counting) => {
                let answering = super::counting::answerer(game, counting).and_then(|side| record.seats.player(side));
                let name = answering.map_or("nobody", |user| record.name_of(user));
                let time = parts.clocks.time_left(record);
                format!("counting: {} to answer the proposal of dead pieces{time}", text::name(name))
            }
            None => {
                let name = game.mover().map_or("nobody", |user| record.name_of(user));
                format!("{} to move{}", text::name(name), parts.clocks.time_left(record))
            }
        },
        Phase::Finished if record.result.as_ref().is_some_and(Finish::by_rules) => {
            format!("{}{}", game.result(), game.score())
        }
        Phase::Finished => game.result(),
        Phase::Challenge => "a challenge waiting for an answer".to_owned(),
        Phase::Declined => "a declined challenge".to_owned(),
        Phase::Withdrawn => "a withdrawn challenge".to_owned(),
        Phase::Expired => "an expired challenge".to_owned(),
    }
}

/// `/board`: anyone in the game's server may look at it.
pub(crate) fn show_board(parts: &Parts, caller: &Caller, text: Option<GameId>) -> Result<Response, Failure> {
    let game = parts.games.open_viewed(caller, text, Fit::Any)?;
    let record = &game.record;
    let text = format!(
        "{} {} ({}): {}, {} played; {}.",
        record.id,
        record.kind.title(),
        options_shown(&game),
        game.sides(),
        text::counted(record.turns.len(), "turn", "turns"),
        state(parts, &game)
    );
    let images = vec![parts.pictures.public_board(&game)];
    // A finished game's board offers its players a rematch; the player to move, his picker.
    let buttons = match record.phase {
        Phase::Finished if record.origin.tournament.is_none() => Some(Button::rematch(record.id)),
        Phase::Playing if game.mover() == Some(caller.user.id) && super::counting::standing(&game).is_none() => {
            Some(Button::play(record.id))
        }
        _ => None,
    };
    Ok(Response {
        reply: Reply {
            ok: true,
            message: Message::from(text).then(super::tournament::board_line(parts, record)),
            images,
            buttons: buttons.into_iter().collect(),
            about: Some(record.id),
            ..Reply::default()
        },
        notices: vec![],
    })
}

/// The game's options as `/board` shows them: the record's, and `analysis` also where it
/// is `on` (a record leaves that default out).
fn options_shown(game: &Loaded) -> String {
    let mut options: Vec<String> = game.record.options.iter().map(|(key, value)| format!("{key}={value}")).collect();
    if game.position.analysis() == Analysis::On {
        options.push(format!("{}=on", Analysis::KEY));
    }
    options.join(" ")
}

/// The turns numbered in pairs: `1. d4 e5`, `2. c4 pass`.
pub(crate) fn numbered(turns: &[String]) -> Vec<String> {
    turns.chunks(2).enumerate().map(|(number, pair)| format!("{}. {}", number + 1, pair.join(" "))).collect()
}

/// The record as a file `stonemate replay` reads back: comments, then numbered turns.
pub fn record_file(game: &Loaded) -> String {
    let record = &game.record;
    let options: Vec<String> = record.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let arguments: Vec<String> = options
        .iter()
        .map(|pair| if pair.contains(' ') { format!("--option \"{pair}\"") } else { format!("--option {pair}") })
        .collect();
    let mut file = format!("# Stonemate {}: {}\n# {}\n", record.id, record.kind.name(), game.sides());
    let _ = writeln!(file, "# options: {}", options.join(" "));
    if record.phase == Phase::Finished {
        let _ = writeln!(file, "# result: {}", game.result());
    }
    let _ = writeln!(
        file,
        "# replay: stonemate replay --game {} {} game-{}.txt",
        record.kind.name(),
        arguments.join(" "),
        record.id.0
    );
    for (number, pair) in record.turns.chunks(2).enumerate() {
        let _ = writeln!(file, "{}. {}", number + 1, pair.join(" "));
    }
    file
}

/// Active games and challenges listed per page of `/games`: a page's lines stay well
/// within Discord's 2,000 characters.
const ACTIVE_PAGE: usize = 20;

/// `/games`: one page of the active games and pending challenges of a user (the caller
/// by default), the games most urgent first, then the challenges.
pub(crate) fn games(parts: &Parts, caller: &Caller, user: Option<&User>, page: u32) -> Result<Response, Failure> {
    let user = user.unwrap_or(&caller.user);
    let mut lines = Vec::new();
    let active = by_urgency(parts, caller, user.id)?;
    parts.games.saw(&active);
    for game in &active {
        let record = &game.record;
        let opponent = text::name(record.name_of(record.seats.other(user.id)));
        lines.push(format!("{} {} vs {opponent}: {}", record.id, record.kind.name(), state(parts, game)));
    }
    for record in parts.games.records_of(caller, user.id, Phase::Challenge)? {
        let kind = record.kind.name();
        let line = if record.seats.is_open() {
            format!("{} {kind} open challenge, waiting for anyone", record.id)
        } else if record.challenger() == user.id {
            format!("{} {kind} challenge to {}, waiting", record.id, text::name(&record.seats.opponent.name))
        } else {
            format!("{} {kind} challenge from {}, to answer", record.id, text::name(&record.seats.challenger.name))
        };
        lines.push(line);
    }
    let name = text::name(&user.name);
    let Some((shown, pages)) = page_of(lines.len(), ACTIVE_PAGE, page)? else {
        let reply = Reply {
            ok: true,
            message: format!("{name} has no active games or challenges.").into(),
            ..Reply::default()
        };
        return Ok(Response { reply, notices: Vec::new() });
    };
    let head = match pages {
        1 => format!("{name}'s games:\n"),
        _ => format!("{name}'s games (page {page} of {pages}):\n"),
    };
    let mut text = cut_list(&head, &lines[shown], "\n", |more| format!("\n… and {more} more on this page"));
    if page < pages {
        text.push_str(&format!("\nMore: `{}`", keys::Games::page.usage(page + 1)));
    }
    let reply = Reply { ok: true, message: text.into(), ..Reply::default() };
    Ok(Response { reply, notices: Vec::new() })
}

/// `user`'s games being played that the caller may see: those where `user` is to move
/// first, least time left first (games without a clock after those with one), then the
/// others by id.
fn by_urgency(parts: &Parts, caller: &Caller, user: UserId) -> Result<Vec<Loaded>, Failure> {
    let mut games = Vec::new();
    for record in parts.games.records_of(caller, user, Phase::Playing)? {
        games.push(parts.games.loaded(record)?);
    }
    // Sorting is stable: the ids' order stays among equals.
    games.sort_by_key(|game| match game.mover() == Some(user) {
        true => (false, game.record.clock.map_or(i64::MAX, |clock| clock.deadline.0)),
        false => (true, 0),
    });
    Ok(games)
}

impl Button {
    /// The Next game button: the board of game `id`, the presser's most urgent game where
    /// he is to move.
    #[must_use]
    pub fn next_game(id: GameId) -> Button {
        Action::NextGame { id }.button("Next game", ButtonStyle::Secondary)
    }
}

/// The caller's most urgent game where he is to move, other than `current`: the one the
/// Next game button leads to. It costs the same however many games he plays
/// ([`Games::next_to_play`](crate::service::games::Games::next_to_play)).
pub(crate) fn most_urgent(parts: &Parts, caller: &Caller, current: &Loaded) -> Option<GameId> {
    parts.games.next_to_play(caller, current).ok().flatten()
}

/// Finished games listed per page of `/games status:finished`.
const PAGE: usize = 10;

/// `/games status:finished`: one page of a user's finished games (the caller's by
/// default), most recently finished first, each with its result and when it ended.
pub(crate) fn finished_games(
    parts: &Parts,
    caller: &Caller,
    user: Option<&User>,
    page: u32,
) -> Result<Response, Failure> {
    let user = user.unwrap_or(&caller.user);
    let mut records = parts.games.records_of(caller, user.id, Phase::Finished)?;
    // Records from before the end was dated come after the dated ones, newest id first.
    records.sort_by_key(|record| Reverse((record.result.as_ref().and_then(|result| result.finished), record.id)));
    let name = text::name(&user.name);
    let Some((shown, pages)) = page_of(records.len(), PAGE, page)? else {
        let reply = Reply { ok: true, message: format!("{name} has no finished games.").into(), ..Reply::default() };
        return Ok(Response { reply, notices: Vec::new() });
    };
    let mut lines = Vec::new();
    for record in records.into_iter().skip(shown.start).take(shown.len()) {
        let game = parts.games.loaded(record)?;
        let record = &game.record;
        let opponent = text::name(record.name_of(record.seats.other(user.id)));
        let when = record.result.as_ref().and_then(|result| result.finished);
        let when = when.map_or_else(String::new, |at| format!(", ended {}", parts.clocks.deadline(at)));
        lines.push(format!("{} {} vs {opponent}: {}{when}", record.id, record.kind.name(), state(parts, &game)));
    }
    let head = format!(
        "{name}'s finished games, newest first (page {page} of {pages}):
"
    );
    let mut text = cut_list(&head, &lines, "\n", |more| format!("\n… and {more} more on this page"));
    if page < pages {
        let older = keys::Games::status.usage(GameStatus::Finished.name()).and(keys::Games::page, page + 1);
        text.push_str(&format!("\nOlder ones: `{older}`"));
    }
    let reply = Reply { ok: true, message: text.into(), ..Reply::default() };
    Ok(Response { reply, notices: Vec::new() })
}

/// Page `page` (from 1) of a list of `count` items, `per_page` a page: the items it
/// shows and how many pages there are; `None` for an empty list, refused past the end.
fn page_of(count: usize, per_page: usize, page: u32) -> Result<Option<(std::ops::Range<usize>, u32)>, Refusal> {
    let pages = u32::try_from(count.div_ceil(per_page)).unwrap_or(u32::MAX);
    if pages == 0 {
        return Ok(None);
    }
    if page == 0 || page > pages {
        return Err(Refusal::NoSuchPage { page, pages });
    }
    let first = (page as usize - 1) * per_page;
    Ok(Some((first..count.min(first + per_page), pages)))
}

/// Where a turn is on the board: the squares it starts from (a drop's own square, every
/// cell of a tandem's pair, nothing for a pass) and the square it ends on. The one place a
/// [`Turn`] becomes squares, for `/legal` and its autocompletion.
pub(crate) fn turn_squares(turn: &Turn) -> (Vec<Square>, Option<Square>) {
    match *turn {
        Turn::Pass => (Vec::new(), None),
        Turn::Drop { to, .. } => (vec![to], Some(to)),
        Turn::Move { from, to, .. } | Turn::Relocate { from, to, .. } => (vec![from], Some(to)),
        Turn::Tandem { from, to } => (from.cells().collect(), Some(to)),
    }
}

/// A square to name in the hint of a cut list: where the last turn (one left out) with one
/// start square starts.
fn example_square(turns: &[Turn]) -> String {
    let start = |turn: &Turn| match turn_squares(turn).0.as_slice() {
        [square] => Some(*square),
        _ => None,
    };
    turns.iter().rev().find_map(start).map_or_else(|| "e4".to_owned(), |square| square.to_string())
}

/// `/legal`: the legal turns (from one square), highlighted on the board.
pub(crate) fn legal(
    parts: &Parts,
    caller: &Caller,
    text: Option<GameId>,
    square: Option<&str>,
) -> Result<Response, Failure> {
    let game = parts.games.open_viewed(caller, text, Fit::ToMove)?;
    let (record, position) = (&game.record, &game.position);
    if record.phase == Phase::Finished {
        // Over by a resignation, a time out or an agreement, the position still has
        // turns; none of them may be played.
        return Err(Refusal::GameOver { id: record.id, result: game.result() }.into());
    }
    let square = match square.map(str::trim).filter(|s| !s.is_empty()) {
        Some(text) => Some(text.parse::<Square>().map_err(|_| BadValue::Square(text.chars().take(20).collect()))?),
        None => None,
    };
    let turns: Vec<Turn> = position
        .legal_turns()
        .into_iter()
        .filter(|turn| square.is_none_or(|s| turn_squares(turn).0.contains(&s)))
        .collect();
    let mut highlights: Vec<Square> = turns.iter().filter_map(|turn| turn_squares(turn).1).collect();
    highlights.dedup();
    let names: Vec<String> = turns.iter().map(|turn| position.format_turn(*turn)).collect();
    let from = square.map_or(String::new(), |square| format!(" from {square}"));
    let text = match (record.phase, names.len()) {
        (Phase::Challenge, _) => format!("{} has not started yet.", record.id),
        (_, 0) => format!("{}: no legal turn{from}.", record.id),
        (_, count) => {
            let head = format!("{}: {count} legal turn{}{from}: ", record.id, if count == 1 { "" } else { "s" });
            cut_list(&head, &names, ", ", |more| {
                let usage = keys::Legal::square.usage(example_square(&turns));
                format!(", … and {more} more: name a square to see its turns, as in `{usage}`")
            })
        }
    };
    let images = vec![parts.pictures.board(&game, caller.user.id, highlights)];
    let reply = Reply { ok: true, message: text.into(), images, about: Some(record.id), ..Reply::default() };
    Ok(Response { reply, notices: Vec::new() })
}

/// `/rules`: a summary of a game's rules and notation.
pub(crate) fn rules(kind: GameKind) -> Result<Response, Failure> {
    let text = rules::summary(kind).to_owned();
    Ok(Response { reply: Reply { ok: true, message: text.into(), ..Reply::default() }, notices: Vec::new() })
}
