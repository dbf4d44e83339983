//! The command handlers, grouped by feature: each is a function of the caller, its typed
//! arguments and the [`Parts`] it works with. The list of commands
//! ([`commands`](crate::service::commands)) calls them, for commands and for the buttons
//! declared beside them; [`press`] reads a button's id.

pub(crate) mod challenge;
pub(crate) mod community;
pub(crate) mod complete;
pub(crate) mod conditional;
pub(crate) mod counting;
pub(crate) mod digest;
pub(crate) mod due;
pub(crate) mod endings;
pub(crate) mod explore;
pub(crate) mod history;
pub(crate) mod picker;
pub(crate) mod play;
pub(crate) mod requests;
pub(crate) mod score;
pub(crate) mod seat;
pub(crate) mod takeback;
pub(crate) mod tournament;
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
    // Every button's handler looks the id up in the caller's server only.
    let mut response = action.run(parts, caller, value)?;
    // As the press is declared, whatever its handler made.
    response.reply.private |= action.is_private();
    Ok(response)
}
