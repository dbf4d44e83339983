//! `/takeback`: a player asks to take back his last turn (and the opponent's turn after
//! it, if there is one); the opponent answers with the Accept and Decline buttons.
//! Stonemate's own player answers at once: it accepts in its games, which are unrated,
//! and would decline in a rated one.
//!
//! The request is stored in the record ([`Takeback`]) with the number of turns played
//! when it was made, so it survives a restart, and a turn played meanwhile makes it
//! stale: it is then answered as if there were none, and a new one may be made. One
//! request stands at a time. Taking back is a commit like any other (compare-and-swap on
//! the record's version), so a takeback racing a turn applies at most one of them.

pub(crate) mod refusal;

use stonemate_engine::AnyGame;

use super::picker;
use super::requests::refusal::RequestKind;
use crate::service::buttons::Action;
use crate::service::error::Failure;
use crate::service::error::Refusal;
use crate::service::games::Fit;
use crate::service::loaded::Loaded;
use crate::service::parts::Parts;
use crate::service::types::{ButtonStyle, Caller, GameId, Message, Reply, Response, UserId};
use crate::store::GameRecord;
use crate::store::record::Takeback;
use refusal::TakebackRefusal;

/// `/takeback`: asks the opponent (or, against Stonemate, takes back at once).
pub(crate) fn ask(parts: &Parts, caller: &Caller, id: Option<GameId>) -> Result<Response, Failure> {
    let game = parts.games.open(caller, id, Fit::Any)?;
    let me = caller.user.id;
    let side = game.check_playing(me)?;
    super::tournament::refuse_in_tournament(&game.record, "/takeback")?;
    let own = match standing(&game.record) {
        Some(request) if request.by != me => return Err(TakebackRefusal::Pending(game.id()).into()),
        standing => standing.is_some(),
    };
    let asked = Some(game.record.pending.takeback_asked_at);
    super::requests::check(&game, side, RequestKind::Takeback, own, asked)?;
    // Refuses now, rather than at the answer, a player with no turn to take back.
    let (taken, _) = undone(&game.record, me)?;
    let opponent = game.record.seats.other(me);
    if parts.seat.is_bot(opponent) {
        return if bot_accepts(&game.record) {
            take_back(parts, caller, game, me, Message::from("Stonemate accepts: "))
        } else {
            Err(TakebackRefusal::Declined(game.id()).into())
        };
    }
    let request = Takeback { by: me, turns: game.record.turns.len() };
    let change = |next: &mut GameRecord| {
        next.pending.takeback = Some(request);
        next.pending.takeback_asked_at.ask(side, request.turns);
    };
    let game = parts.commit(game, change, |_| Vec::new())?.game;
    let record = &game.record;
    let message = Message::new()
        .ping(opponent, record.name_of(opponent))
        .push(", ")
        .name(&caller.user.name)
        .push(format!(" asks to take back {} in {}.", listed(&record.turns[record.turns.len() - taken..]), record.id));
    let buttons = vec![
        Action::TakebackAccept { id: record.id }.button("Accept takeback", ButtonStyle::Success),
        Action::TakebackDecline { id: record.id }.button("Decline", ButtonStyle::Secondary),
    ];
    let images = vec![parts.pictures.public_board(&game)];
    let reply = Reply { ok: true, message, images, buttons, about: Some(record.id), ..Reply::default() };
    Ok(Response { reply, notices: Vec::new() })
}

/// The Accept and Decline buttons of a takeback request, pressed by the opponent.
pub(crate) fn answer(parts: &Parts, caller: &Caller, id: GameId, accept: bool) -> Result<Response, Failure> {
    let game = parts.games.loaded(parts.games.named(caller, id)?)?;
    let me = caller.user.id;
    game.check_playing(me)?;
    let Some(request) = standing(&game.record).filter(|request| request.by != me) else {
        return Err(TakebackRefusal::NoRequest(id).into());
    };
    if accept {
        let said = Message::new().name(&caller.user.name).push(" accepts: ");
        return take_back(parts, caller, game, request.by, said);
    }
    parts.respond(caller, game, |next| next.pending.takeback = None, |game| declined(caller, &game.record, request.by))
}

