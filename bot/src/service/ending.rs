//! Ending and adjusting games: `/resign` (with its confirmation button), `/draw` and its
//! buttons, `/abort`, `/claim`, `/extratime`, `/admin-abort`.

use stonemate_engine::AnyGame;

use super::Service;
use super::error::Refusal;
use super::lookup::{self, Fit};
use super::notify;
use super::picture;
use super::play::check_playing;
use super::text;
use super::types::{Button, ButtonStyle, Caller, Reply, Response};
use crate::clock::Span;
use crate::store::{Finish, GameRecord, GameResult, Phase, Side, TurnClock};

/// The most extra days one `/extratime` gives.
pub const MAX_EXTRA_DAYS: i64 = 14;

/// How a finished record came out, as players read it: `bob (black) wins by resignation`.
pub fn result_text(record: &GameRecord) -> String {
    let Some(result) = &record.result else { return "no result".to_owned() };
    match (result.winner, result.finish) {
        (Some(side), _) => {
            let name = record.player(side).map_or_else(|| "?".to_owned(), |user| text::name(record.name_of(user)));
            let color = picture::side_name(record, side);
            format!("{name} ({color}) wins by {}", result.reason)
        }
        (None, Finish::Aborted | Finish::AdminAborted) => result.reason.clone(),
        (None, _) => format!("draw ({})", result.reason),
    }
}

/// ` (white 40, black 38.5)` for games that count points, else nothing.
pub fn score_text(game: &AnyGame) -> String {
    game.score().map_or_else(String::new, |score| format!(" (white {}, black {})", score.white, score.black))
}

/// Stores the end of a game and tells both players.
fn end(service: &Service, caller: &Caller, record: &GameRecord, result: GameResult) -> Result<Response, Refusal> {
    let mut next = record.clone();
    next.version += 1;
    next.phase = Phase::Finished;
    next.clock = None;
    next.draw_offer = None;
    next.result = Some(result);
    let game = lookup::position(service, record)?;
    service.store.update(&next)?;
    service.positions.put(next.id, next.version, &game);
    let text = format!("{} is over: {}.", next.id, result_text(&next));
    let notices = notify::result_notices(service, &next, &text, Some(caller.user.id));
    Ok(public(service, &next, &game, text, notices))
}

/// A public reply with the board from the caller's side.
fn public(
    service: &Service,
    record: &GameRecord,
    game: &AnyGame,
    text: String,
    notices: Vec<super::Notice>,
) -> Response {
    let images = vec![picture::public_board(service, record, game)];
    Response { reply: Reply { ok: true, text, images, game: Some(record.id), ..Reply::default() }, notices }
}

/// `/resign`: asks to confirm with a button; nothing changes yet.
pub fn ask_resign(service: &Service, caller: &Caller, text: Option<&str>) -> Result<Response, Refusal> {
    let record = lookup::game(service, caller, text)?;
    check_playing(&record, caller.user.id)?;
    let button =
        Button { custom_id: format!("resign:{}", record.id.0), label: "Resign".into(), style: ButtonStyle::Danger };
    let opponent = text::name(record.name_of(record.other(caller.user.id)));
    let reply = Reply {
        ok: true,
        text: format!("Resign {} against {opponent}? Press the button to confirm.", record.id),
        private: true,
        buttons: vec![button],
        game: Some(record.id),
        ..Reply::default()
    };
    Ok(Response { reply, notices: Vec::new() })
}

/// The Resign button: ends the game, the opponent wins.
pub fn resign(service: &Service, caller: &Caller, id: &str) -> Result<Response, Refusal> {
    let record = lookup::named(service, caller, id)?;
    let side = check_playing(&record, caller.user.id)?;
    let result = GameResult { winner: Some(side.other()), finish: Finish::Resignation, reason: "resignation".into() };
    end(service, caller, &record, result)
}

/// `/draw`: accepts the opponent's offer, or makes one.
pub fn draw(service: &Service, caller: &Caller, text: Option<&str>) -> Result<Response, Refusal> {
    let record = lookup::fitting(service, caller, text, Fit::DrawOffered)?;
    let side = check_playing(&record, caller.user.id)?;
    match record.draw_offer {
        Some(offer) if offer == side => Err(Refusal::DrawAlreadyOffered(record.id)),
        Some(_) => agree(service, caller, &record),
        None => offer(service, caller, &record, side),
    }
}

fn agree(service: &Service, caller: &Caller, record: &GameRecord) -> Result<Response, Refusal> {
    let result = GameResult { winner: None, finish: Finish::Agreement, reason: "agreement".into() };
    end(service, caller, record, result)
}

fn offer(service: &Service, caller: &Caller, record: &GameRecord, side: Side) -> Result<Response, Refusal> {
    let mut next = record.clone();
    next.version += 1;
    next.draw_offer = Some(side);
    let game = lookup::position(service, record)?;
    service.store.update(&next)?;
    service.positions.put(next.id, next.version, &game);
    let opponent = record.other(caller.user.id);
    let text = format!(
        "{}, {} offers a draw in {}. Accept with `/draw`, or play on to decline.",
        text::ping(record.name_of(opponent)),
        text::name(&caller.user.name),
        record.id
    );
    let mut response = public(service, &next, &game, text, Vec::new());
    response.reply.mentions.push(opponent);
    response.reply.buttons = vec![
        Button {
            custom_id: format!("draw-accept:{}", record.id.0),
            label: "Accept draw".into(),
            style: ButtonStyle::Success,
        },
        Button {
            custom_id: format!("draw-decline:{}", record.id.0),
            label: "Decline".into(),
            style: ButtonStyle::Secondary,
        },
    ];
    Ok(response)
}

