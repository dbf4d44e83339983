//! Waiting at start-up for what is not there yet (Discord, the database server): each
//! failed try is logged and made again after a pause that doubles from 1 s up to a minute,
//! until it works, fails for good, or the bot is stopped.

use std::future::Future;
use std::time::Duration;

use tracing::warn;

/// The first pause before trying again.
const FIRST_RETRY: Duration = Duration::from_secs(1);
/// The longest pause between two tries.
const LAST_RETRY: Duration = Duration::from_secs(60);

/// How one try went.
pub enum Try<T, E> {
    Done(T),
    /// Trying again cannot help.
    Fatal(E),
    /// Not there yet: why, for the log.
    Again(String),
}

/// The bot was stopped before what it waited for came.
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("stopped before {0} could be reached")]
pub struct Stopped(pub &'static str);

/// Tries `attempt` until it is done or fails for good, logging each try that asks to be
/// made again as "cannot reach `what`"; ends with [`Stopped`] once `stop` completes.
pub async fn until_done<T, E, Attempt>(
    what: &'static str,
    stop: impl Future<Output = ()>,
    mut attempt: impl FnMut() -> Attempt,
) -> Result<T, E>
where
    Attempt: Future<Output = Try<T, E>>,
    E: From<Stopped>,
{
    let mut stop = std::pin::pin!(stop);
    let mut pause = FIRST_RETRY;
    loop {
        match attempt().await {
            Try::Done(value) => return Ok(value),
            Try::Fatal(error) => return Err(error),
            Try::Again(error) => warn!(%error, retry_in = ?pause, "cannot reach {what}; trying again"),
        }
        tokio::select! {
            () = &mut stop => return Err(Stopped(what).into()),
            () = tokio::time::sleep(pause) => {}
        }
        pause = (pause * 2).min(LAST_RETRY);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn tries_again_with_a_doubling_pause_until_done() {
        let started = tokio::time::Instant::now();
        let mut tries = Vec::new();
        let result: Result<u32, Stopped> = until_done("it", std::future::pending(), || {
            tries.push(started.elapsed().as_secs());
            let n = tries.len();
            async move { if n < 5 { Try::Again(format!("try {n}")) } else { Try::Done(7) } }
        })
        .await;
        assert_eq!(result.unwrap(), 7);
        assert_eq!(tries, [0, 1, 3, 7, 15]);
    }

    #[tokio::test(start_paused = true)]
    async fn the_pause_stops_growing_at_a_minute() {
        let started = tokio::time::Instant::now();
        let mut tries = Vec::new();
        let _: Result<(), Stopped> = until_done("it", std::future::pending(), || {
            tries.push(started.elapsed().as_secs());
            let n = tries.len();
            async move { if n < 10 { Try::Again(String::new()) } else { Try::Done(()) } }
        })
        .await;
        let pauses: Vec<u64> = tries.windows(2).map(|pair| pair[1] - pair[0]).collect();
        assert_eq!(pauses, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
    }

    #[tokio::test(start_paused = true)]
    async fn a_fatal_try_or_a_stop_ends_the_wait() {
        let fatal: Result<(), anyhow::Error> =
            until_done("it", std::future::pending(), || async { Try::Fatal(anyhow::anyhow!("no")) }).await;
        assert_eq!(fatal.unwrap_err().to_string(), "no");
        let stop = tokio::time::sleep(Duration::from_secs(10));
        let stopped: Result<(), Stopped> = until_done("it", stop, || async { Try::Again(String::new()) }).await;
        assert_eq!(stopped.unwrap_err().to_string(), "stopped before it could be reached");
    }
}
