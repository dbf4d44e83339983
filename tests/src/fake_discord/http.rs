//! The fake HTTP API: the routes serenity calls, each recorded for the tests and answered
//! the way Discord answers (204, or the message that was created or edited).

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, FromRequest, Multipart, Path, Request, State};
use axum::http::{Method, StatusCode, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::{get, patch, post, put};
use serde_json::{Value, json};

use super::recorded::{Recorded, RequestKind};
use super::shared::{Shared, lock};
use super::{described, payloads};

/// Larger than any board picture or animation the bot sends.
const BODY_LIMIT: usize = 64 << 20;

pub(super) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/api/v10/gateway", get(gateway))
        .route("/api/v10/applications/{app}/commands", put(global_commands))
        .route("/api/v10/applications/{app}/guilds/{guild}/commands", put(guild_commands))
        .route("/api/v10/interactions/{id}/{token}/callback", post(callback))
        .route("/api/v10/webhooks/{app}/{token}/messages/@original", patch(edit_original).delete(delete_original))
        .route("/api/v10/webhooks/{app}/{token}", post(followup))
        .route("/api/v10/channels/{channel}/messages", post(channel_message))
        .route("/api/v10/channels/{channel}/messages/{message}", patch(edit_channel_message))
        .route("/api/v10/channels/{channel}/threads", post(create_thread))
        .route("/api/v10/channels/{channel}/messages/{message}/threads", post(create_thread_from_message))
        .route("/api/v10/channels/{channel}", patch(edit_channel))
        .route("/api/v10/users/@me/channels", post(dm_channel))
        .route("/api/v10/users/@me", get(current_user))
        .route("/api/v10/guilds/{guild}/roles", get(roles))
        .route("/api/v10/guilds/{guild}/members/{user}", get(guild_member))
        .fallback(unknown)
        .layer(middleware::from_fn_with_state(shared.clone(), refuse_when_told))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(shared)
}

/// Once a test has said so, every request is refused as Discord refuses a bad token.
async fn refuse_when_told(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    if !shared.refusing.load(Ordering::SeqCst) {
        return next.run(request).await;
    }
    let error = json!({ "message": "401: Unauthorized", "code": 0 });
    (StatusCode::UNAUTHORIZED, Json(error)).into_response()
}

async fn current_user(State(shared): State<Arc<Shared>>) -> Json<Value> {
    Json(payloads::user(shared.bot_id, "Stonemate", true))
}

/// Every server has two roles: `@everyone` (the server's id), which grants nothing (as a
/// server may set it), and the bot's own (the next id) with what [`Shared::bot_permissions`] says.
async fn roles(State(shared): State<Arc<Shared>>, Path(guild): Path<u64>) -> Json<Value> {
    shared.record(Recorded::new(RequestKind::Roles { guild }, Value::Null, Vec::new(), None));
    let bot = shared.bot_permissions.load(Ordering::SeqCst);
    Json(json!([payloads::role(guild, "@everyone", 0, 0), payloads::role(guild + 1, "Stonemate", bot, 1)]))
}

/// A member of a server: the bot has its role; anybody else the fake knows none.
async fn guild_member(State(shared): State<Arc<Shared>>, Path((guild, user)): Path<(u64, u64)>) -> Json<Value> {
    shared.record(Recorded::new(RequestKind::Member { guild, user }, Value::Null, Vec::new(), None));
    let member = if user == shared.bot_id {
        payloads::with_roles(&shared.bot_user(), &[guild + 1], None)
    } else {
        payloads::with_roles(&shared.user_json(user), &[], None)
    };
    Json(member)
}

async fn gateway(State(shared): State<Arc<Shared>>) -> Json<Value> {
    Json(json!({ "url": shared.gateway_url }))
}

async fn global_commands(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    commands(&shared, None, request).await
}

async fn guild_commands(
    State(shared): State<Arc<Shared>>,
    Path((_app, guild)): Path<(u64, u64)>,
    request: Request,
) -> Response {
    commands(&shared, Some(guild), request).await
}

