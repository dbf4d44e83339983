//! Ending and adjusting games: `/resign` (with its confirmation button), `/draw` and its
//! buttons, `/abort`, `/claim`, `/extratime`, `/admin-abort`.

pub(crate) mod refusal;

use stonemate_engine::{Color, EndReason, Ending, Outcome};

use super::requests::refusal::RequestKind;
use crate::clock::Span;
use crate::service::buttons::Action;
use crate::service::error::Failure;
use crate::service::error::Refusal;
use crate::service::games::Fit;
use crate::service::handlers::counting::refusal::CountingRefusal;
use crate::service::loaded::Loaded;
use crate::service::parts::Parts;
use crate::service::tell;
use crate::service::text;
use crate::service::types::{ButtonStyle, Caller, GameId, Message, Notice, Reply, Response, Target};
use crate::store::{CalledOff, Finish, Phase, TurnClock};
use refusal::EndingRefusal;

/// Stores the end of a game and tells both players.
fn end(parts: &Parts, caller: &Caller, game: Loaded, finish: Finish) -> Result<Response, Failure> {
    let finish = finish.at(parts.clocks.now());
    let change = |next: &mut crate::store::GameRecord| next.finish(finish.clone());
    parts.respond(caller, game, change, |game| {
        let message = Message::from(format!("{} is over: {}.", game.id(), game.result()));
        let notices =
            tell::result_notices(parts, (&game.record, &parts.users.of(&game.record)), &message, Some(caller.user.id));
        public(parts, game, message, notices)
    })
}

/// A public reply with the board in the game's one orientation.
fn public(parts: &Parts, game: &Loaded, message: Message, notices: Vec<Notice>) -> Response {
    let mut response = Response::about(game.id(), message, notices);
    response.reply.images = vec![parts.pictures.public_board(game)];
    response
}

/// `/resign`: asks to confirm with a button; nothing changes yet.
pub(crate) fn ask_resign(parts: &Parts, caller: &Caller, text: Option<GameId>) -> Result<Response, Failure> {
    let game = parts.games.open(caller, text, Fit::Any)?;
    game.check_playing(caller.user.id)?;
    let record = &game.record;
    let button = Action::Resign { id: record.id }.button("Resign", ButtonStyle::Danger);
    let message = Message::from(format!("Resign {} against ", record.id))
        .name(record.name_of(record.seats.other(caller.user.id)))
        .push("? Press the button to confirm.");
    let reply = Reply { ok: true, message, buttons: vec![button], about: Some(record.id), ..Reply::default() };
    Ok(Response { reply, notices: Vec::new() })
}

/// The Resign button: ends the game, the opponent wins.
pub(crate) fn resign(parts: &Parts, caller: &Caller, id: GameId) -> Result<Response, Failure> {
    let game = parts.games.loaded(parts.games.named(caller, id)?)?;
    let side = game.check_playing(caller.user.id)?;
    end(parts, caller, game, won(side.other(), EndReason::Resignation))
}

/// `/draw`: accepts the opponent's offer, or makes one.
pub(crate) fn draw(parts: &Parts, caller: &Caller, text: Option<GameId>) -> Result<Response, Failure> {
    let game = parts.games.open(caller, text, Fit::DrawOffered)?;
    let side = game.check_playing(caller.user.id)?;
    match game.record.pending.draw_offer {
        Some(offer) if offer != side => end(parts, caller, game, agreed()),
        _ => offer(parts, caller, game, side),
    }
}

