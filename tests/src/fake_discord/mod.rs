//! A fake Discord on 127.0.0.1 for running the real serenity client in tests: an HTTP API
//! (`http.rs`) and a websocket gateway (`gateway.rs`). Tests send interactions through
//! the gateway and read what the bot sent back from the recorded requests. Everything
//! stops when the [`FakeDiscord`] is dropped.

mod failures;
mod gateway;
mod http;
pub mod payloads;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::{Notify, mpsc, watch};
use tokio::task::JoinHandle;

pub use failures::{Failure, Route};
pub use payloads::Origin;

/// Interaction response types (Discord's callback `type`).
pub const DEFERRED_REPLY: u64 = 5;
/// A button press acknowledged now, its message edited later.
pub const DEFERRED_UPDATE: u64 = 6;
/// A button press answered by replacing the message the button is on.
pub const UPDATE_MESSAGE: u64 = 7;
/// The `flags` bit of an ephemeral (private) message.
pub const EPHEMERAL: u64 = 1 << 6;

/// One request the bot made.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub at: Instant,
    pub kind: RequestKind,
    /// The JSON body (`payload_json` of a multipart request).
    pub body: Value,
    /// The attached files, in order.
    pub files: Vec<Vec<u8>>,
    /// The message the request created or edited, as the API returned it.
    pub message: Option<Value>,
}

impl Recorded {
    fn new(kind: RequestKind, body: Value, files: Vec<Vec<u8>>, message: Option<Value>) -> Self {
        Recorded { at: Instant::now(), kind, body, files, message }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestKind {
    Commands {
        guild: Option<u64>,
    },
    Callback {
        interaction: u64,
        token: String,
    },
    EditOriginal {
        token: String,
    },
    DeleteOriginal {
        token: String,
    },
    Followup {
        token: String,
    },
    ChannelMessage {
        channel: u64,
    },
    EditChannelMessage {
        channel: u64,
        message: u64,
    },
    DmChannel {
        recipient: u64,
    },
    /// A new message the fake refused, as a [`Failure`] told it to.
    Refused {
        channel: u64,
        status: u16,
        code: u64,
    },
    Unknown {
        method: String,
        path: String,
    },
}

/// An interaction the fake sent.
#[derive(Debug, Clone)]
pub struct Sent {
    pub id: u64,
    pub token: String,
    pub at: Instant,
}

/// What the bot answered to an interaction, deferred replies resolved.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The callback type: 4 reply, 5 deferred reply, 7 update, 8 autocomplete choices.
    pub kind: u64,
    /// The message data (content, flags, components, allowed mentions, choices).
    pub data: Value,
    pub files: Vec<Vec<u8>>,
    /// The message as the API holds it, for pressing its buttons.
    pub message: Option<Value>,
    /// When the final part of the answer arrived.
    pub at: Instant,
    /// When the interaction was first answered (its callback: the reply, or a deferral).
    pub acknowledged: Instant,
    /// That first answer as sent (for a deferral: whom its "thinking…" shows to).
    pub acknowledgement: Value,
}

impl Answer {
    pub fn content(&self) -> &str {
        self.data["content"].as_str().unwrap_or("")
    }

    pub fn is_private(&self) -> bool {
        self.data["flags"].as_u64().unwrap_or(0) & EPHEMERAL != 0
    }

    /// The `custom_id` of every button.
    pub fn custom_ids(&self) -> Vec<String> {
        custom_ids(&self.data)
    }

    /// The string select menus (component type 3): each `custom_id` with its options as
    /// (value, label).
    pub fn selects(&self) -> Vec<(String, Vec<(String, String)>)> {
        let rows = self.data["components"].as_array().cloned().unwrap_or_default();
        let components = rows.iter().flat_map(|row| row["components"].as_array().cloned().unwrap_or_default());
        components
            .filter(|component| component["type"] == 3)
            .map(|menu| {
                let options = menu["options"].as_array().cloned().unwrap_or_default();
                let text = |value: &Value| value.as_str().unwrap_or("").to_owned();
                let options = options.iter().map(|option| (text(&option["value"]), text(&option["label"]))).collect();
                (text(&menu["custom_id"]), options)
            })
            .collect()
    }

