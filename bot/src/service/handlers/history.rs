//! `/history` at any turn: the view of a game with the board after one of its turns, the
//! First / Back / Next / Last buttons that step through it, and the records attached in
//! the formats players' tools read (SGF for `go`, PGN for `ichess`).
//!
//! A button's `custom_id` names its step, the game and the turn it shows
//! (`history-back:12:4`), so a press needs nothing but the stored record: buttons keep
//! working after a restart, and an id we did not make is refused like any unknown button.
//! The view is public, anyone in the game's server may step it, and a step replaces the
//! pressed message ([`Reply::replaces_message`]) rather than adding one per press.

use stonemate_engine::formats::{self, Date, Record};
use stonemate_engine::{AnyGame, GameKind};

use super::views;
use crate::clock::Timestamp;
use crate::service::buttons::{Action, Step};
use crate::service::error::Failure;
use crate::service::error::Refusal;
use crate::service::games::Fit;
use crate::service::loaded::Loaded;
use crate::service::parts::Parts;
use crate::service::types::{Attachment, Button, ButtonStyle, Caller, GameId, Reply, Response};
use crate::store::Phase;

/// The buttons of a view of game `id` showing the board after `shown` of its `turns`.
fn buttons(id: GameId, shown: usize, turns: usize) -> Vec<Button> {
    let button = |step: Step| {
        let turn = step.target(shown, turns)?;
        Some(Action::History { step, id, turn }.button(step.label(), ButtonStyle::Secondary))
    };
    Step::ALL.into_iter().filter_map(button).collect()
}

/// Where the board of a step stands: `the board after turn 5 of 20 (3. R@e5)`.
fn shown_line(game: &Loaded, shown: usize) -> String {
    let turns = &game.record.turns;
    match shown.checked_sub(1).and_then(|index| turns.get(index).map(|turn| (index, turn))) {
        None => format!("Shown: the start, before turn 1 of {}.", turns.len()),
        Some((index, turn)) => {
            let dots = if index % 2 == 0 { "." } else { "..." };
            format!("Shown: the board after turn {shown} of {} ({}{dots} {turn}).", turns.len(), index / 2 + 1)
        }
    }
}

/// The history of `game` with the board after its first `shown` turns (at most all
/// of them): the numbered turns, the board, the record files, and the step buttons.
pub(crate) fn history_view(parts: &Parts, game: &Loaded, shown: usize) -> Result<Reply, Failure> {
    let record = &game.record;
    let turns = record.turns.len();
    let head = format!("{} {}: {}; {}.\n", record.id, record.kind.title(), game.sides(), views::state(parts, game));
    let text = if record.turns.is_empty() {
        format!("{head}no turns yet")
    } else {
        views::cut_list(&head, &views::numbered(&record.turns), " ", |more| {
            format!(" … ({more} more: the whole record is in the file)")
        })
    };
    let record_file = Attachment::file(format!("game-{}.txt", record.id.0), views::record_file(game).into_bytes());
    let mut files = vec![record_file];
    files.extend(export(game));
    Ok(Reply {
        ok: true,
        message: text.into(),
        images: vec![board_after(parts, game, shown)?],
        files,
        buttons: buttons(record.id, shown, turns),
        about: Some(record.id),
        ..Reply::default()
    })
}

/// A press of a history button: the view at the button's turn, in place of the
/// message the button was on.
pub(crate) fn step_history(parts: &Parts, caller: &Caller, id: GameId, shown: usize) -> Result<Response, Failure> {
    let game = parts.games.open_viewed(caller, Some(id), Fit::Any)?;
    let turns = game.record.turns.len();
    if shown > turns {
        return Err(Refusal::NoSuchTurn { id, turn: shown, turns }.into());
    }
    let mut reply = history_view(parts, &game, shown)?;
    reply.message.append(format!("\n{}", shown_line(&game, shown)));
    reply.replaces_message = true;
    Ok(Response { reply, notices: Vec::new() })
}

