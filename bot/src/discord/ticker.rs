//! The background task that asks the service, every few seconds, for what is due
//! (reminders, timeouts, expired challenges): the service writes those notices to the
//! outbox, and the outbox's sender is woken to send them. The deadlines live in the
//! store, so a restart loses none: the first tick runs at start-up.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{RwLock, watch};
use tracing::{debug, warn};

use super::sender::Outbox;
use crate::service::Service;

/// Ticks every `every` until `stop` turns true.
pub async fn run(
    outbox: Arc<Outbox>,
    service: Arc<Service>,
    busy: Arc<RwLock<()>>,
    every: Duration,
    stop: watch::Receiver<bool>,
) {
    let ticking = service.clone();
    let job = move || ticking.tick().len();
    crate::periodic::every(every, busy, stop, job, |outcome| match outcome {
        Ok(count) => {
            debug!(count, "notices due");
            outbox.wake();
            super::reply::exit_if_stopped(&service);
        }
        Err(error) => warn!(%error, "the service's tick failed"),
    })
    .await;
}