    /// The autocomplete choices as (name, value).
    pub fn choices(&self) -> Vec<(String, Value)> {
        let choices = self.data["choices"].as_array().cloned().unwrap_or_default();
        choices.iter().map(|c| (c["name"].as_str().unwrap_or("").to_owned(), c["value"].clone())).collect()
    }
}

/// The `custom_id` of every button of a message (or message data).
pub fn custom_ids(message: &Value) -> Vec<String> {
    let rows = message["components"].as_array().cloned().unwrap_or_default();
    rows.iter()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter_map(|button| button["custom_id"].as_str().map(str::to_owned))
        .collect()
}

pub(crate) struct Shared {
    application_id: u64,
    bot_id: u64,
    gateway_url: String,
    next_id: AtomicU64,
    gateway: Mutex<Option<mpsc::UnboundedSender<(String, Value)>>>,
    connected: watch::Sender<bool>,
    log: Mutex<Vec<Recorded>>,
    logged: Notify,
    users: Mutex<HashMap<u64, Value>>,
    /// Interaction token → (channel, id of its original message).
    originals: Mutex<HashMap<String, (u64, Option<u64>)>>,
    /// Interaction token of a button press → (channel, id of the pressed message).
    pressed: Mutex<HashMap<String, (u64, u64)>>,
    dms: Mutex<HashMap<u64, u64>>,
    /// Answer every API request 401, as Discord answers a wrong token.
    refusing: AtomicBool,
    /// The `[shard, total]` of every IDENTIFY, in order.
    shards: Mutex<Vec<[u64; 2]>>,
    /// Failures to answer new messages with ([`FakeDiscord::fail`]).
    failures: Mutex<Vec<Failure>>,
    /// How long the next interaction callback waits before it is answered
    /// ([`FakeDiscord::stall_next_callback`]).
    stall: Mutex<Option<Duration>>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Shared {
    fn new_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    fn connect(&self, sender: mpsc::UnboundedSender<(String, Value)>) {
        *lock(&self.gateway) = Some(sender);
        self.connected.send_replace(true);
    }

    fn identified(&self, shard: [u64; 2]) {
        lock(&self.shards).push(shard);
        self.logged.notify_waiters();
    }

    fn disconnect(&self) {
        *lock(&self.gateway) = None;
        self.connected.send_replace(false);
    }

    fn record(&self, recorded: Recorded) {
        lock(&self.log).push(recorded);
        self.logged.notify_waiters();
    }

    fn bot_user(&self) -> Value {
        payloads::user(self.bot_id, "Stonemate", true)
    }

    fn user_json(&self, id: u64) -> Value {
        if id == self.bot_id {
            return self.bot_user();
        }
        lock(&self.users).get(&id).cloned().unwrap_or_else(|| http::unknown_user(id))
    }

    fn interaction_channel(&self, token: &str) -> u64 {
        lock(&self.originals).get(token).map_or(0, |(channel, _)| *channel)
    }

    fn create_message(&self, channel: u64, data: &Value, files: usize) -> Value {
        payloads::message(self.new_id(), channel, &self.bot_user(), data, files)
    }

    /// Creates or replaces the original message of an interaction.
    fn create_original(&self, token: &str, data: &Value, files: usize) -> Value {
        let mut originals = lock(&self.originals);
        let entry = originals.entry(token.to_owned()).or_insert((0, None));
        let id = *entry.1.get_or_insert_with(|| self.new_id());
        payloads::message(id, entry.0, &self.bot_user(), data, files)
    }

    /// An update of a press (or its deferral) makes the pressed message the interaction's
    /// original one, as on Discord: editing the original then edits the pressed message.
    fn original_is_pressed(&self, token: &str) {
        if let Some(&(channel, message)) = lock(&self.pressed).get(token) {
            lock(&self.originals).insert(token.to_owned(), (channel, Some(message)));
        }
    }

    /// The failure that answers a new message in `channel`, if a test set one.
    fn failure_for(&self, channel: u64) -> Option<Failure> {
        let dm = lock(&self.dms).values().any(|&dm| dm == channel);
        failures::take(&mut lock(&self.failures), channel, dm)
    }

    fn dm_channel(&self, user: u64) -> u64 {
        *lock(&self.dms).entry(user).or_insert_with(|| self.new_id())
    }
}

/// The fake Discord. Dropping it stops its servers.
#[derive(Debug)]
pub struct FakeDiscord {
    base: String,
    shared: Arc<Shared>,
    tasks: Vec<JoinHandle<()>>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared").field("application_id", &self.application_id).finish_non_exhaustive()
    }
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl FakeDiscord {
    /// Starts the API and the gateway on free ports of 127.0.0.1.
    pub async fn start() -> FakeDiscord {
        let api = TcpListener::bind("127.0.0.1:0").await.expect("bind the fake API");
        let gateway = TcpListener::bind("127.0.0.1:0").await.expect("bind the fake gateway");
        let base = format!("http://{}", api.local_addr().expect("API address"));
        let gateway_url = format!("ws://{}/gateway", gateway.local_addr().expect("gateway address"));
        let shared = Arc::new(Shared {
            application_id: 1_000,
            bot_id: 1_001,
            gateway_url,
            next_id: AtomicU64::new(100_000),
            gateway: Mutex::new(None),
            connected: watch::channel(false).0,
            log: Mutex::new(Vec::new()),
            logged: Notify::new(),
            users: Mutex::new(HashMap::new()),
            originals: Mutex::new(HashMap::new()),
            pressed: Mutex::new(HashMap::new()),
            dms: Mutex::new(HashMap::new()),
            refusing: AtomicBool::new(false),
            shards: Mutex::new(Vec::new()),
            failures: Mutex::new(Vec::new()),
            stall: Mutex::new(None),
        });
        let app = http::router(shared.clone());
        let api = axum::serve(api, app.into_make_service());
        let api = tokio::spawn(async move {
            let _ = api.await;
        });
        let gateway = tokio::spawn(gateway::serve(gateway, shared.clone()));
        FakeDiscord { base, shared, tasks: vec![api, gateway] }
    }

    /// From now on every API request is refused with 401, as for a wrong token.
    pub fn refuse_token(&self) {
        self.shared.refusing.store(true, Ordering::SeqCst);
    }

    /// From now on new messages on `failure.route` are refused as it says (the rules are
    /// tried in the order they were given).
    pub fn fail(&self, failure: Failure) {
        lock(&self.shared.failures).push(failure);
    }

    /// The next interaction callback (a reply or a deferral) is recorded at once but
    /// answered only after `delay`: the bot's call hangs meanwhile, as on a slow network.
    pub fn stall_next_callback(&self, delay: Duration) {
        *lock(&self.shared.stall) = Some(delay);
    }

    /// Every failure rule is dropped: Discord works again.
    pub fn clear_failures(&self) {
        lock(&self.shared.failures).clear();
    }

    /// The API base to configure the bot with (`discord.api_base`).
    pub fn base(&self) -> &str {
        &self.base
    }

    pub fn bot_id(&self) -> u64 {
        self.shared.bot_id
    }

    /// The bot's own user, as a `user` option names it (challenge it to play against it).
    pub fn bot_user(&self) -> Value {
        self.shared.bot_user()
    }

    /// Waits until a bot has identified on the gateway.
    pub async fn wait_connected(&self, timeout: Duration) -> bool {
        let mut connected = self.shared.connected.subscribe();
        tokio::time::timeout(timeout, connected.wait_for(|up| *up)).await.is_ok_and(|r| r.is_ok())
    }

    /// Waits until `count` gateway sessions have identified (at most `timeout`); returns the
    /// `[shard, total]` each identified with, in order.
    pub async fn identified_shards(&self, count: usize, timeout: Duration) -> Vec<[u64; 2]> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let notified = self.shared.logged.notified();
            let shards = lock(&self.shared.shards).clone();
            if shards.len() >= count || tokio::time::timeout_at(deadline, notified).await.is_err() {
                return shards;
            }
        }
    }

