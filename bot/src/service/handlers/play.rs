//! [`play`], the one way a turn is played whatever brought it: typed, confirmed in the
//! picker, or Stonemate's own; a conditional answer it meets is played in the same write.
//! Check, play, commit (compare-and-swap on the record's version, flushed), then reply
//! with the board, pinging there the player to move when he is told in that channel (one
//! message per turn), or telling him apart as he chose.

use stonemate_engine::{Color, Status, Turn, TurnError};

use crate::service::error::Failure;
use crate::service::error::Refusal;
use crate::service::loaded::Loaded;
use crate::service::parts::Parts;
use crate::service::tell;
use crate::service::text;
use crate::service::types::{Button, Caller, Message, Reply, Response, UserId};
use crate::service::users::Players;
use crate::store::{Finish, Phase};

use super::conditional::{self, Followed};
use super::counting;
use super::views;

/// The caller's side in a game where [`check_turn`] found him to move: what [`play`]
/// takes, so that a turn is checked once whatever brought it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mover(Color);

/// Refuses a player who is not to move; returns his side.
pub(crate) fn check_turn(game: &Loaded, caller: UserId) -> Result<Mover, Failure> {
    let side = game.check_playing(caller)?;
    if game.to_move() != Some(side) {
        let name = game.mover().map_or("nobody", |user| game.record.name_of(user));
        return Err(Refusal::NotYourTurn { id: game.id(), name: text::name(name) }.on_board(game.id()));
    }
    Ok(Mover(side))
}

/// The refusal of a turn the game refused, with the board as it stands (unchanged).
pub(crate) fn illegal(game: &Loaded, error: TurnError) -> Failure {
    Refusal::Illegal(error).on_board(game.id())
}

/// Plays `turn` for the caller in `game`, where [`check_turn`] found him to move (`mover`),
/// with its `players` as read so far in this command: the one way a turn is played,
/// whatever brought it. The game checks the turn as it applies it (a refused turn changes
/// nothing); the waiting player's conditional line may answer in the same write.
pub(crate) fn play(
    parts: &Parts,
    caller: &Caller,
    (mut game, players): (Loaded, &Players),
    Mover(mover): Mover,
    turn: Turn,
) -> Result<Response, Failure> {
    let me = caller.user.id;
    let printed = match game.position.play_turn(turn) {
        Ok(printed) => printed,
        Err(error) => return Err(illegal(&game, error)),
    };
    let followed = conditional::follow(&game.record, me, &printed, &mut game.position);
    let answerer = followed.answer.as_ref().and_then(|(owner, _)| game.record.seats.side_of(*owner));
    let now = parts.clocks.now();
    let status = game.position.status();
    let counting = counting::opened(&game.position);
    // The bot's turns have no clock: it never loses on time.
    let clock = if parts.seat.to_move(&game) { None } else { parts.clocks.turn_clock(&game.record, players) };
    let Followed { answer, lines, refused } = followed;
    let told = Followed { answer: answer.clone(), lines: Vec::new(), refused };
    let change = |next: &mut crate::store::GameRecord| {
        next.turns.push(printed.clone());
        if let Some((_, answer)) = &answer {
            next.turns.push(answer.clone());
        }
        let played: Vec<_> = [Some(mover), answerer].into_iter().flatten().collect();
        next.pending.after_turn(&played, lines, counting);
        next.clock = clock;
        if let Status::Finished(ending) = status {
            next.finish(Finish::new(ending).at(now));
        }
    };
    parts.respond(caller, game, change, |game| {
        let mut response = turn_response(parts, caller, (game, players), &printed, &told);
        response.notices.extend(conditional::owner_notices(parts, (game, players), &told, &printed));
        response
    })
}

/// The reply to a turn (`played`, and the conditional answer it met, if any) and the
/// messages it sends.
fn turn_response(
    parts: &Parts,
    caller: &Caller,
    (game, players): (&Loaded, &Players),
    played: &str,
    followed: &Followed,
) -> Response {
    let record = &game.record;
    let mut message = Message::new().name(&caller.user.name).push(format!(" played {played} in {}.", record.id));
    if let Some((owner, answer)) = &followed.answer {
        message.append(
            Message::from(" ").name(record.name_of(*owner)).push(format!(" answered {answer} (a conditional turn).")),
        );
    }
    let mut reply =
        Reply { ok: true, images: vec![parts.pictures.public_board(game)], about: Some(record.id), ..Reply::default() };
    let mut buttons = Vec::new();
    let notices = match record.phase {
        Phase::Finished => {
            let result = game.result();
            message.append(format!(" Game over: {result}{}.", game.score()));
            let told = Message::from(format!("{} is over: {result}.", record.id));
            tell::result_notices(parts, (record, players), &told, Some(caller.user.id))
        }
        _ if counting::standing(game).is_some() => {
            reply.message = message;
            return Response { notices: counting::opening(parts, game, &mut reply), reply };
        }
        _ => {
            let mut notices = Vec::new();
            if let Some(user) = game.mover() {
                let to_move = format!(" to move{}.", parts.clocks.time_left(record));
                let name = record.name_of(user);
                // One message per turn: where the reply is the very message the ping would
                // be (the game's channel, for a player told there), the reply pings him.
                let mover = match tell::pinged_in(parts, (record, players), user, caller.channel) {
                    true => Message::from(" ").ping(user, name),
                    false => {
                        notices.extend(tell::turn_ping(parts, game, players));
                        Message::from(" ").name(name)
                    }
                };
                message.append(mover.push(to_move));
                buttons.push(Button::play(record.id));
            }
            notices
        }
    };
    // The player's next game waiting for him, if any.
    buttons.extend(views::most_urgent(parts, caller, game).map(Button::next_game));
    reply.message = message;
    reply.buttons = buttons;
    Response { reply, notices }
}
