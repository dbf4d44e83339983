//! Before anything starts, Discord is asked whom the token belongs to. A refused token ends
//! the run at once with a message that says what to fix (retrying cannot help); network
//! trouble and Discord's own errors are retried with a growing pause, each logged.

use std::future::Future;
use std::time::Duration;

use serenity::http::{Http, HttpError, StatusCode};
use tracing::{info, warn};

/// The first pause before asking Discord again.
const FIRST_RETRY: Duration = Duration::from_secs(1);
/// The longest pause between two tries.
const LAST_RETRY: Duration = Duration::from_secs(60);

/// Why the bot did not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(
        "Discord refused the token ({status}): check DISCORD_TOKEN (or discord.token in the config file); \
         the developer portal gives a new one under Bot → Reset Token"
    )]
    TokenRefused { status: StatusCode },
    #[error("stopped before Discord could be reached")]
    Stopped,
}

/// The status that means the token itself is refused, if `error` is that.
fn refusal(error: &serenity::Error) -> Option<StatusCode> {
    let serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) = error else { return None };
    [StatusCode::UNAUTHORIZED, StatusCode::FORBIDDEN].contains(&response.status_code).then_some(response.status_code)
}

/// Asks Discord for the bot's own user until it answers; returns the bot's name. Ends early
/// with [`StartError::TokenRefused`], or [`StartError::Stopped`] once `stop` completes.
pub async fn check(http: &Http, stop: impl Future<Output = ()>) -> Result<String, StartError> {
    let mut stop = std::pin::pin!(stop);
    let mut pause = FIRST_RETRY;
    loop {
        let error = match http.get_current_user().await {
            Ok(user) => {
                info!(bot = %user.name, "Discord accepted the token");
                return Ok(user.name.clone());
            }
            Err(error) => error,
        };
        if let Some(status) = refusal(&error) {
            return Err(StartError::TokenRefused { status });
        }
        warn!(%error, retry_in = ?pause, "cannot reach Discord; trying again");
        tokio::select! {
            () = &mut stop => return Err(StartError::Stopped),
            () = tokio::time::sleep(pause) => {}
        }
        pause = (pause * 2).min(LAST_RETRY);
    }
}
