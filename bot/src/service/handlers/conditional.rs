//! Conditional turns: `/conditional line:"THEIRS MINE THEIRS MINE ..."`. While his
//! opponent is to move, a player stores lines of turns he expects and his answers to them;
//! when the opponent plays the first turn of a line, the answer is played at once, in the
//! same write as the opponent's turn ([`follow`]), through the same engine checks and with
//! the same notices as a typed turn. Lines the game leaves are dropped. Only the owner
//! sees his lines (every reply about them is private); they are stored with the record, so
//! they survive a restart.

pub(crate) mod refusal;

use stonemate_engine::{AnyGame, TurnError};

use crate::service::error::Failure;
use crate::service::games::Fit;
use crate::service::handlers::counting::refusal::CountingRefusal;
use crate::service::handlers::views::cut_list;
use crate::service::loaded::Loaded;
use crate::service::parts::Parts;
use crate::service::tell;
use crate::service::types::{Attachment, Caller, GameId, Message, Reply, Response, UserId};
use crate::store::{Conditional, GameRecord};
use refusal::ConditionalRefusal;

/// Lines one player may keep waiting in one game.
pub const MAX_LINES: usize = 10;

/// Turns one line may hold (both players' together).
pub const MAX_LINE_TURNS: usize = 20;

/// The word that removes the caller's lines.
const CLEAR: &str = "clear";

/// What the waiting player's lines make of a turn just played.
#[derive(Debug, Default)]
pub(crate) struct Followed {
    /// The answer played at once: its owner and the turn as the game prints it.
    pub answer: Option<(UserId, String)>,
    /// The lines that still wait (those that went on with the answer played).
    pub lines: Vec<Conditional>,
    /// A line whose answer the game refused now: its owner and why (he is told).
    pub refused: Option<(UserId, String)>,
}

/// After `mover` played `printed` in `record`'s game (whose record has the turns before
/// it), with `position` the position after it: plays the answer of the first line of the
/// waiting player that expected this turn, on `position`, and keeps the lines that go on
/// from there. Every other line is left behind and dropped; so is every line once the game
/// is over or counting.
pub(crate) fn follow(record: &GameRecord, mover: UserId, printed: &str, position: &mut AnyGame) -> Followed {
    let count = record.turns.len();
    let expecting: Vec<&Conditional> = record
        .pending
        .conditionals
        .iter()
        .filter(|line| line.owner != mover && line.at == count && line.turns.first().is_some_and(|t| t == printed))
        .collect();
    let Some(first) = expecting.first() else { return Followed::default() };
    if position.to_move().is_none() || position.is_counting() {
        return Followed::default();
    }
    let answer = &first.turns[1];
    let mut after = position.clone();
    let printed = match after.parse_turn(answer).and_then(|turn| after.play_turn(turn)) {
        Ok(printed) => printed,
        Err(error) => {
            return Followed { refused: Some((first.owner, format!("{answer}: {error}"))), ..Followed::default() };
        }
    };
    *position = after;
    let lines = expecting
        .iter()
        .filter(|line| line.turns.get(1) == Some(answer) && line.turns.len() > 2)
        .map(|line| Conditional { owner: line.owner, turns: line.turns[2..].to_vec(), at: count + 2 })
        .collect();
    Followed { answer: Some((first.owner, printed)), lines, refused: None }
}

/// What the owner of a line is told when its answer was played (or refused).
pub(crate) fn owner_notices(
    parts: &Parts,
    (game, players): (&Loaded, &crate::service::users::Players),
    followed: &Followed,
    after: &str,
) -> Vec<crate::service::Notice> {
    let record = &game.record;
    let mut notices = Vec::new();
    if let Some((owner, answer)) = &followed.answer {
        let message = Message::new()
            .ping(*owner, record.name_of(*owner))
            .push(format!(", your conditional turn {answer} was played in {} after {after}.", record.id));
        notices.extend(tell::tell(parts, (record, players), *owner, message, false));
    }
    if let Some((owner, why)) = &followed.refused {
        let message = Message::new()
            .ping(*owner, record.name_of(*owner))
            .push(format!(", your conditional line in {} could not go on: {why}. It was dropped.", record.id));
        notices.extend(tell::tell(parts, (record, players), *owner, message, false));
    }
    notices
}

/// `/conditional`: without `line`, the caller's lines (privately); `line:clear` removes
/// them; otherwise stores the line, checked turn by turn from the position now.
pub(crate) fn conditional(
    parts: &Parts,
    caller: &Caller,
    id: Option<GameId>,
    line: Option<&str>,
) -> Result<Response, Failure> {
    let game = parts.games.open(caller, id, Fit::OpponentToMove)?;
    game.check_playing(caller.user.id)?;
    match line.map(str::trim).filter(|line| !line.is_empty()) {
        None => Ok(reply_about(&game, shown(&game, caller.user.id))),
        Some(line) if line.eq_ignore_ascii_case(CLEAR) => clear(parts, caller, game),
        Some(line) => store(parts, caller, game, line),
    }
}

