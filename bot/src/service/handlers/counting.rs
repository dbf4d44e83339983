//! Counting in go (rule 10, `counting=on`): after two passes the players agree which pieces
//! are dead before the board is scored. The ai's estimate opens with a proposal
//! ([`opened`]), shown crossed out on the board with **Accept** and **Resume**; `/dead`
//! proposes another set; the proposal stands once both sides accept it, and the game ends
//! with the record's last entry `dead ...`. Resume (or any turn of the player to move)
//! returns to play; two passes in a row count again.
//!
//! The state between the passes and the agreement is the record's
//! [`Counting`](crate::store::Counting): the standing proposal and the side that stands
//! behind it. A proposal waits on the clock of the player who must answer it; when that
//! clock runs out the proposal stands ([`due`]), whatever the time-out setting, since a
//! silent player loses nothing he had not already agreed on the board.

pub(crate) mod refusal;

use stonemate_engine::{
    AnyGame, Color, EndReason, Ending as EngineEnding, GameResult, Score, Square, Status, go::DeadPieces,
};

use super::requests::refusal::RequestKind;
use crate::clock::Timestamp;
use crate::service::buttons::{Action, ProposalTag};
use crate::service::error::Failure;
use crate::service::error::Refusal;
use crate::service::games::Fit;
use crate::service::loaded::Loaded;
use crate::service::options::keys;
use crate::service::parts::Parts;
use crate::service::tell;
use crate::service::text;
use crate::service::types::{
    Attachment, Button, ButtonStyle, Caller, GameId, Message, Notice, Reply, Response, Target, UserId,
};
use crate::store::{Counting, Finish, GameRecord, TurnClock};
use refusal::CountingRefusal;

/// The counting state a turn leaves: the estimate of the dead pieces as the opening
/// proposal when the turn opened counting (the second of two passes), else none.
///
/// The estimate is [`stonemate_ai::counting::estimate_dead`]: heavy playouts on the ai's
/// playout board for the sets it plays (a few hundred milliseconds on a busy 19x19 board,
/// where random games by the rules took seconds), random games by the rules for the others.
/// It runs before the turn's write, holding no lock, and the reply is deferred meanwhile.
pub(crate) fn opened(position: &AnyGame) -> Option<Counting> {
    let dead = stonemate_ai::counting::estimate_dead(position)?;
    Some(Counting { proposal: dead.to_string(), by: None, replaced: None })
}

/// The standing proposal, while the game waits for an agreement.
pub(crate) fn standing(game: &Loaded) -> Option<&Counting> {
    game.record.pending.counting.as_ref().filter(|_| game.position.is_counting())
}

/// The pieces a stored proposal names (the service wrote it, so it reads back).
fn dead_of(counting: &Counting) -> DeadPieces {
    counting.proposal.parse().unwrap_or_default()
}

/// The side that must answer `counting`: the other of the side behind it; for the
/// engine's own proposal, the player to move (the one who passed first, who would also
/// play on).
pub(crate) fn answerer(game: &Loaded, counting: &Counting) -> Option<Color> {
    counting.by.map(Color::other).or_else(|| game.to_move())
}

/// The score and result if `dead` were agreed now; `None` when the game is not counting or
/// a square is empty.
fn counted(position: &AnyGame, dead: &DeadPieces) -> Option<(Score, GameResult)> {
    let AnyGame::Go(go) = position else { return None };
    let score = go.score_with_dead(dead).ok()?;
    let ending = EngineEnding { outcome: score.outcome(), reason: EndReason::Counted };
    Some((score, GameResult::new(ending, Some(score))))
}

/// `c3 d4` or `none`, for messages.
fn squares_text(dead: &DeadPieces) -> String {
    if dead.is_empty() {
        return "none".to_owned();
    }
    dead.squares().map(|square| square.to_string()).collect::<Vec<_>>().join(" ")
}

/// `dead: c3 d4 (crossed out on the board); counted so, W+6.5 (white 40.5, black 34)`.
fn describe(game: &Loaded, counting: &Counting) -> String {
    let dead = dead_of(counting);
    let crossed = if dead.is_empty() { "" } else { " (crossed out on the board)" };
    let result = counted(&game.position, &dead).map_or_else(String::new, |(score, result)| {
        format!("; counted so, {result} (white {}, black {})", score.white, score.black)
    });
    format!("dead: {}{crossed}{result}", squares_text(&dead))
}