fn offer(parts: &Parts, caller: &Caller, game: Loaded, side: Color) -> Result<Response, Failure> {
    let pending = &game.record.pending;
    let standing = pending.draw_offer == Some(side);
    super::requests::check(&game, side, RequestKind::Draw, standing, Some(pending.draw_offered_at))?;
    let at = game.record.turns.len();
    let change = |next: &mut crate::store::GameRecord| {
        next.pending.draw_offer = Some(side);
        next.pending.draw_offered_at.ask(side, at);
    };
    let game = parts.commit(game, change, |_| Vec::new())?.game;
    let record = &game.record;
    let opponent = record.seats.other(caller.user.id);
    let message = Message::new()
        .ping(opponent, record.name_of(opponent))
        .push(", ")
        .name(&caller.user.name)
        .push(format!(" offers a draw in {}. Accept with `/draw`, or play on to decline.", record.id));
    // The bot learns of the offer from the store: it is addressed, not pinged.
    let message = if parts.seat.is_bot(opponent) { message.quiet() } else { message };
    let mut response = public(parts, &game, message, Vec::new());
    response.reply.buttons = vec![
        Action::DrawAccept { id: game.id() }.button("Accept draw", ButtonStyle::Success),
        Action::DrawDecline { id: game.id() }.button("Decline", ButtonStyle::Secondary),
    ];
    Ok(response)
}

/// The draw offer's buttons.
pub(crate) fn answer_draw(parts: &Parts, caller: &Caller, id: GameId, accept: bool) -> Result<Response, Failure> {
    let game = parts.games.loaded(parts.games.named(caller, id)?)?;
    let side = game.check_playing(caller.user.id)?;
    if game.record.pending.draw_offer != Some(side.other()) {
        return Err(EndingRefusal::NoDrawOffer(game.id()).into());
    }
    if accept {
        return end(parts, caller, game, agreed());
    }
    parts.respond(
        caller,
        game,
        |next| next.pending.draw_offer = None,
        |game| {
            let message =
                Message::new().name(&caller.user.name).push(format!(" declined the draw offer in {}.", game.id()));
            let mut notices = tell::result_notices(
                parts,
                (&game.record, &parts.users.of(&game.record)),
                &message,
                Some(caller.user.id),
            );
            if parts.seat.is_bot(caller.user.id) {
                // The bot's reply is announced in the channel: when the player's message
                // goes there too, it is the announcement, so the decline is posted once.
                let here = Target::Channel(game.record.channel());
                if let Some(at) = notices.iter().position(|notice| notice.target == here) {
                    let told = notices.remove(at);
                    return public(parts, game, told.message, notices);
                }
            }
            public(parts, game, message, notices)
        },
    )
}

/// `/abort`: no result, while no turn has been played.
pub(crate) fn abort(parts: &Parts, caller: &Caller, text: Option<GameId>) -> Result<Response, Failure> {
    let game = parts.games.open(caller, text, Fit::Unplayed)?;
    game.check_playing(caller.user.id)?;
    super::tournament::refuse_in_tournament(&game.record, "/abort")?;
    if !game.record.turns.is_empty() {
        return Err(EndingRefusal::AbortTooLate(game.id()).into());
    }
    end(parts, caller, game, Finish::called_off(CalledOff::Player(caller.user.name.clone())))
}

/// The game a waiting player acts in on his opponent's clock, with his side and the
/// clock; `act` names what he may do only while waiting.
fn on_opponents_clock(
    parts: &Parts,
    caller: &Caller,
    id: Option<GameId>,
    fit: Fit,
    act: &'static str,
) -> Result<(Loaded, Color, TurnClock), Failure> {
    // A game that just ended (on time, by the tick) is no longer among the caller's
    // active games: he is told it is over and how, not that he has no game here.
    let game = parts.games.open_viewed(caller, id, fit)?;
    let side = game.check_playing(caller.user.id)?;
    if game.record.pending.counting.is_some() {
        // A proposal's clock is the answering player's, and its end makes the proposal
        // stand (go, rule 10): nothing to claim or extend there.
        return Err(CountingRefusal::Counting(game.id()).into());
    }
    let clock = game.record.clock.ok_or(EndingRefusal::NoClock(game.id()))?;
    if game.waiting()? != side {
        return Err(EndingRefusal::OwnTurn(game.id(), act).into());
    }
    Ok((game, side, clock))
}

