//! Background work the running bot does on a schedule (the tick of the deadlines, the
//! scheduled exports): one loop for all of it.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{RwLock, watch};
use tokio::task::JoinError;
use tokio::time::MissedTickBehavior;

/// Runs the blocking `job` every `period` (the first time at once) until `stop` turns
/// true, and hands each outcome (or the job's panic) to `done`. Holds `busy` for reading
/// while the job runs, so that shutdown waits for it like for a command; a period missed
/// while a job ran is not made up in a burst.
pub async fn every<T: Send + 'static>(
    period: Duration,
    busy: Arc<RwLock<()>>,
    mut stop: watch::Receiver<bool>,
    job: impl Fn() -> T + Send + Sync + 'static,
    mut done: impl FnMut(Result<T, JoinError>),
) {
    let job = Arc::new(job);
    let mut interval = tokio::time::interval(period);
    interval.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = interval.tick() => {}
            _ = stop.wait_for(|stop| *stop) => return,
        }
        let _busy = busy.read().await;
        let job = job.clone();
        done(tokio::task::spawn_blocking(move || job()).await);
    }
}
