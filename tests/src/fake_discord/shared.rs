//! The state the fake's API and gateway share: ids, the recorded requests, users, the
//! messages interactions own, and the failures a test asked for.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use serde_json::Value;
use tokio::sync::{Notify, mpsc, watch};

use super::described;
use super::failures::{self, Failure, Route};
use super::payloads;
use super::recorded::Recorded;

pub(crate) struct Shared {
    pub(super) application_id: u64,
    pub(super) bot_id: u64,
    pub(super) gateway_url: String,
    pub(super) next_id: AtomicU64,
    pub(super) gateway: Mutex<Option<mpsc::UnboundedSender<(String, Value)>>>,
    pub(super) connected: watch::Sender<bool>,
    pub(super) log: Mutex<Vec<Recorded>>,
    pub(super) logged: Notify,
    pub(super) users: Mutex<HashMap<u64, Value>>,
    /// Interaction token → (channel, id of its original message).
    pub(super) originals: Mutex<HashMap<String, (u64, Option<u64>)>>,
    /// Interaction token of a button press → (channel, id of the pressed message).
    pub(super) pressed: Mutex<HashMap<String, (u64, u64)>>,
    pub(super) dms: Mutex<HashMap<u64, u64>>,
    /// Answer every API request 401, as Discord answers a wrong token.
    pub(super) refusing: AtomicBool,
    /// The `[shard, total]` of every IDENTIFY, in order.
    pub(super) shards: Mutex<Vec<[u64; 2]>>,
    /// Failures to answer new messages with ([`FakeDiscord::fail`]).
    pub(super) failures: Mutex<Vec<Failure>>,
    /// How long the next interaction callback waits before it is answered
    /// ([`FakeDiscord::stall_next_callback`]).
    pub(super) stall: Mutex<Option<Duration>>,
    /// The threads the bot opened: id → channel object.
    pub(super) threads: Mutex<HashMap<u64, Value>>,
    /// Every way a request broke Discord's API description ([`super::described`]).
    pub(super) violations: Mutex<Vec<String>>,
    /// What the bot's own role grants in every server ([`FakeDiscord::grant_bot`]).
    ///
    /// [`FakeDiscord::grant_bot`]: super::FakeDiscord::grant_bot
    pub(super) bot_permissions: AtomicU64,
}

pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Shared {
    pub(super) fn new_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    pub(super) fn connect(&self, sender: mpsc::UnboundedSender<(String, Value)>) {
        *lock(&self.gateway) = Some(sender);
        self.connected.send_replace(true);
    }

    pub(super) fn identified(&self, shard: [u64; 2]) {
        lock(&self.shards).push(shard);
        self.logged.notify_waiters();
    }

    pub(super) fn disconnect(&self) {
        *lock(&self.gateway) = None;
        self.connected.send_replace(false);
    }

    pub(super) fn record(&self, recorded: Recorded) {
        lock(&self.log).push(recorded);
        self.logged.notify_waiters();
    }

    pub(super) fn bot_user(&self) -> Value {
        payloads::user(self.bot_id, "Stonemate", true)
    }

    pub(super) fn user_json(&self, id: u64) -> Value {
        if id == self.bot_id {
            return self.bot_user();
        }
        lock(&self.users).get(&id).cloned().unwrap_or_else(|| payloads::unknown_user(id))
    }

    pub(super) fn interaction_channel(&self, token: &str) -> u64 {
        lock(&self.originals).get(token).map_or(0, |(channel, _)| *channel)
    }

    pub(super) fn create_message(&self, channel: u64, data: &Value, files: usize) -> Value {
        payloads::message(self.new_id(), channel, &self.bot_user(), data, files)
    }

    /// Creates or replaces the original message of an interaction.
    pub(super) fn create_original(&self, token: &str, data: &Value, files: usize) -> Value {
        let mut originals = lock(&self.originals);
        let entry = originals.entry(token.to_owned()).or_insert((0, None));
        let id = *entry.1.get_or_insert_with(|| self.new_id());
        payloads::message(id, entry.0, &self.bot_user(), data, files)
    }

    /// An update of a press (or its deferral) makes the pressed message the interaction's
    /// original one, as on Discord: editing the original then edits the pressed message.
    pub(super) fn original_is_pressed(&self, token: &str) {
        if let Some(&(channel, message)) = lock(&self.pressed).get(token) {
            lock(&self.originals).insert(token.to_owned(), (channel, Some(message)));
        }
    }

    /// The failure that answers a new message in `channel`, if a test set one.
    pub(super) fn failure_for(&self, channel: u64) -> Option<Failure> {
        let dm = lock(&self.dms).values().any(|&dm| dm == channel);
        failures::take(&mut lock(&self.failures), Route::Channel(channel), dm)
    }

    /// The failure that answers a new thread in `channel`, if a test set one.
    pub(super) fn thread_failure_for(&self, channel: u64) -> Option<Failure> {
        failures::take(&mut lock(&self.failures), Route::Threads(channel), false)
    }

    /// Opens a public thread in `channel` (from `message`, if any): its channel object.
    pub(super) fn open_thread(&self, channel: u64, message: Option<u64>, body: &Value) -> Value {
        let id = message.unwrap_or_else(|| self.new_id());
        let thread = payloads::thread(id, channel, self.bot_id, body);
        lock(&self.threads).insert(id, thread.clone());
        thread
    }

    /// Changes thread `id` as `body` says (archived, locked, name...); `None` if `id` is
    /// no thread.
    pub(super) fn edit_thread(&self, id: u64, body: &Value) -> Option<Value> {
        let mut threads = lock(&self.threads);
        let thread = threads.get_mut(&id)?;
        for field in ["archived", "locked"] {
            if let Some(value) = body.get(field).filter(|value| value.is_boolean()) {
                thread["thread_metadata"][field] = value.clone();
            }
        }
        if let Some(name) = body.get("name").filter(|name| name.is_string()) {
            thread["name"] = name.clone();
        }
        Some(thread.clone())
    }

    /// A new message in an archived thread that is not locked reopens it, as Discord does.
    pub(super) fn post_reopens(&self, channel: u64) {
        if let Some(thread) = lock(&self.threads).get_mut(&channel)
            && thread["thread_metadata"]["locked"] != true
        {
            thread["thread_metadata"]["archived"] = Value::Bool(false);
        }
    }

    /// Counts what `body` breaks of Discord's description of its request (`described`).
    pub(super) fn check(&self, body: &Value, described: &described::Body) {
        lock(&self.violations).extend(described.violations(body));
    }

    pub(super) fn dm_channel(&self, user: u64) -> u64 {
        *lock(&self.dms).entry(user).or_insert_with(|| self.new_id())
    }
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared").field("application_id", &self.application_id).finish_non_exhaustive()
    }
}