/// `/claim`: the waiting player wins once the opponent's time has run out (or, before
/// both players have played a turn, the game ends aborted).
pub(crate) fn claim(parts: &Parts, caller: &Caller, text: Option<GameId>) -> Result<Response, Failure> {
    let (game, side, clock) = on_opponents_clock(parts, caller, text, Fit::Claimable, "claim")?;
    let now = parts.clocks.now();
    if clock.deadline > now {
        let name = text::name(game.record.name_of(game.record.seats.other(caller.user.id)));
        return Err(EndingRefusal::TimeLeft { id: game.id(), name, due: parts.clocks.deadline(clock.deadline) }.into());
    }
    if !game.record.both_played() && game.record.origin.tournament.is_none() {
        // Nobody loses a game he never began: it ends without result.
        return end(parts, caller, game, Finish::called_off(CalledOff::Unstarted));
    }
    end(parts, caller, game, won(side, EndReason::Timeout))
}

/// `/extratime`: more days for the opponent's current turn.
pub(crate) fn extra_time(parts: &Parts, caller: &Caller, text: Option<GameId>, days: u8) -> Result<Response, Failure> {
    let (game, _, clock) = on_opponents_clock(parts, caller, text, Fit::OpponentOnClock, "give extra time")?;
    super::tournament::refuse_in_tournament(&game.record, "/extratime")?;
    let now = parts.clocks.now();
    let mut extended = TurnClock::new(now, clock.deadline.max(now) + Span::days(days.into()));
    extended.paused_until = clock.paused_until;
    extended.remind_at = parts.clocks.remind_after(&extended, now);
    let game = parts.commit(game, |next| next.clock = Some(extended), |_| Vec::new())?.game;
    let record = &game.record;
    let opponent = record.seats.other(caller.user.id);
    let message =
        Message::new().name(&caller.user.name).push(" gave ").ping(opponent, record.name_of(opponent)).push(format!(
            " {days} more day{} in {}{}.",
            if days == 1 { "" } else { "s" },
            record.id,
            parts.clocks.time_left(record)
        ));
    Ok(public(parts, &game, message, Vec::new()))
}

/// `/admin-abort`: ends any challenge or game of the caller's server without result,
/// for a caller who may manage that server. Another server's game is an unknown id; so
/// is a game without a server, which no server's administrators rule.
pub(crate) fn admin_abort(parts: &Parts, caller: &Caller, id: GameId) -> Result<Response, Failure> {
    // Another server's game, or a game without a server, is answered exactly as an id
    // nobody has, before anything else: no answer may tell that it exists.
    let record = parts.games.named(caller, id)?;
    if record.guild().is_none() || record.guild() != caller.guild {
        return Err(Refusal::NoSuchGame(record.id).into());
    }
    if !caller.admin {
        return Err(EndingRefusal::NotAdmin.into());
    }
    // An administrator is a player like any other in his own games.
    if record.seats.involves(caller.user.id) {
        return Err(EndingRefusal::AdminOwnGame(record.id).into());
    }
    let game = parts.games.loaded(record)?;
    if !matches!(game.record.phase, Phase::Challenge | Phase::Playing) {
        let result = match game.record.phase {
            Phase::Finished => game.result(),
            _ => "it never started".to_owned(),
        };
        return Err(Refusal::GameOver { id: game.id(), result }.into());
    }
    end(parts, caller, game, Finish::called_off(CalledOff::Admin(caller.user.name.clone())))
}

/// `side` won, by `reason` (resignation or time).
fn won(side: Color, reason: EndReason) -> Finish {
    Finish::new(Ending { outcome: Outcome::Winner(side), reason })
}

/// A draw both players agreed to.
fn agreed() -> Finish {
    Finish::new(Ending { outcome: Outcome::Draw, reason: EndReason::Agreement })
}