/// Echoes the commands back with the fields Discord adds.
async fn commands(shared: &Shared, guild: Option<u64>, request: Request) -> Response {
    let (body, files) = read_body(request).await;
    let mut echoed = body.as_array().cloned().unwrap_or_default();
    for command in &mut echoed {
        let id = shared.new_id();
        command["id"] = json!(id.to_string());
        command["application_id"] = json!(shared.application_id.to_string());
        command["version"] = json!(id.to_string());
        if command.get("type").is_none() {
            command["type"] = json!(1);
        }
        if let Some(guild) = guild {
            command["guild_id"] = json!(guild.to_string());
        }
    }
    shared.record(Recorded::new(RequestKind::Commands { guild }, body, files, None));
    Json(Value::Array(echoed)).into_response()
}

async fn callback(
    State(shared): State<Arc<Shared>>,
    Path((interaction, token)): Path<(u64, String)>,
    request: Request,
) -> Response {
    let (body, files) = read_body(request).await;
    let data = body.get("data").cloned().unwrap_or(json!({}));
    // Replies (4) and deferred replies (5) create the interaction's original message;
    // updates (7, or 6 deferred) make it the pressed message, which 7 edits at once.
    let kind = body["type"].as_u64();
    if matches!(kind, Some(6 | 7)) {
        shared.original_is_pressed(&token);
    }
    let message = match kind {
        Some(4 | 5 | 7) => Some(shared.create_original(&token, &data, files.len())),
        _ => None,
    };
    shared.record(Recorded::new(RequestKind::Callback { interaction, token }, body, files, message));
    let stall = lock(&shared.stall).take();
    if let Some(delay) = stall {
        tokio::time::sleep(delay).await;
    }
    StatusCode::NO_CONTENT.into_response()
}

async fn edit_original(
    State(shared): State<Arc<Shared>>,
    Path((_app, token)): Path<(u64, String)>,
    request: Request,
) -> Response {
    let (body, files) = read_body(request).await;
    let message = shared.create_original(&token, &body, files.len());
    shared.record(Recorded::new(RequestKind::EditOriginal { token }, body, files, Some(message.clone())));
    Json(message).into_response()
}

async fn delete_original(State(shared): State<Arc<Shared>>, Path((_app, token)): Path<(u64, String)>) -> Response {
    shared.record(Recorded::new(RequestKind::DeleteOriginal { token }, Value::Null, Vec::new(), None));
    StatusCode::NO_CONTENT.into_response()
}

async fn followup(
    State(shared): State<Arc<Shared>>,
    Path((_app, token)): Path<(u64, String)>,
    request: Request,
) -> Response {
    let (body, files) = read_body(request).await;
    let message = shared.create_message(shared.interaction_channel(&token), &body, files.len());
    shared.record(Recorded::new(RequestKind::Followup { token }, body, files, Some(message.clone())));
    Json(message).into_response()
}

async fn channel_message(State(shared): State<Arc<Shared>>, Path(channel): Path<u64>, request: Request) -> Response {
    let (body, files) = read_body(request).await;
    if let Some(failure) = shared.failure_for(channel) {
        let kind = RequestKind::Refused { channel, status: failure.status, code: failure.code };
        shared.record(Recorded::new(kind, body, files, None));
        return failure.response();
    }
    shared.post_reopens(channel);
    let message = shared.create_message(channel, &body, files.len());
    shared.record(Recorded::new(RequestKind::ChannelMessage { channel }, body, files, Some(message.clone())));
    Json(message).into_response()
}

async fn create_thread(State(shared): State<Arc<Shared>>, Path(channel): Path<u64>, request: Request) -> Response {
    thread(&shared, channel, None, request).await
}

async fn create_thread_from_message(
    State(shared): State<Arc<Shared>>,
    Path((channel, message)): Path<(u64, u64)>,
    request: Request,
) -> Response {
    thread(&shared, channel, Some(message), request).await
}

