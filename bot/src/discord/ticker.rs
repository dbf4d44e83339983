//! The background task that asks the service, every few seconds, for what is due
//! (reminders, timeouts, expired challenges) and sends it. The deadlines live in the
//! store, so a restart loses none: the first tick runs at start-up.

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude::Http;
use tokio::sync::{RwLock, watch};
use tokio::time::MissedTickBehavior;
use tracing::{debug, warn};

use super::reply::{link_mentions, send_notices};
use crate::service::Service;

/// Ticks every `every` until `stop` turns true.
pub async fn run(
    http: Arc<Http>,
    service: Arc<Service>,
    busy: Arc<RwLock<()>>,
    every: Duration,
    mut stop: watch::Receiver<bool>,
) {
    let mut interval = tokio::time::interval(every);
    interval.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = interval.tick() => {}
            _ = stop.wait_for(|stop| *stop) => return,
        }
        let _busy = busy.read().await;
        let ticking = service.clone();
        let due = move || {
            let mut notices = ticking.tick();
            link_mentions(&ticking, &mut notices);
            notices
        };
        match tokio::task::spawn_blocking(due).await {
            Ok(notices) => {
                debug!(count = notices.len(), "notices due");
                send_notices(&http, &notices).await;
                super::reply::exit_if_stopped(&service);
            }
            Err(error) => warn!(%error, "the service's tick failed"),
        }
    }
}
