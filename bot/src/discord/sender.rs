//! The sender of the notice outbox: a background task that claims the notices due
//! ([`Service::claim_notices`]), sends each as a new Discord message, and tells the service
//! how it went ([`Service::settle`]): delivered, worth a retry, or refused (a closed DM,
//! a channel the bot may not post in). It runs when woken (after a reply, a tick, a bot
//! turn) and every `every` besides, so that retries fall due without a wake.
//!
//! **Replies first.** A command holds [`Outbox::replying`] from before the service call
//! until its reply is sent; a pass claims only while no command holds it. So every notice
//! a command caused (its pings, and the bot's answering turn, which cannot be applied
//! before the command's commit) is claimed after that command's reply went out.

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::Http;
use serenity::http::HttpError;
use tokio::sync::{Notify, OwnedRwLockReadGuard, RwLock, watch};
use tracing::warn;

use super::reply::{close_thread, edit_notice, exit_if_stopped, open_thread, send_notice};
use crate::service::{ChannelId, Delivery, Notice, Outgoing, Service, Target, ThreadStep};

/// How long a pass waits for a moment without replies in flight before it queues.
const PATIENCE: Duration = Duration::from_secs(2);

/// Discord's error code for "Cannot send messages to this user".
const CANNOT_MESSAGE_USER: isize = 50007;

/// The outbox's sender. See the module documentation.
#[derive(Debug)]
pub struct Outbox {
    service: Arc<Service>,
    http: Arc<Http>,
    gate: Arc<RwLock<()>>,
    wake: Notify,
}

impl Outbox {
    pub fn new(service: Arc<Service>, http: Arc<Http>) -> Outbox {
        Outbox { service, http, gate: Arc::new(RwLock::new(())), wake: Notify::new() }
    }

    /// Held by a command until its reply is sent: no notice is claimed meanwhile.
    pub async fn replying(&self) -> OwnedRwLockReadGuard<()> {
        self.gate.clone().read_owned().await
    }

    /// Asks for a pass now (a wake while one runs makes another after it).
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Sends what falls due, at every wake and every `every`, until `stop` turns true.
    pub async fn run(self: Arc<Self>, every: Duration, mut stop: watch::Receiver<bool>) {
        loop {
            self.pass().await;
            tokio::select! {
                () = self.wake.notified() => {}
                () = tokio::time::sleep(every) => {}
                _ = stop.wait_for(|stop| *stop) => return,
            }
        }
    }

    /// Claims and sends until nothing is due.
    async fn pass(&self) {
        loop {
            let claimed = {
                let _no_reply_pending = self.no_reply_pending().await;
                let service = self.service.clone();
                tokio::task::spawn_blocking(move || service.claim_notices()).await
            };
            let claimed = match claimed {
                Ok(claimed) if !claimed.is_empty() => claimed,
                Ok(_) => return,
                Err(error) => {
                    warn!(%error, "claiming notices failed");
                    return;
                }
            };
            for outgoing in claimed {
                self.send(outgoing).await;
            }
            exit_if_stopped(&self.service);
        }
    }