/// Accept and Resume, for the proposal standing now.
fn buttons(game: &Loaded, counting: &Counting) -> Vec<Button> {
    let proposal = ProposalTag::of(game.record.turns.len(), &counting.proposal);
    vec![
        Action::AcceptDead { id: game.id(), proposal }.button("Accept", ButtonStyle::Success),
        Action::Resume { id: game.id() }.button("Resume", ButtonStyle::Secondary),
    ]
}

/// The board as the proposal would count it, for `viewer` (`None`: in public): its pieces
/// crossed out, the territory and the score after their removal (what the text states).
fn board(parts: &Parts, game: &Loaded, counting: &Counting, viewer: Option<UserId>) -> Attachment {
    let counted = match &game.position {
        AnyGame::Go(go) => {
            let mut counted = go.clone();
            counted.agree_dead(&dead_of(counting)).ok().map(|()| AnyGame::Go(counted))
        }
        _ => None,
    };
    match counted {
        Some(counted) => parts.pictures.estimate_board(game, &counted, viewer, marked(counting)),
        None => parts.pictures.marked_board(game, viewer, marked(counting)),
    }
}

/// The squares of the proposal's pieces, crossed out on the board.
fn marked(counting: &Counting) -> Vec<Square> {
    dead_of(counting).squares().collect()
}

/// What to do next, for the player who is to answer.
fn choices() -> String {
    let usage = keys::Dead::squares.usage("\"c3 d4\"");
    format!("**Accept**, **Resume** play, or propose others with `{usage}` (`none` for none)")
}

/// The clock of the player who must answer `counting` (none for the bot, or without days).
fn answer_clock(parts: &Parts, game: &Loaded, counting: &Counting) -> Option<TurnClock> {
    let user = answerer(game, counting).and_then(|side| game.record.seats.player(side))?;
    if parts.seat.is_bot(user) { None } else { parts.clocks.turn_clock(&game.record, &parts.users.of(&game.record)) }
}

/// What a turn that opened counting adds to its reply, and the message to the player who
/// is to answer (he passed first, so the reply does not reach him).
pub(crate) fn opening(parts: &Parts, game: &Loaded, reply: &mut Reply) -> Vec<Notice> {
    let Some(counting) = standing(game) else { return Vec::new() };
    let record = &game.record;
    reply.message.append(format!(
        " Both passed: the dead pieces are agreed before counting (rule 10). The engine proposes {}. {}.",
        describe(game, counting),
        choices()
    ));
    reply.images = vec![board(parts, game, counting, None)];
    reply.buttons = buttons(game, counting);
    let Some(user) = answerer(game, counting).and_then(|side| record.seats.player(side)) else { return Vec::new() };
    let message = Message::new().ping(user, record.name_of(user)).push(format!(
        ", both passed in {}: the engine proposes {}. {}{}.",
        record.id,
        describe(game, counting),
        choices(),
        parts.clocks.time_left(record)
    ));
    told_with_board(parts, game, counting, user, message).into_iter().collect()
}

/// A message to `user` about the proposal, with the board and its buttons.
fn told_with_board(
    parts: &Parts,
    game: &Loaded,
    counting: &Counting,
    user: UserId,
    message: Message,
) -> Option<Notice> {
    let mut notice = tell::tell(parts, (&game.record, &parts.users.of(&game.record)), user, message, false)?;
    let viewer = if notice.target == Target::Direct(user) { Some(user) } else { None };
    notice.images.push(board(parts, game, counting, viewer));
    if viewer.is_none() {
        notice.buttons = buttons(game, counting);
    }
    Some(notice)
}

/// Opens the game a counting command is about, and its standing proposal; the caller's
/// side.
fn open(parts: &Parts, caller: &Caller, id: Option<GameId>) -> Result<(Loaded, Color, Counting), Failure> {
    let game = parts.games.open(caller, id, Fit::Counting)?;
    let side = game.check_playing(caller.user.id)?;
    let counting = standing(&game).cloned().ok_or(CountingRefusal::NotCounting(game.id()))?;
    Ok((game, side, counting))
}