/// A reply about `game` (private, as `/conditional` is declared). Lines that do not fit
/// in one message come whole in a text file, the message showing those that fit.
fn reply_about(game: &Loaded, text: String) -> Response {
    let mut reply = Reply { ok: true, about: Some(game.id()), ..Reply::default() };
    let (head, lines) = text.split_once('\n').unwrap_or((&text, ""));
    let lines: Vec<String> = lines.lines().map(str::to_owned).collect();
    let file = format!("conditional-{}.txt", game.id().0);
    let shown = cut_list(&format!("{head}\n"), &lines, "\n", |more| format!("\n… and {more} more: all are in {file}"));
    if shown.chars().count() < text.chars().count() {
        reply.files.push(Attachment::file(file, format!("{text}\n").into_bytes()));
        reply.message = Message::from(shown);
    } else {
        reply.message = Message::from(text);
    }
    Response { reply, notices: Vec::new() }
}

/// The lines of `owner` in `game`, one per line: `1. if e5 then d4, if c3 then d3`.
fn shown(game: &Loaded, owner: UserId) -> String {
    let mine: Vec<&Conditional> = game.record.pending.conditionals.iter().filter(|line| line.owner == owner).collect();
    if mine.is_empty() {
        return format!("You have no conditional lines in {}. Only you see them.", game.id());
    }
    let mut lines = vec![format!("Your conditional lines in {} (only you see them):", game.id())];
    for (number, line) in mine.iter().enumerate() {
        let pairs: Vec<String> = line.turns.chunks(2).map(|pair| format!("if {} then {}", pair[0], pair[1])).collect();
        lines.push(format!("{}. {}", number + 1, pairs.join(", ")));
    }
    lines.join("\n")
}

/// `line:clear`.
fn clear(parts: &Parts, caller: &Caller, game: Loaded) -> Result<Response, Failure> {
    let me = caller.user.id;
    let had = game.record.pending.conditionals.iter().filter(|line| line.owner == me).count();
    if had == 0 {
        return Ok(reply_about(&game, shown(&game, me)));
    }
    let game =
        parts.commit(game, |record| record.pending.conditionals.retain(|line| line.owner != me), |_| Vec::new())?.game;
    let plural = if had == 1 { "" } else { "s" };
    Ok(reply_about(&game, format!("Removed your {had} conditional line{plural} in {}.", game.id())))
}

/// Stores a line: pairs of turns, the opponent's first, each legal where the line puts it.
fn store(parts: &Parts, caller: &Caller, game: Loaded, line: &str) -> Result<Response, Failure> {
    let me = caller.user.id;
    let side = game.check_playing(me)?;
    if game.record.pending.counting.is_some() || game.position.is_counting() {
        return Err(CountingRefusal::Counting(game.id()).into());
    }
    if game.to_move() != Some(side.other()) {
        return Err(ConditionalRefusal::OwnTurn(game.id()).into());
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 2 || words.len() % 2 != 0 {
        return Err(ConditionalRefusal::Pairs.into());
    }
    let limit = ConditionalRefusal::Limit { lines: MAX_LINES, turns: MAX_LINE_TURNS };
    let mine = game.record.pending.conditionals.iter().filter(|line| line.owner == me).count();
    if words.len() > MAX_LINE_TURNS || mine >= MAX_LINES {
        return Err(limit.into());
    }
    let turns = checked(&game.position, &words)?;
    let at = game.record.turns.len();
    let mine = game.record.pending.conditionals.iter().filter(|line| line.owner == me && line.at == at);
    for (number, line) in mine.enumerate() {
        disagreement(number + 1, &line.turns, &turns)?;
    }
    let stored = Conditional { owner: me, turns, at };
    let game = parts.commit(game, |record| record.pending.conditionals.push(stored), |_| Vec::new())?.game;
    Ok(reply_about(&game, format!("Stored. {}", shown(&game, me))))
}

/// The line's turns as the game prints them, each played where the line puts it (a turn
/// after the game would be over is refused by the game); or the first one refused.
/// Refuses a `new` line that repeats stored line `number` (`old`, from the same position),
/// or that answers an opponent's turn both expect with another turn than it does: when
/// that turn comes, only the first line's answer would be played.
fn disagreement(number: usize, old: &[String], new: &[String]) -> Result<(), ConditionalRefusal> {
    if old == new {
        return Err(ConditionalRefusal::Duplicate(number));
    }
    for (old, new) in old.chunks(2).zip(new.chunks(2)) {
        if old[0] != new[0] {
            return Ok(());
        }
        if old[1] != new[1] {
            let clear = crate::service::options::keys::Conditional::line.usage(CLEAR).to_string();
            return Err(ConditionalRefusal::Conflict {
                line: number,
                expected: old[0].clone(),
                stored: old[1].clone(),
                clear,
            });
        }
    }
    Ok(())
}

fn checked(position: &AnyGame, words: &[&str]) -> Result<Vec<String>, Failure> {
    let mut position = position.clone();
    let mut turns = Vec::with_capacity(words.len());
    for (index, word) in words.iter().enumerate() {
        let refused = |error: TurnError| ConditionalRefusal::Turn {
            number: index + 1,
            turn: word.chars().take(20).collect(),
            error,
        };
        let turn = position.parse_turn(word).map_err(refused)?;
        turns.push(position.play_turn(turn).map_err(refused)?);
    }
    Ok(turns)
}