/// The draw offer's buttons.
pub fn answer_draw(service: &Service, caller: &Caller, id: &str, accept: bool) -> Result<Response, Refusal> {
    let record = lookup::named(service, caller, id)?;
    let side = check_playing(&record, caller.user.id)?;
    if record.draw_offer != Some(side.other()) {
        return Err(Refusal::NoDrawOffer(record.id));
    }
    if accept {
        return agree(service, caller, &record);
    }
    let mut next = record.clone();
    next.version += 1;
    next.draw_offer = None;
    let game = lookup::position(service, &record)?;
    service.store.update(&next)?;
    service.positions.put(next.id, next.version, &game);
    let text = format!("{} declined the draw offer in {}.", text::name(&caller.user.name), record.id);
    let notices = notify::result_notices(service, &next, &text, Some(caller.user.id));
    Ok(public(service, &next, &game, text, notices))
}

/// `/abort`: no result, while no turn has been played.
pub fn abort(service: &Service, caller: &Caller, text: Option<&str>) -> Result<Response, Refusal> {
    let record = lookup::fitting(service, caller, text, Fit::Unplayed)?;
    check_playing(&record, caller.user.id)?;
    if !record.turns.is_empty() {
        return Err(Refusal::AbortTooLate(record.id));
    }
    let reason = format!("aborted by {}", text::name(&caller.user.name));
    end(service, caller, &record, GameResult { winner: None, finish: Finish::Aborted, reason })
}

/// The player to move in a game being played, and the game.
fn mover(service: &Service, record: &GameRecord) -> Result<(Side, AnyGame), Refusal> {
    let game = lookup::position(service, record)?;
    let side =
        game.to_move().map(Side::of).ok_or(Refusal::GameOver { game: record.id, result: result_text(record) })?;
    Ok((side, game))
}

/// `/claim`: the waiting player wins once the opponent's time has run out.
pub fn claim(service: &Service, caller: &Caller, text: Option<&str>) -> Result<Response, Refusal> {
    let record = lookup::fitting(service, caller, text, Fit::Claimable)?;
    let side = check_playing(&record, caller.user.id)?;
    let clock = record.clock.ok_or(Refusal::NoClock(record.id))?;
    let (to_move, _) = mover(service, &record)?;
    if to_move == side {
        return Err(Refusal::OwnTurn(record.id, "claim"));
    }
    let now = service.now();
    if clock.deadline > now {
        let name = text::name(record.name_of(record.other(caller.user.id)));
        return Err(Refusal::TimeLeft { game: record.id, name, left: (clock.deadline - now).to_string() });
    }
    let result = GameResult { winner: Some(side), finish: Finish::Timeout, reason: "time (claimed)".into() };
    end(service, caller, &record, result)
}

/// `/extratime`: more days for the opponent's current turn.
pub fn extra_time(service: &Service, caller: &Caller, text: Option<&str>, days: i64) -> Result<Response, Refusal> {
    if !(1..=MAX_EXTRA_DAYS).contains(&days) {
        return Err(Refusal::BadExtraDays(days));
    }
    let record = lookup::fitting(service, caller, text, Fit::OpponentOnClock)?;
    let side = check_playing(&record, caller.user.id)?;
    let clock = record.clock.ok_or(Refusal::NoClock(record.id))?;
    let (to_move, game) = mover(service, &record)?;
    if to_move == side {
        return Err(Refusal::OwnTurn(record.id, "give extra time"));
    }
    let now = service.now();
    let mut next = record.clone();
    next.version += 1;
    next.clock = Some(TurnClock::new(now, clock.deadline.max(now) + Span::days(days)));
    service.store.update(&next)?;
    service.positions.put(next.id, next.version, &game);
    let opponent = record.other(caller.user.id);
    let text = format!(
        "{} gave {} {days} more day{} in {}{}.",
        text::name(&caller.user.name),
        text::name(record.name_of(opponent)),
        if days == 1 { "" } else { "s" },
        record.id,
        notify::time_left(service, &next)
    );
    let mut response = public(service, &next, &game, text, Vec::new());
    response.reply.mentions.push(opponent);
    Ok(response)
}

/// `/admin-abort`: ends any challenge or game of the caller's server without result, for
/// a caller who may manage that server. Another server's game is an unknown id; so is a
/// game without a server, which no server's administrators rule.
pub fn admin_abort(service: &Service, caller: &Caller, text: &str) -> Result<Response, Refusal> {
    if !caller.admin {
        return Err(Refusal::NotAdmin);
    }
    let record = lookup::named(service, caller, text)?;
    if record.guild.is_none() || record.guild != caller.guild {
        return Err(Refusal::NoSuchGame(record.id));
    }
    if !matches!(record.phase, Phase::Challenge | Phase::Playing) {
        let result = match record.phase {
            Phase::Finished => result_text(&record),
            _ => "it never started".to_owned(),
        };
        return Err(Refusal::GameOver { game: record.id, result });
    }
    let reason = format!("aborted by an administrator ({})", text::name(&caller.user.name));
    end(service, caller, &record, GameResult { winner: None, finish: Finish::AdminAborted, reason })
}
