//! The command handlers, grouped by feature: each is a function of the caller, its typed
//! arguments and the [`Parts`] it works with. The list of commands
//! ([`commands`](crate::service::commands)) calls them; [`press`] routes button presses.

pub(crate) mod challenge;
pub(crate) mod community;
pub(crate) mod complete;
pub(crate) mod conditional;
pub(crate) mod counting;
pub(crate) mod due;
pub(crate) mod endings;
pub(crate) mod history;
pub(crate) mod picker;
pub(crate) mod play;
pub(crate) mod seat;
pub(crate) mod takeback;
pub(crate) mod turns;
pub(crate) mod vacation;
pub(crate) mod views;

use crate::service::buttons::Action;
use crate::service::error::{Failure, Refusal};
use crate::service::parts::Parts;
use crate::service::text;
use crate::service::types::{Caller, Response};

/// Runs one button press (see [`Service::press`](crate::service::Service::press)).
pub(crate) fn press(parts: &Parts, caller: &Caller, custom_id: &str) -> Result<Response, Failure> {
    choose(parts, caller, custom_id, None)
}

/// Runs one press, or one choice of a select menu (`value`: what was chosen; see
/// [`Service::select`](crate::service::Service::select)).
pub(crate) fn choose(
    parts: &Parts,
    caller: &Caller,
    custom_id: &str,
    value: Option<&str>,
) -> Result<Response, Failure> {
    let bad = || Refusal::UnknownButton(text::typed(&custom_id.chars().take(100).collect::<String>()));
    let action = custom_id.parse::<Action>().map_err(|_| bad())?;
    let mut response = run(parts, caller, action, value)?;
    // As the press is declared, whatever its handler made.
    response.reply.private |= action.is_private();
    Ok(response)
}

/// Runs the handler of a press.
fn run(parts: &Parts, caller: &Caller, action: Action, value: Option<&str>) -> Result<Response, Failure> {
    // Every action below looks the id up in the caller's server only.
    match action {
        Action::Accept(id) => challenge::accept(parts, caller, Some(id)),
        Action::Decline(id) => challenge::decline(parts, caller, Some(id)),
        Action::Resign(id) => endings::resign(parts, caller, id),
        Action::DrawAccept(id) => endings::answer_draw(parts, caller, id, true),
        Action::DrawDecline(id) => endings::answer_draw(parts, caller, id, false),
        Action::Rematch(id) => community::rematch(parts, caller, id),
        Action::TakebackAccept(id) => takeback::answer(parts, caller, id, true),
        Action::TakebackDecline(id) => takeback::answer(parts, caller, id, false),
        Action::AcceptDead { id, proposal } => counting::accept(parts, caller, id, proposal),
        Action::Resume(id) => counting::resume(parts, caller, id),
        Action::History { id, turn, .. } => history::step_history(parts, caller, id, turn),
        Action::Play(id) => picker::open(parts, caller, Some(id)),
        Action::NextGame(id) => views::show_board(parts, caller, Some(id)),
        Action::Pick { press, id, version, path } => picker::press(parts, caller, press, (id, version, path), value),
    }
}
