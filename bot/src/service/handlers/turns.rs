//! Turns: `/move`, `/drop`, `/pass`. Open, check, play, commit (compare-and-swap on the
//! record's version, flushed), then reply with the board and ping the player to move.

use stonemate_engine::{AnyGame, Color, Role, Square, Status, Turn, TurnError};

use crate::service::error::Failure;
use crate::service::error::Refusal;
use crate::service::games::Fit;
use crate::service::input::BadValue;
use crate::service::loaded::Loaded;
use crate::service::parts::Parts;
use crate::service::tell;
use crate::service::text;
use crate::service::types::{Button, Caller, GameId, Message, Reply, Response, UserId};
use crate::service::users::Players;

use super::views;
use crate::store::{Finish, Phase};

use super::conditional::{self, Followed};
use super::counting;

/// Refuses a player who is not to move; returns his side.
pub(crate) fn check_turn(game: &Loaded, caller: UserId) -> Result<Color, Failure> {
    let side = game.check_playing(caller)?;
    if game.to_move() != Some(side) {
        let name = game.mover().map_or("nobody", |user| game.record.name_of(user));
        return Err(Refusal::NotYourTurn { id: game.id(), name: text::name(name) }.on_board(game.id()));
    }
    Ok(side)
}

/// A turn as it comes to [`turn`].
#[derive(Debug, Clone, Copy)]
pub(crate) enum Played<'a> {
    /// Typed by a player, in the game's notation: read by the game first.
    Typed(&'a str),
    /// Already a turn (`/pass`, `/drop`, the bot's): played as it is.
    Turn(Turn),
}

/// Plays `played` on `position`; returns it as the game prints it (in the position
/// before). A refused turn leaves the position as it was.
fn play(position: &mut AnyGame, played: Played<'_>) -> Result<String, TurnError> {
    let turn = match played {
        Played::Typed(text) => position.parse_turn(text)?,
        Played::Turn(turn) => turn,
    };
    let printed = position.format_turn(turn);
    position.play(turn)?;
    Ok(printed)
}

/// `/move` and `/pass` (and the bot's turns): one turn of the caller.
pub(crate) fn turn(
    parts: &Parts,
    caller: &Caller,
    id: Option<GameId>,
    played: Played<'_>,
) -> Result<Response, Failure> {
    turn_at(parts, caller, id, played, None)
}

/// [`turn`], refused without change unless the record is still at `version` (when given):
/// a turn chosen in a picker is played in the position it was chosen in, or not at all.
pub(crate) fn turn_at(
    parts: &Parts,
    caller: &Caller,
    id: Option<GameId>,
    played: Played<'_>,
    version: Option<u64>,
) -> Result<Response, Failure> {
    let game = parts.games.open(caller, id, Fit::ToMove)?;
    if version.is_some_and(|version| version != game.record.version) {
        return Err(Refusal::PickerStale(game.id()).into());
    }
    let players = parts.users.of(&game.record);
    play_opened(parts, caller, game, &players, played)
}

/// Plays `played` in `game`, already opened (with its `players`, as read so far in this
/// command): the game's record and its players' records are read once per turn, here or
/// by the caller, and handed down.
pub(crate) fn play_opened(
    parts: &Parts,
    caller: &Caller,
    mut game: Loaded,
    players: &Players,
    played: Played<'_>,
) -> Result<Response, Failure> {
    let me = caller.user.id;
    let mover = check_turn(&game, me)?;
    let printed = match play(&mut game.position, played) {
        Ok(printed) => printed,
        Err(error) => {
            // The position is untouched: a refused turn changes nothing.
            return Err(Refusal::Illegal(error).on_board(game.id()));
        }
    };
    // The waiting player's conditional line may answer at once, in the same write.
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

/// `/drop`'s piece letter and square, as the drop they name (played like a typed `/move`).
pub(crate) fn dropped(piece: &str, square: &str) -> Result<Turn, Refusal> {
    let letter = piece.trim();
    let role = match letter.chars().collect::<Vec<_>>().as_slice() {
        [letter] => Role::from_letter(*letter),
        _ => None,
    };
    let role = role.ok_or_else(|| BadValue::Piece(piece.chars().take(20).collect()))?;
    let square: Square = square.trim().parse().map_err(|_| BadValue::Square(square.chars().take(20).collect()))?;
    Ok(Turn::Drop { role, to: square })
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
            if let Some(user) = game.mover() {
                let to_move = format!(" to move{}.", parts.clocks.time_left(record));
                message.append(Message::from(" ").name(record.name_of(user)).push(to_move));
                buttons.push(Button::play(record.id));
            }
            tell::turn_ping(parts, game, players).into_iter().collect()
        }
    };
    // The player's next game waiting for him, if any.
    buttons.extend(views::most_urgent(parts, caller, Some(record.id)).map(Button::next_game));
    reply.message = message;
    reply.buttons = buttons;
    Response { reply, notices }
}
