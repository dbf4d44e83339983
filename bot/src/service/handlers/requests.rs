//! The one rule for requests, which ping the opponent: a draw offer, a takeback request, a
//! proposal of dead pieces. **One request stands at a time, and one turned down is not
//! asked again until the opponent has had his say**: until he has played
//! [`TURNS_BETWEEN`] turns since (a counting proposal, which no turn follows, until he has
//! answered it). Each handler asks [`check`] before it writes anything, so a refused
//! request changes nothing and pings nobody.

pub(crate) mod refusal;

use stonemate_engine::Color;

use crate::service::loaded::Loaded;
use crate::service::text;
use crate::store::Asked;
use refusal::{RequestKind, RequestRefusal};

/// The opponent's turns between two requests of one kind by one player (what draw
/// offers have asked since issue 27).
pub(crate) const TURNS_BETWEEN: usize = 2;

/// The rule for a new request of `kind` by `side` in `game`. `standing`: whether his last
/// one still waits for an answer; `asked`: when each side last made one, for a kind the
/// opponent may answer by playing on (`None` for a counting proposal, answered only by
/// another proposal or by resuming play, each an act of the opponent's own).
pub(crate) fn check(
    game: &Loaded,
    side: Color,
    kind: RequestKind,
    standing: bool,
    asked: Option<Asked>,
) -> Result<(), RequestRefusal> {
    let record = &game.record;
    let name = record.seats.player(side.other()).map_or_else(String::new, |user| text::name(record.name_of(user)));
    if standing {
        return Err(RequestRefusal::Standing { kind, id: game.id(), name });
    }
    let turns = asked.map_or(0, |asked| turns_before(game, side, asked));
    if turns > 0 {
        return Err(RequestRefusal::TooSoon { kind, id: game.id(), name, turns });
    }
    Ok(())
}

/// How many turns the opponent of `side` must still play before `side` may ask again:
/// [`TURNS_BETWEEN`] since his last request, counted in the record.
fn turns_before(game: &Loaded, side: Color, asked: Asked) -> usize {
    let (Some(at), Some(to_move)) = (asked.of(side), game.to_move()) else { return 0 };
    let played = game.record.turns.len();
    // A takeback may have removed turns since: the request then counts from the end.
    let at = usize::try_from(at).unwrap_or(played).min(played);
    // Every turn gives the move to the other side: the turn at `index` was played by the
    // side to move now when `played - index` is even.
    let opponents = (at..played).filter(|index| ((played - index) % 2 == 0) == (to_move == side.other())).count();
    TURNS_BETWEEN.saturating_sub(opponents)
}