/// The answer to `asker`'s request, declined by the caller.
fn declined(caller: &Caller, record: &GameRecord, asker: UserId) -> Response {
    let message = Message::new()
        .ping(asker, record.name_of(asker))
        .push(", ")
        .name(&caller.user.name)
        .push(format!(" declined your takeback in {}.", record.id));
    Response::about(record.id, message, Vec::new())
}

/// The request standing in `record`: none once a turn was played after it.
fn standing(record: &GameRecord) -> Option<Takeback> {
    record.pending.takeback.filter(|request| request.turns == record.turns.len())
}

/// Stonemate takes back in its unrated games: all of them, since ratings leave out the
/// games against it.
fn bot_accepts(record: &GameRecord) -> bool {
    record.level().is_some()
}

/// How many of the last turns a takeback for `by` removes (his last turn, and the
/// opponent's after it if there is one) and the position before them.
fn undone(record: &GameRecord, by: UserId) -> Result<(usize, AnyGame), Failure> {
    let side = record.seats.side_of(by).ok_or(Refusal::NotYourGame(record.id))?;
    // Who was to move before each turn, and the last three positions (the one after
    // every turn, and the two before the last two turns).
    let mut movers = Vec::new();
    let mut recent: Vec<AnyGame> = Vec::new();
    let replay = AnyGame::replay_seen(record.kind, &record.options, &record.turns, |position| {
        movers.push(position.to_move());
        if recent.len() == 3 {
            recent.remove(0);
        }
        recent.push(position.clone());
    })?;
    if let Some(error) = replay.error {
        return Err(Refusal::BrokenRecord(error.to_string()).into());
    }
    let played = record.turns.len();
    let taken = (1..=2)
        .find(|&taken| played >= taken && movers[played - taken] == Some(side))
        .ok_or(TakebackRefusal::NoTurn(record.id))?;
    let position = recent.swap_remove(recent.len() - 1 - taken);
    Ok((taken, position))
}

/// Takes back the last turn of `by` (and the opponent's after it), answering with
/// `said` before what was taken back.
fn take_back(parts: &Parts, caller: &Caller, game: Loaded, by: UserId, said: Message) -> Result<Response, Failure> {
    let (taken, position) = undone(&game.record, by)?;
    let kept = game.record.turns.len() - taken;
    let removed = listed(&game.record.turns[kept..]);
    let game = Loaded { position, ..game };
    // The clock starts again for the player to move; the bot's turns have none.
    let clock = if parts.seat.to_move(&game) {
        None
    } else {
        parts.clocks.turn_clock(&game.record, &parts.users.of(&game.record))
    };
    let asker = game.record.seats.side_of(by);
    let change = |next: &mut GameRecord| {
        next.turns.truncate(kept);
        next.pending.takeback = None;
        // Granted, the request limits no other: only one turned down does.
        if let Some(side) = asker {
            next.pending.takeback_asked_at.forget(side);
        }
        next.clock = clock;
    };
    parts.respond(caller, game, change, |game| {
        let record = &game.record;
        let mut message = said.push(format!("{removed} taken back in {}.", record.id));
        if let Some(mover) = game.mover() {
            // The one who asked is to move again: pinged, unless he is the caller.
            let to_move = match mover == caller.user.id {
                true => Message::from(" ").name(record.name_of(mover)),
                false => Message::from(" ").ping(mover, record.name_of(mover)),
            };
            message.append(to_move.push(format!(" to move{}.", parts.clocks.time_left(record))));
        }
        let images = vec![parts.pictures.public_board(game)];
        let buttons = picker::play_for_mover(parts, game);
        let reply = Reply { ok: true, message, images, buttons, about: Some(record.id), ..Reply::default() };
        Response { reply, notices: Vec::new() }
    })
}

/// `e5` or `e5 and d4`.
fn listed(turns: &[String]) -> String {
    turns.join(" and ")
}
