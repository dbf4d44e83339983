//! Failures the fake Discord answers with, on command: a 500, a 403 with Discord's codes
//! for a channel the bot may not use (50001 Missing Access, 50013 Missing Permissions) or a
//! user who takes no direct messages (50007), for chosen routes, for the next N requests
//! or until cleared.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Json, Response};
use serde_json::json;

/// Which requests a failure answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// New messages in one channel (a guild channel).
    Channel(u64),
    /// New messages in any direct-message channel.
    Dms,
    /// New threads in one channel.
    Threads(u64),
}

/// One failure rule: `route` is answered with `status` and Discord's error `code`, for the
/// next `times` requests (`None`: until [`super::FakeDiscord::clear_failures`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failure {
    pub route: Route,
    pub status: u16,
    pub code: u64,
    pub times: Option<usize>,
}

impl Failure {
    /// A 500, as Discord answers when it has trouble of its own.
    #[must_use]
    pub fn server_error(route: Route) -> Failure {
        Failure { route, status: 500, code: 0, times: None }
    }

    /// 403 Missing Access: the bot cannot see the channel.
    #[must_use]
    pub fn missing_access(channel: u64) -> Failure {
        Failure { route: Route::Channel(channel), status: 403, code: 50001, times: None }
    }

    /// 403 Missing Permissions: the bot may not send messages there.
    #[must_use]
    pub fn missing_permissions(channel: u64) -> Failure {
        Failure { route: Route::Channel(channel), status: 403, code: 50013, times: None }
    }

    /// 403 Cannot send messages to this user: closed direct messages.
    #[must_use]
    pub fn dms_closed() -> Failure {
        Failure { route: Route::Dms, status: 403, code: 50007, times: None }
    }

    /// 403 Missing Permissions for new threads in `channel`: the bot may not create them
    /// (Create Public Threads).
    #[must_use]
    pub fn no_threads(channel: u64) -> Failure {
        Failure { route: Route::Threads(channel), status: 403, code: 50013, times: None }
    }

    /// The same failure for the next `times` requests only.
    #[must_use]
    pub fn times(self, times: usize) -> Failure {
        Failure { times: Some(times), ..self }
    }

    pub(super) fn response(&self) -> Response {
        let message = match self.code {
            50001 => "Missing Access",
            50013 => "Missing Permissions",
            50007 => "Cannot send messages to this user",
            _ => "500: Internal Server Error",
        };
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, Json(json!({ "message": message, "code": self.code }))).into_response()
    }
}

/// The rule that answers a request on `route` (for a new message, `dm` says whether its
/// channel is a DM channel), if any; a rule counting down is used up by it.
pub(super) fn take(rules: &mut Vec<Failure>, route: Route, dm: bool) -> Option<Failure> {
    let index = rules.iter().position(|rule| match (rule.route, route) {
        (Route::Dms, Route::Channel(_)) => dm,
        (rule, route) => rule == route,
    })?;
    let rule = rules[index];
    match rule.times {
        Some(1) => drop(rules.remove(index)),
        Some(n) => rules[index].times = Some(n - 1),
        None => {}
    }
    Some(rule)
}
