//! The command handlers, grouped by feature: each is a function of the caller, its typed
//! arguments and the [`Parts`] it works with. The list of commands
//! ([`commands`](crate::service::commands)) calls them; [`press`] routes button presses.

pub(crate) mod challenge;
pub(crate) mod community;
pub(crate) mod complete;
pub(crate) mod due;
pub(crate) mod endings;
pub(crate) mod history;
pub(crate) mod seat;
pub(crate) mod turns;
pub(crate) mod vacation;
pub(crate) mod views;

use crate::service::error::Refusal;
use crate::service::types::{Caller, GameId, Response};
use crate::service::{Parts, text};

/// Runs one button press (see [`Service::press`](crate::service::Service::press)).
pub(crate) fn press(parts: &Parts, caller: &Caller, custom_id: &str) -> Result<Response, Refusal> {
    let bad = || Refusal::UnknownButton(text::typed(&custom_id.chars().take(100).collect::<String>()));
    let (action, id) = custom_id.split_once(':').ok_or_else(bad)?;
    if let Some(step) = custom_id.strip_prefix(history::PREFIX) {
        let (id, turn) = history::parse(step).ok_or_else(bad)?;
        return history::step_history(parts, caller, id, turn);
    }
    let id = GameId(id.parse::<u32>().map_err(|_| bad())?);
    // Every action below looks the id up in the caller's server only.
    match action {
        "accept" => challenge::accept(parts, caller, Some(id)),
        "decline" => challenge::decline(parts, caller, Some(id)),
        "resign" => endings::resign(parts, caller, id),
        "draw-accept" => endings::answer_draw(parts, caller, id, true),
        "draw-decline" => endings::answer_draw(parts, caller, id, false),
        "rematch" => community::rematch(parts, caller, id),
        _ => Err(bad()),
    }
}