    /// Waits until the bot has closed its gateway connection.
    pub async fn wait_disconnected(&self, timeout: Duration) -> bool {
        let mut connected = self.shared.connected.subscribe();
        tokio::time::timeout(timeout, connected.wait_for(|up| !*up)).await.is_ok_and(|r| r.is_ok())
    }

    /// Makes a user known (for resolved `user` options and DMs); returns its JSON.
    pub fn add_user(&self, name: &str) -> Value {
        let id = self.shared.new_id();
        let user = payloads::user(id, name, false);
        lock(&self.shared.users).insert(id, user.clone());
        user
    }

    /// Sends a slash command: `options` is the `options` array of the interaction data.
    pub fn command(&self, origin: &Origin, name: &str, options: Value) -> Sent {
        let data = self.command_data(name, options);
        self.interact(origin, payloads::APPLICATION_COMMAND, data)
    }

    /// Sends an autocomplete request: one of `options` has `"focused": true`.
    pub fn autocomplete(&self, origin: &Origin, name: &str, options: Value) -> Sent {
        let data = self.command_data(name, options);
        self.interact(origin, payloads::AUTOCOMPLETE, data)
    }

    /// Presses the button `custom_id` of `message`.
    pub fn press(&self, origin: &Origin, message: &Value, custom_id: &str) -> Sent {
        let data = json!({ "custom_id": custom_id, "component_type": 2 });
        self.component(origin, message, data)
    }

    /// Chooses `value` in the select menu `custom_id` of `message` (a string select,
    /// component type 3, whose interaction carries the `values` chosen).
    pub fn select(&self, origin: &Origin, message: &Value, custom_id: &str, value: &str) -> Sent {
        let data = json!({ "custom_id": custom_id, "component_type": 3, "values": [value] });
        self.component(origin, message, data)
    }

