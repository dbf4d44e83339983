//! The fake Discord itself: starts the API and the gateway, sends interactions as a user
//! would, and hands tests what the bot sent back.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::{Notify, watch};
use tokio::task::JoinHandle;

use super::failures::Failure;
use super::payloads::{self, Origin};
use super::recorded::{Answer, DEFERRED_REPLY, DEFERRED_UPDATE, Recorded, RequestKind, Sent};
use super::shared::{Shared, lock};
use super::{gateway, http};

/// The fake Discord. Dropping it stops its servers.
#[derive(Debug)]
pub struct FakeDiscord {
    base: String,
    shared: Arc<Shared>,
    tasks: Vec<JoinHandle<()>>,
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
            threads: Mutex::new(HashMap::new()),
            violations: Mutex::new(Vec::new()),
            bot_permissions: AtomicU64::new(payloads::INVITE_PERMISSIONS),
        });
        let app = http::router(shared.clone());
        let api = axum::serve(api, app.into_make_service());
        let api = tokio::spawn(async move {
            let _ = api.await;
        });
        let gateway = tokio::spawn(gateway::serve(gateway, shared.clone()));
        FakeDiscord { base, shared, tasks: vec![api, gateway] }
    }

    /// From now on the bot's role grants `permissions` in every server (at first what the
    /// README's invite link asks for), as a server's manager may change it.
    pub fn grant_bot(&self, permissions: u64) {
        self.shared.bot_permissions.store(permissions, Ordering::SeqCst);
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

    /// Every way the bot's requests broke Discord's API description, so far.
    pub fn violations(&self) -> Vec<String> {
        lock(&self.shared.violations).clone()
    }

    /// Thread `id` as the fake holds it now (its channel object), if the bot opened it.
    pub fn thread(&self, id: u64) -> Option<Value> {
        lock(&self.shared.threads).get(&id).cloned()
    }

    /// Archives thread `id` as Discord does after a week without messages.
    pub fn archive_idle(&self, id: u64) {
        self.shared.edit_thread(id, &json!({ "archived": true }));
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
