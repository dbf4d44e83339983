//! Before anything starts, Discord is asked whom the token belongs to. A refused token ends
//! the run at once with a message that says what to fix (retrying cannot help); network
//! trouble and Discord's own errors are retried with a growing pause, each logged.

use std::future::Future;

use serenity::http::{Http, HttpError, StatusCode};
use tracing::info;

use super::patience::{Stopped, Try};

/// Why the bot did not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// Discord refused the token: it is wrong, or was reset.
    #[error(
        "Discord refused the token ({status}): check DISCORD_TOKEN (or discord.token in the config file); \
         the developer portal gives a new one under Bot → Reset Token"
    )]
    TokenRefused {
        /// Discord's answer (401 or 403).
        status: StatusCode,
    },
    /// The bot was asked to stop while it was still trying to reach Discord.
    #[error(transparent)]
    Stopped(#[from] Stopped),
}

/// The status that means the token itself is refused, if `error` is that.
fn refusal(error: &serenity::Error) -> Option<StatusCode> {
    let serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) = error else { return None };
    [StatusCode::UNAUTHORIZED, StatusCode::FORBIDDEN].contains(&response.status_code).then_some(response.status_code)
}

/// Asks Discord for the bot's own user until it answers; returns the bot's name. Ends early
/// with [`StartError::TokenRefused`], or [`StartError::Stopped`] once `stop` completes.
pub async fn check(http: &Http, stop: impl Future<Output = ()>) -> Result<String, StartError> {
    super::patience::until_done("Discord", stop, || async {
        match http.get_current_user().await {
            Ok(user) => {
                info!(bot = %user.name, "Discord accepted the token");
                Try::Done(user.name.clone())
            }
            Err(error) => match refusal(&error) {
                Some(status) => Try::Fatal(StartError::TokenRefused { status }),
                None => Try::Again(error.to_string()),
            },
        }
    })
    .await
}