/// `/history`: the numbered turns, the result, the record files, the board with its
/// First / Back buttons, and a replay image.
pub(crate) fn history(parts: &Parts, caller: &Caller, text: Option<GameId>) -> Result<Response, Failure> {
    let game = parts.games.open_viewed(caller, text, Fit::Any)?;
    let mut reply = history_view(parts, &game, game.record.turns.len())?;
    reply.images.extend(parts.pictures.animation(&game));
    Ok(Response { reply, notices: Vec::new() })
}

/// The public board after the first `shown` turns of `game` (the last of them marked
/// as every board marks the last turn).
fn board_after(parts: &Parts, game: &Loaded, shown: usize) -> Result<Attachment, Failure> {
    let record = &game.record;
    if shown >= record.turns.len() {
        return Ok(parts.pictures.public_board(game));
    }
    let replay = AnyGame::replay(record.kind, &record.options, &record.turns[..shown])?;
    if let Some(error) = replay.error {
        return Err(Refusal::BrokenRecord(error.to_string()).into());
    }
    Ok(parts.pictures.public_board_at(game, &replay.game))
}

/// The game in the format players' tools read, when there is one for its game: SGF for
/// `go`, PGN for `ichess`. Only games (not challenges): the players are known.
fn export(game: &Loaded) -> Option<Attachment> {
    let record = &game.record;
    if matches!(record.phase, Phase::Challenge | Phase::Declined | Phase::Withdrawn | Phase::Expired) {
        return None;
    }
    let (written, extension) = match record.kind {
        GameKind::Go => (formats::sgf::write(&exported(game)), "sgf"),
        GameKind::IChess => (formats::pgn::write(&exported(game)), "pgn"),
        _ => return None,
    };
    match written {
        Ok(text) => Some(Attachment::file(format!("stonemate-{}.{extension}", record.id.0), text.into_bytes())),
        Err(error) => {
            // The record replays (it was just loaded), so this is a bug, not user input.
            tracing::warn!(game = record.id.0, %error, "could not export a game");
            None
        }
    }
}

/// What the formats write about a stored game.
fn exported(game: &Loaded) -> Record {
    let record = &game.record;
    let ending = record.result.as_ref().map(|result| result.ending);
    Record {
        kind: record.kind,
        options: record.options.clone(),
        players: game.player_names(),
        turns: record.turns.clone(),
        ending,
        date: date(record.origin.created),
        title: Some(format!("Stonemate {}", record.id)),
        site: None,
    }
}

/// The day of `time`, in UTC.
fn date(time: Timestamp) -> Option<Date> {
    let day = time.utc_date()?;
    let month = u8::try_from(day.month()).ok()?;
    let day_of_month = u8::try_from(day.day()).ok()?;
    Some(Date { year: u16::try_from(day.year()).ok()?, month, day: day_of_month })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buttons_that_lead_nowhere_are_left_out() {
        let ids = |shown, turns| -> Vec<String> {
            buttons(GameId(7), shown, turns).into_iter().map(|button| button.custom_id).collect()
        };
        assert_eq!(ids(0, 0), Vec::<String>::new());
        assert_eq!(ids(3, 3), ["history-first:7:0", "history-back:7:2"]);
        assert_eq!(ids(0, 3), ["history-next:7:1", "history-last:7:3"]);
        assert_eq!(ids(1, 3), ["history-first:7:0", "history-back:7:0", "history-next:7:2", "history-last:7:3"]);
    }

    /// The game and the turn of a history button's `custom_id` after its prefix.
    fn parse(rest: &str) -> Option<(GameId, usize)> {
        match format!("history-{rest}").parse() {
            Ok(Action::History { id, turn, .. }) => Some((id, turn)),
            _ => None,
        }
    }

    #[test]
    fn only_ids_we_make_are_read() {
        assert_eq!(parse("back:12:4"), Some((GameId(12), 4)));
        for forged in ["back:12", "back:12:x", "back:12:-1", "back:12:+4", "sideways:12:4", "back::4", "back:12:4:5"] {
            assert_eq!(parse(forged), None, "{forged}");
        }
        assert_eq!(parse("back:99999999999:1"), None, "an id beyond u32");
    }

    #[test]
    fn the_date_is_the_utc_day() {
        assert_eq!(date(Timestamp(1_700_000_000_000)), Some(Date { year: 2023, month: 11, day: 14 }));
    }
}