/// `/dead`: without `squares`, shows the standing proposal (privately); with them,
/// proposes that those pieces are dead (`none`: none). Proposing the set the opponent
/// stands behind accepts it.
pub(crate) fn dead(
    parts: &Parts,
    caller: &Caller,
    id: Option<GameId>,
    squares: Option<&str>,
) -> Result<Response, Failure> {
    let (game, side, counting) = open(parts, caller, id)?;
    let Some(squares) = squares.map(str::trim).filter(|squares| !squares.is_empty()) else {
        return Ok(show(parts, caller, &game, &counting));
    };
    // Refused with the board as the proposal standing marks it.
    let on_board =
        |error| Refusal::Illegal(stonemate_engine::TurnError::Go(error)).on_marked_board(game.id(), marked(&counting));
    let proposed: DeadPieces =
        format!("dead {squares}").parse().map_err(|error| on_board(stonemate_engine::go::GoError::Notation(error)))?;
    if let AnyGame::Go(go) = &game.position {
        go.score_with_dead(&proposed).map_err(on_board)?;
    }
    if proposed == dead_of(&counting) {
        return accept_standing(parts, caller, game, side, counting);
    }
    // Answered by the opponent's own act (another proposal, Resume), not by turns.
    super::requests::check(&game, side, RequestKind::DeadPieces, counting.by == Some(side), None)?;
    propose(parts, caller, game, side, &counting, proposed)
}

/// The standing proposal, privately, with its board.
fn show(parts: &Parts, caller: &Caller, game: &Loaded, counting: &Counting) -> Response {
    let record = &game.record;
    let behind = match counting.by {
        Some(side) => side_player(game, side).push(" stands behind it"),
        None => Message::from("the engine's estimate, nobody accepted it yet"),
    };
    let message = Message::from(format!("The proposal in {} (", record.id)).then(behind).push(format!(
        "): {}. {}.",
        describe(game, counting),
        choices()
    ));
    let reply = Reply {
        ok: true,
        message,
        private: true,
        images: vec![board(parts, game, counting, Some(caller.user.id))],
        buttons: buttons(game, counting),
        about: Some(record.id),
        ..Reply::default()
    };
    Response { reply, notices: Vec::new() }
}

/// `alice (white)`.
fn side_player(game: &Loaded, side: Color) -> Message {
    let record = &game.record;
    let name = record.seats.player(side).map_or("?", |user| record.name_of(user));
    Message::new().name(name).push(format!(" ({})", game.side_name(side)))
}

/// A new proposal by `side`: it replaces the standing one (and its acceptance) and waits
/// on the opponent's clock.
fn propose(
    parts: &Parts,
    caller: &Caller,
    game: Loaded,
    side: Color,
    counting: &Counting,
    proposed: DeadPieces,
) -> Result<Response, Failure> {
    // Only a player's view is turned down by a new proposal, not the engine's estimate.
    let replaced = counting.by.map(|_| counting.proposal.clone());
    let next = Counting { proposal: proposed.to_string(), by: Some(side), replaced };
    let clock = answer_clock(parts, &game, &next);
    let change = |record: &mut GameRecord| {
        record.pending.counting = Some(next);
        record.clock = clock;
    };
    parts.respond(caller, game, change, |game| awaited(parts, caller, game, "proposes"))
}

/// The reply to a proposal or an acceptance that the opponent must answer now: `alice
/// proposes in #3: dead: c3 (...). @bob: Accept, Resume, ...`, in public, with the board
/// and the buttons. The bot is addressed, not pinged: it learns of it from the store.
fn awaited(parts: &Parts, caller: &Caller, game: &Loaded, did: &str) -> Response {
    let Some(counting) = game.record.pending.counting.as_ref() else { return Response::default() };
    let record = &game.record;
    let opponent = record.seats.other(caller.user.id);
    let message = Message::new()
        .name(&caller.user.name)
        .push(format!(" {did} in {}: {}. ", record.id, describe(game, counting)))
        .ping(opponent, record.name_of(opponent))
        .push(format!(": {}{}.", choices(), parts.clocks.time_left(record)));
    let message = if parts.seat.is_bot(opponent) { message.quiet() } else { message };
    Response { reply: public(parts, game, counting, message), notices: Vec::new() }
}

/// A public reply about the proposal, with its board and buttons.
fn public(parts: &Parts, game: &Loaded, counting: &Counting, message: Message) -> Reply {
    Reply {
        ok: true,
        message,
        images: vec![board(parts, game, counting, None)],
        buttons: buttons(game, counting),
        about: Some(game.id()),
        ..Reply::default()
    }
}