    /// Waits until no command is between its service call and its reply. Without
    /// queueing ahead of new commands at first (they would wait for the slowest one in
    /// flight); after [`PATIENCE`], in the queue, so that constant traffic cannot starve
    /// the notices.
    async fn no_reply_pending(&self) -> tokio::sync::RwLockWriteGuard<'_, ()> {
        let patience = tokio::time::Instant::now() + PATIENCE;
        loop {
            if let Ok(guard) = self.gate.try_write() {
                return guard;
            }
            if tokio::time::Instant::now() >= patience {
                return self.gate.write().await;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    async fn send(&self, outgoing: Outgoing) {
        if let Some(ThreadStep::Open { name }) = &outgoing.notice.thread {
            let name = name.clone();
            return self.open(outgoing, &name).await;
        }
        let direct = matches!(outgoing.notice.target, Target::Direct(_));
        let delivery = match self.post_or_edit(&outgoing).await {
            Ok(delivery) => delivery,
            Err(error) => {
                let delivery = classify(&error, direct);
                warn!(target = ?outgoing.notice.target, game = ?outgoing.notice.about, %error, ?delivery, "could not deliver a notice");
                delivery
            }
        };
        self.settle(outgoing, delivery).await;
    }

    async fn settle(&self, outgoing: Outgoing, delivery: Delivery) {
        let service = self.service.clone();
        if let Err(error) = tokio::task::spawn_blocking(move || service.settle(outgoing, delivery)).await {
            warn!(%error, "settling a notice failed");
        }
    }

    /// Opens a game's thread, stores it, then greets the players in it (the greeting pings
    /// them, which adds them to the thread): stored first, so that a command used in the
    /// thread once it shows finds the game there.
    async fn open(&self, outgoing: Outgoing, name: &str) {
        let notice = outgoing.notice.clone();
        let delivery = match open_thread(&self.http, &notice, name).await {
            Ok(thread) => Delivery::Posted(thread),
            Err(error) => {
                warn!(game = ?notice.about, %error, "could not open a game's thread");
                classify(&error, false)
            }
        };
        self.settle(outgoing, delivery).await;
        if let Delivery::Posted(thread) = delivery {
            let greeting = Notice { target: Target::Channel(ChannelId(thread)), thread: None, ..notice };
            if let Err(error) = send_notice(&self.http, &greeting).await {
                warn!(thread, %error, "a game's thread opened without its greeting");
            }
        }
    }

    /// Sends a notice as a new message, or edits the message it replaces; one whose
    /// message was deleted (a 404) is posted anew. A tournament's standings posted anew
    /// give their message's id, for the next edit.
    async fn post_or_edit(&self, outgoing: &Outgoing) -> Result<Delivery, serenity::Error> {
        if let Some(message) = outgoing.edits {
            match edit_notice(&self.http, &outgoing.notice, message).await {
                Ok(()) => return Ok(Delivery::Sent),
                Err(error) if status_of(&error) == Some(404) => {
                    warn!(message, "the standings message to edit is gone: posting it anew");
                }
                Err(error) => return Err(error),
            }
        }
        let notice = &outgoing.notice;
        if notice.thread == Some(ThreadStep::Archive) {
            return close_thread(&self.http, notice).await.map(|_| Delivery::Sent);
        }
        let message = send_notice(&self.http, notice).await?;
        Ok(if notice.standings.is_some() { Delivery::Posted(message) } else { Delivery::Sent })
    }
}

/// The HTTP status of a request Discord answered with an error.
fn status_of(error: &serenity::Error) -> Option<u16> {
    match error {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) => Some(response.status_code.as_u16()),
        _ => None,
    }
}

/// What a failed send means for the notice: a 403 (or Discord's 50007) refuses it for
/// good, in a DM or in a channel; other client errors are not worth retrying; server
/// errors, rate limits and a lost connection are.
#[must_use]
pub fn classify(error: &serenity::Error, direct: bool) -> Delivery {
    let serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) = error else {
        return Delivery::Failed;
    };
    verdict(response.status_code.as_u16(), response.error.code, direct)
}

/// [`classify`] on what Discord answered: the HTTP status and its JSON error code.
fn verdict(status: u16, code: isize, direct: bool) -> Delivery {
    match (status, direct) {
        (403, true) => Delivery::DmClosed,
        (_, true) if code == CANNOT_MESSAGE_USER => Delivery::DmClosed,
        (403, false) => Delivery::ChannelClosed,
        (408 | 429, _) => Delivery::Failed,
        (400..=499, _) => Delivery::Rejected,
        _ => Delivery::Failed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discords_answers_decide_the_notices_fate() {
        let cases = [
            // (status, code, a DM?, what becomes of the notice)
            (403, 50007, true, Delivery::DmClosed),
            (403, 0, true, Delivery::DmClosed),
            (400, 50007, true, Delivery::DmClosed),
            (400, 50007, false, Delivery::Rejected),
            (403, 50001, false, Delivery::ChannelClosed),
            (403, 50013, false, Delivery::ChannelClosed),
            (404, 10003, false, Delivery::Rejected),
            (400, 50035, true, Delivery::Rejected),
            (408, 0, false, Delivery::Failed),
            (429, 0, true, Delivery::Failed),
            (500, 0, false, Delivery::Failed),
            (502, 0, true, Delivery::Failed),
            (503, 0, false, Delivery::Failed),
        ];
        for (status, code, direct, expected) in cases {
            assert_eq!(verdict(status, code, direct), expected, "{status} {code} direct={direct}");
        }
    }

    #[test]
    fn a_lost_connection_is_retried() {
        let error = serenity::Error::Other("connection reset");
        assert_eq!(classify(&error, true), Delivery::Failed);
        assert_eq!(classify(&error, false), Delivery::Failed);
    }
}
