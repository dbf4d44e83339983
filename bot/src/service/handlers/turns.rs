//! Turns: `/move`, `/drop` and `/pass` ([`turn`], also the bot's way in): read the turn
//! once, then preview it (`/settings confirm:on`) or play it through [`play::play`], the
//! one way a turn is played.

use stonemate_engine::{Role, Square, Turn};

use crate::service::error::Failure;
use crate::service::error::Refusal;
use crate::service::games::Fit;
use crate::service::input::BadValue;
use crate::service::parts::Parts;
use crate::service::types::{Caller, GameId, Response};

use super::picker;
use super::play::{self, check_turn, illegal};

/// A turn as a command brings it to [`turn`].
#[derive(Debug, Clone, Copy)]
pub(crate) enum Played<'a> {
    /// Typed by a player in the game's notation (`/move`): read by the game first.
    Typed(&'a str),
    /// Already a turn (`/pass`, `/drop`, the bot's).
    Turn(Turn),
}

/// `/move`, `/drop`, `/pass` and the bot's turns: one turn of the caller, played at once,
/// or first previewed with Confirm and Cancel when he asked for that (`/settings
/// confirm:on`) and the turn is legal. The game's record and its players' records are
/// read once, here, and handed down.
pub(crate) fn turn(
    parts: &Parts,
    caller: &Caller,
    id: Option<GameId>,
    played: Played<'_>,
) -> Result<Response, Failure> {
    let me = caller.user.id;
    let game = parts.games.open(caller, id, Fit::ToMove)?;
    let mover = check_turn(&game, me)?;
    let turn = match played {
        // The one place a typed turn is read.
        Played::Typed(notation) => game.position.parse_turn(notation).map_err(|error| illegal(&game, error))?,
        Played::Turn(turn) => turn,
    };
    let players = parts.users.of(&game.record);
    if players.confirms(me)
        && let Some(preview) = picker::preview(parts, caller, &game, turn)
    {
        return preview;
    }
    play::play(parts, caller, (game, &players), mover, turn)
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