/// The Accept button: accepts the proposal the button was shown with.
pub(crate) fn accept(parts: &Parts, caller: &Caller, id: GameId, tag: ProposalTag) -> Result<Response, Failure> {
    let (game, side, counting) = open(parts, caller, Some(id))?;
    if ProposalTag::of(game.record.turns.len(), &counting.proposal) != tag {
        return Err(CountingRefusal::ProposalChanged(game.id()).into());
    }
    accept_standing(parts, caller, game, side, counting)
}

/// `side` accepts the standing proposal: it stands if the other side is behind it, else
/// `side` now is, and the other must answer.
fn accept_standing(
    parts: &Parts,
    caller: &Caller,
    game: Loaded,
    side: Color,
    counting: Counting,
) -> Result<Response, Failure> {
    match counting.by {
        Some(by) if by == side => {
            let name = text::name(game.record.name_of(game.record.seats.other(caller.user.id)));
            Err(CountingRefusal::AlreadyAccepted { id: game.id(), name }.into())
        }
        Some(_) => agree(parts, caller, game, &counting),
        None => {
            let next = Counting { by: Some(side), ..counting };
            let clock = answer_clock(parts, &game, &next);
            let change = |record: &mut GameRecord| {
                record.pending.counting = Some(next);
                record.clock = clock;
            };
            parts.respond(caller, game, change, |game| awaited(parts, caller, game, "accepts the proposal"))
        }
    }
}

/// Plays the agreement on `game`'s position: the record entry and the ending it makes.
fn agreement(game: &mut Loaded, counting: &Counting) -> Result<(String, Finish), Failure> {
    let entry = game.position.play_text(&counting.proposal)?;
    match game.position.status() {
        Status::Finished(ending) => Ok((entry, Finish::new(ending))),
        Status::Ongoing { .. } => Err(CountingRefusal::NotCounting(game.id()).into()),
    }
}

/// Both sides accepted: the agreed pieces are removed and the board scored; the record's
/// last entry is the agreement.
fn agree(parts: &Parts, caller: &Caller, mut game: Loaded, counting: &Counting) -> Result<Response, Failure> {
    let (entry, ending) = agreement(&mut game, counting)?;
    let now = parts.clocks.now();
    let change = |record: &mut GameRecord| {
        record.turns.push(entry);
        record.finish(ending.at(now));
    };
    parts.respond(caller, game, change, |game| {
        let message = Message::new().name(&caller.user.name).push(" accepts: ").then(describe_end(game));
        over(parts, game, message, Some(caller.user.id))
    })
}

/// The reply (and notices) of a game counting ended: the board without the dead pieces,
/// which are shown as captured.
fn over(parts: &Parts, game: &Loaded, message: Message, except: Option<UserId>) -> Response {
    let notices =
        tell::result_notices(parts, (&game.record, &parts.users.of(&game.record)), &describe_end(game), except);
    let reply = Reply {
        ok: true,
        message,
        images: vec![parts.pictures.public_board(game)],
        about: Some(game.id()),
        ..Reply::default()
    };
    Response { reply, notices }
}

/// The Resume button: play goes on from the position of the two passes, the player who
/// passed first to move; the proposal is dropped.
pub(crate) fn resume(parts: &Parts, caller: &Caller, id: GameId) -> Result<Response, Failure> {
    let (game, _, _) = open(parts, caller, Some(id))?;
    let clock = if parts.seat.to_move(&game) {
        None
    } else {
        parts.clocks.turn_clock(&game.record, &parts.users.of(&game.record))
    };
    let change = |record: &mut GameRecord| {
        record.pending.counting = None;
        record.clock = clock;
    };
    parts.respond(caller, game, change, |game| {
        let record = &game.record;
        let mut message = Message::new().name(&caller.user.name).push(format!(" resumes play in {}.", record.id));
        if let Some(user) = game.mover() {
            let to_move = format!(" to move{}.", parts.clocks.time_left(record));
            message.append(Message::from(" ").name(record.name_of(user)).push(to_move));
        }
        // The last turn is the second pass, from before the counting: the news is the resume.
        let news = Message::new().name(&caller.user.name).push(" resumed play after the two passes.");
        let notices =
            tell::turn_ping_saying(parts, game, &parts.users.of(&game.record), Some(news)).into_iter().collect();
        let reply = Reply {
            ok: true,
            message,
            images: vec![parts.pictures.public_board(game)],
            about: Some(record.id),
            ..Reply::default()
        };
        Response { reply, notices }
    })
}