/// Opens a thread in `channel` (from `message`: the thread takes the message's id, as on
/// Discord), checked against Discord's description; or refuses it as a test asked.
async fn thread(shared: &Shared, channel: u64, message: Option<u64>, request: Request) -> Response {
    let (body, _) = read_body(request).await;
    let described = if message.is_some() { &described::CREATE_THREAD_FROM_MESSAGE } else { &described::CREATE_THREAD };
    shared.check(&body, described);
    if let Some(failure) = shared.thread_failure_for(channel) {
        let kind = RequestKind::Refused { channel, status: failure.status, code: failure.code };
        shared.record(Recorded::new(kind, body, Vec::new(), None));
        return failure.response();
    }
    let opened = shared.open_thread(channel, message, &body);
    let thread = opened["id"].as_str().and_then(|id| id.parse().ok()).unwrap_or(0);
    shared.record(Recorded::new(RequestKind::CreateThread { channel, message, thread }, body, Vec::new(), None));
    (StatusCode::CREATED, Json(opened)).into_response()
}

/// Changes a thread (the only channels the fake knows to change).
async fn edit_channel(State(shared): State<Arc<Shared>>, Path(channel): Path<u64>, request: Request) -> Response {
    let (body, _) = read_body(request).await;
    shared.check(&body, &described::EDIT_THREAD);
    let edited = shared.edit_thread(channel, &body);
    shared.record(Recorded::new(RequestKind::EditChannel { channel }, body, Vec::new(), edited.clone()));
    match edited {
        Some(thread) => Json(thread).into_response(),
        None => (StatusCode::NOT_FOUND, Json(json!({ "message": "Unknown Channel", "code": 10003 }))).into_response(),
    }
}

async fn edit_channel_message(
    State(shared): State<Arc<Shared>>,
    Path((channel, message)): Path<(u64, u64)>,
    request: Request,
) -> Response {
    let (body, files) = read_body(request).await;
    let edited = payloads::message(message, channel, &shared.bot_user(), &body, files.len());
    let kind = RequestKind::EditChannelMessage { channel, message };
    shared.record(Recorded::new(kind, body, files, Some(edited.clone())));
    Json(edited).into_response()
}

async fn dm_channel(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let (body, _) = read_body(request).await;
    let recipient = body["recipient_id"].as_str().and_then(|id| id.parse().ok()).unwrap_or(0);
    let channel = shared.dm_channel(recipient);
    let user = shared.user_json(recipient);
    shared.record(Recorded::new(RequestKind::DmChannel { recipient }, body, Vec::new(), None));
    Json(json!({ "id": channel.to_string(), "type": 1, "last_message_id": null, "recipients": [user] })).into_response()
}

async fn unknown(State(shared): State<Arc<Shared>>, method: Method, uri: Uri, body: Bytes) -> Response {
    let body = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let kind = RequestKind::Unknown { method: method.to_string(), path: uri.path().to_owned() };
    shared.record(Recorded::new(kind, body, Vec::new(), None));
    let error = json!({ "message": "Unknown route in the fake Discord", "code": 0 });
    (StatusCode::NOT_FOUND, Json(error)).into_response()
}

/// The JSON body, whether sent as JSON or as multipart with `payload_json` and `files[n]`.
async fn read_body(request: Request) -> (Value, Vec<Vec<u8>>) {
    let content_type = request.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    if !content_type.starts_with("multipart/") {
        let bytes = axum::body::to_bytes(request.into_body(), BODY_LIMIT).await.unwrap_or_default();
        return (serde_json::from_slice(&bytes).unwrap_or(Value::Null), Vec::new());
    }
    let Ok(mut multipart) = Multipart::from_request(request, &()).await else {
        return (Value::Null, Vec::new());
    };
    let (mut payload, mut files) = (Value::Null, Vec::new());
    while let Ok(Some(field)) = multipart.next_field().await {
        let name = field.name().unwrap_or("").to_owned();
        let bytes = field.bytes().await.unwrap_or_default();
        if name == "payload_json" {
            payload = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        } else if name.starts_with("files[") {
            files.push(bytes.to_vec());
        }
    }
    (payload, files)
}
