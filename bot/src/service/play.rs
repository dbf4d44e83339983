//! Turns: `/move`, `/drop`, `/pass`. Load, check, apply, write (compare-and-swap on the
//! record's version, flushed), then reply with the board and ping the player to move.

use stonemate_engine::{AnyGame, Role, Square, Status};

use super::Service;
use super::ending;
use super::error::Refusal;
use super::lookup::{self, Fit};
use super::notify;
use super::picture;
use super::text;
use super::types::{Caller, Reply, Response, UserId};
use crate::clock::Span;
use crate::store::{Finish, GameRecord, GameResult, Phase, Side, TurnClock};

/// Refuses callers who cannot act in this game now; returns the caller's side.
pub fn check_playing(record: &GameRecord, user: UserId) -> Result<Side, Refusal> {
    if !record.involves(user) {
        return Err(Refusal::NotYourGame(record.id));
    }
    let state = match record.phase {
        // A game being played has its colours fixed, so a player has a side.
        Phase::Playing => return record.side_of(user).ok_or(Refusal::NotYourGame(record.id)),
        Phase::Challenge => return Err(Refusal::NotStarted(record.id)),
        Phase::Finished => return Err(Refusal::GameOver { game: record.id, result: ending::result_text(record) }),
        Phase::Declined => "was declined",
        Phase::Withdrawn => "was withdrawn",
        Phase::Expired => "expired",
    };
    Err(Refusal::NotPending { game: record.id, state })
}

/// Refuses a player who is not to move; returns the game and his side.
fn check_turn(service: &Service, record: &GameRecord, caller: UserId) -> Result<(AnyGame, Side), Refusal> {
    let side = check_playing(record, caller)?;
    let game = lookup::position(service, record)?;
    let to_move = game.to_move().map(Side::of);
    if to_move != Some(side) {
        let name = to_move.and_then(|side| record.player(side)).map_or("nobody", |user| record.name_of(user));
        let refusal = Refusal::NotYourTurn { game: record.id, name: text::name(name) };
        return Err(refusal.with_board(record.id, picture::board(service, record, &game, caller, Vec::new())));
    }
    Ok((game, side))
}

/// `/move` and `/pass`: any turn in the game's notation.
pub fn turn(service: &Service, caller: &Caller, game_text: Option<&str>, notation: &str) -> Result<Response, Refusal> {
    let me = caller.user.id;
    let record = lookup::fitting(service, caller, game_text, Fit::ToMove)?;
    let (mut game, mover) = check_turn(service, &record, me)?;
    let printed = match game.play_text(notation) {
        Ok(printed) => printed,
        Err(error) => {
            let board = picture::board(service, &record, &game, me, Vec::new());
            return Err(Refusal::Illegal(error).with_board(record.id, board));
        }
    };
    let next = after_turn(service, &record, mover, &game, printed);
    service.store.update(&next)?;
    service.positions.put(next.id, next.version, &game);
    Ok(turn_response(service, caller, &next, &game))
}

/// `/drop`: a piece letter and a square, played as `R@d4`.
pub fn drop(
    service: &Service,
    caller: &Caller,
    game_text: Option<&str>,
    piece: &str,
    square: &str,
) -> Result<Response, Refusal> {
    let letter = piece.trim();
    let role = match letter.chars().collect::<Vec<_>>().as_slice() {
        [letter] => Role::from_letter(*letter),
        _ => None,
    };
    let role = role.ok_or_else(|| Refusal::BadPiece(piece.chars().take(20).collect()))?;
    let square: Square = square.trim().parse().map_err(|_| Refusal::BadSquare(square.chars().take(20).collect()))?;
    turn(service, caller, game_text, &format!("{}@{square}", role.letter()))
}

/// The record after `mover` played `printed`, leaving `game`.
fn after_turn(service: &Service, record: &GameRecord, mover: Side, game: &AnyGame, printed: String) -> GameRecord {
    let now = service.now();
    let mut next = record.clone();
    next.version += 1;
    next.turns.push(printed);
    // Playing on answers the opponent's draw offer with a no; the mover's own offer stands.
    if next.draw_offer != Some(mover) {
        next.draw_offer = None;
    }
    next.clock = (record.days > 0).then(|| TurnClock::new(now, now + Span::days(record.days.into())));
    if let Status::Finished(ending) = game.status() {
        next.phase = Phase::Finished;
        next.clock = None;
        next.draw_offer = None;
        next.result = Some(GameResult::from_outcome(ending.outcome, Finish::Rules, ending.reason.to_string()));
    }
    next
}

fn turn_response(service: &Service, caller: &Caller, record: &GameRecord, game: &AnyGame) -> Response {
    let played = record.turns.last().map_or("", String::as_str);
    let mut text = format!("{} played {played} in {}.", text::name(&caller.user.name), record.id);
    let notices = match record.phase {
        Phase::Finished => {
            let result = ending::result_text(record);
            text.push_str(&format!(" Game over: {result}{}.", ending::score_text(game)));
            notify::result_notices(service, record, &format!("{} is over: {result}.", record.id), Some(caller.user.id))
        }
        _ => {
            if let Some(user) = game.to_move().and_then(|color| record.player(Side::of(color))) {
                let name = text::name(record.name_of(user));
                text.push_str(&format!(" {name} to move{}.", notify::time_left(service, record)));
            }
            notify::turn_ping(service, record, game).into_iter().collect()
        }
    };
    let reply = Reply {
        ok: true,
        text,
        images: vec![picture::public_board(service, record, game)],
        game: Some(record.id),
        ..Reply::default()
    };
    Response { reply, notices }
}