/// What the tick does in a game that is counting: when the answering player's clock ran
/// out, the proposal stands and the game ends; when his reminder is due, he is reminded.
/// Returns the notices written; `None` for games that are not counting, and for a clock a
/// vacation must move first (the tick's other rules see to those).
pub(crate) fn due(parts: &Parts, game: &Loaded, now: Timestamp) -> Option<Result<Vec<Notice>, Failure>> {
    let counting = standing(game)?.clone();
    let clock = game.record.clock?;
    if parts.clocks.repaused(&game.record, &parts.users.of(&game.record)).is_some() {
        return None;
    }
    let user = answerer(game, &counting).and_then(|side| game.record.seats.player(side))?;
    if clock.deadline <= now {
        return Some(time_out(parts, game.clone(), &counting, user, now));
    }
    if clock.remind_at.is_none_or(|at| at > now) {
        return Some(Ok(Vec::new()));
    }
    let next = parts.clocks.remind_after(&clock, now);
    let message = Message::new().ping(user, game.record.name_of(user)).push(format!(
        ": your answer to the proposal in {} is due {}; if time runs out, it stands ({}).",
        game.id(),
        parts.clocks.deadline(clock.deadline),
        describe(game, &counting)
    ));
    let told = tell::tell(parts, (&game.record, &parts.users.of(&game.record)), user, message, false);
    let change = |record: &mut GameRecord| {
        if let Some(clock) = record.clock.as_mut() {
            clock.remind_at = next;
        }
    };
    Some(parts.commit(game.clone(), change, |_| told.into_iter().collect()).map(|written| written.notices))
}

/// The answering player's time ran out: the proposal stands.
fn time_out(
    parts: &Parts,
    mut game: Loaded,
    counting: &Counting,
    user: UserId,
    now: Timestamp,
) -> Result<Vec<Notice>, Failure> {
    let (entry, ending) = agreement(&mut game, counting)?;
    let change = |record: &mut GameRecord| {
        record.turns.push(entry);
        record.finish(ending.at(now));
    };
    let notices = |game: &Loaded| {
        let message = Message::new()
            .name(game.record.name_of(user))
            .push("'s time to answer the proposal ran out, so it stands: ")
            .then(describe_end(game));
        // Each player is told too that the proposal stood on time: nobody agreed to it.
        let told = tell::result_notices(parts, (&game.record, &parts.users.of(&game.record)), &message, None);
        let mut notices = vec![channel_notice(parts, game, message)];
        notices.extend(told);
        notices
    };
    Ok(parts.commit(game, change, notices)?.notices)
}

/// `#3 is over: alice (white) wins by 6.5 points after counting (W+6.5) (white 40.5, black
/// 34).`: the result says its go code once, and a draw as a draw.
fn describe_end(game: &Loaded) -> Message {
    Message::from(format!("{} is over: {}{}.", game.id(), game.result(), game.score()))
}

/// A message in the game's channel, with the board.
fn channel_notice(parts: &Parts, game: &Loaded, message: Message) -> Notice {
    Notice {
        target: Target::Channel(game.record.channel()),
        message,
        images: vec![parts.pictures.public_board(game)],
        about: Some(game.id()),
        buttons: game.record.origin.tournament.is_none().then(|| Button::rematch(game.id())).into_iter().collect(),
        standings: None,
        thread: None,
    }
}

/// What Stonemate's own player makes of the standing proposal, given its own estimate
/// of the dead pieces: it accepts a proposal that gives the result its estimate gives;
/// otherwise it proposes its estimate, unless that is what the opponent just turned down,
/// in which case it resumes play (and shows on the board what it believes).
pub(crate) fn bot_answer(
    parts: &Parts,
    caller: &Caller,
    id: GameId,
    estimate: &DeadPieces,
) -> Result<Response, Failure> {
    let (game, side, counting) = open(parts, caller, Some(id))?;
    if counting.by == Some(side) {
        // It already answered; the opponent is to answer.
        return Err(Failure::Stale);
    }
    let standing = dead_of(&counting);
    let result = |dead: &DeadPieces| counted(&game.position, dead).map(|(_, result)| result);
    let own = result(estimate);
    if own.is_some() && result(&standing) == own {
        return accept_standing(parts, caller, game, side, counting);
    }
    let turned_down = counting.by == Some(side.other()) && counting.replaced.as_deref() == Some(&estimate.to_string());
    if own.is_none() || turned_down {
        return resume(parts, caller, id);
    }
    propose(parts, caller, game, side, &counting, estimate.clone())
}