    /// Uses a component of `message`: `data` is the interaction's data.
    fn component(&self, origin: &Origin, message: &Value, data: Value) -> Sent {
        let number = |value: &Value| value.as_str().and_then(|id| id.parse::<u64>().ok());
        let pressed = (number(&message["channel_id"]).unwrap_or(origin.channel), number(&message["id"]).unwrap_or(0));
        let mut sent = self.interact_with(origin, payloads::MESSAGE_COMPONENT, data, |event| {
            event["message"] = message.clone();
            // Known before the bot can answer the press.
            let token = event["token"].as_str().unwrap_or("").to_owned();
            lock(&self.shared.pressed).insert(token, pressed);
        });
        sent.at = Instant::now();
        sent
    }

    fn command_data(&self, name: &str, options: Value) -> Value {
        let mut users = serde_json::Map::new();
        for option in options.as_array().into_iter().flatten() {
            if option["type"] == 6 {
                let id: u64 = option["value"].as_str().and_then(|id| id.parse().ok()).unwrap_or(0);
                users.insert(id.to_string(), self.shared.user_json(id));
            }
        }
        let id = self.shared.new_id();
        json!({ "id": id.to_string(), "name": name, "type": 1, "options": options, "resolved": { "users": users } })
    }

    fn interact(&self, origin: &Origin, kind: u64, data: Value) -> Sent {
        self.interact_with(origin, kind, data, |_| {})
    }

    fn interact_with(&self, origin: &Origin, kind: u64, data: Value, edit: impl FnOnce(&mut Value)) -> Sent {
        let id = self.shared.new_id();
        let token = format!("token-{id}");
        let mut event = payloads::interaction(id, self.shared.application_id, &token, kind, origin, data);
        edit(&mut event);
        lock(&self.shared.originals).insert(token.clone(), (origin.channel, None));
        let at = Instant::now();
        let sender = lock(&self.shared.gateway).clone();
        if let Some(sender) = sender {
            let _ = sender.send(("INTERACTION_CREATE".to_owned(), event));
        }
        Sent { id, token, at }
    }

    /// Removes and returns the first recorded request matching `wanted`, waiting for it
    /// up to `timeout`.
    pub async fn take(&self, timeout: Duration, wanted: impl Fn(&Recorded) -> bool) -> Option<Recorded> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let notified = self.shared.logged.notified();
            {
                let mut log = lock(&self.shared.log);
                if let Some(index) = log.iter().position(&wanted) {
                    return Some(log.remove(index));
                }
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                return None;
            }
        }
    }

    /// The bot's answer to `sent`: its callback, and for a deferred reply (or update) the
    /// edit of the original message, or the follow-up, that completes it.
    pub async fn answer(&self, sent: &Sent, timeout: Duration) -> Option<Answer> {
        let id = sent.id;
        let callback = self
            .take(timeout, |r| matches!(&r.kind, RequestKind::Callback { interaction, .. } if *interaction == id))
            .await?;
        let kind = callback.body["type"].as_u64().unwrap_or(0);
        let mut answer = Answer {
            kind,
            data: callback.body["data"].clone(),
            files: callback.files,
            message: callback.message,
            at: callback.at,
            acknowledged: callback.at,
            acknowledgement: callback.body.clone(),
        };
        if kind == DEFERRED_REPLY || kind == DEFERRED_UPDATE {
            let token = sent.token.clone();
            let edit = self
                .take(timeout, |r| matches!(&r.kind, RequestKind::EditOriginal { token: t } | RequestKind::Followup { token: t } if *t == token))
                .await?;
            let flags = answer.data["flags"].clone();
            answer.data = edit.body;
            if answer.data.get("flags").is_none() {
                answer.data["flags"] = flags;
            }
            answer.files = edit.files;
            answer.message = edit.message;
            answer.at = edit.at;
        }
        Some(answer)
    }

    /// What the bot sent that no test has taken yet, for failure messages.
    pub fn untaken(&self) -> Vec<Recorded> {
        lock(&self.shared.log).clone()
    }

    /// Requests to routes the fake does not serve (the bot called something unexpected).
    pub fn unknown_requests(&self) -> Vec<Recorded> {
        lock(&self.shared.log).iter().filter(|r| matches!(r.kind, RequestKind::Unknown { .. })).cloned().collect()
    }

    /// The origin of an interaction by `user` in a guild channel.
    pub fn in_guild(&self, user: &Value, guild: u64, channel: u64) -> Origin {
        Origin { user: user.clone(), permissions: payloads::MEMBER_PERMISSIONS, channel, guild: Some(guild) }
    }
}
