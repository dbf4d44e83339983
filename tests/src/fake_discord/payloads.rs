//! The JSON shapes Discord sends: users, members, messages and interactions, complete
//! enough for serenity 0.12 to accept them (it drops an event that lacks a required field,
//! with only a WARN line).

use serde_json::{Value, json};

/// A fixed time for every timestamp: the tests do not look at them.
pub const TIMESTAMP: &str = "2025-01-01T00:00:00.000000+00:00";

/// Interaction types (Discord's `type` field).
pub const APPLICATION_COMMAND: u64 = 2;
pub const MESSAGE_COMPONENT: u64 = 3;
pub const AUTOCOMPLETE: u64 = 4;

/// Permission bits the tests use.
pub const MANAGE_GUILD: u64 = 1 << 5;
/// What an ordinary member may do: view, send, embed, attach, read history, use commands.
pub const MEMBER_PERMISSIONS: u64 = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31);

/// Create Public Threads and Send Messages in Threads: what a game's thread needs.
pub const THREAD_PERMISSIONS: u64 = (1 << 35) | (1 << 38);

/// What the README's invite link grants the bot: view channels, send messages, attach
/// files, create public threads, send messages in threads.
pub const INVITE_PERMISSIONS: u64 = 309_237_681_152;

/// A role of a server, as `GET /guilds/{guild}/roles` lists it.
pub fn role(id: u64, name: &str, permissions: u64, position: u64) -> Value {
    json!({
        "id": id.to_string(),
        "name": name,
        "color": 0,
        "colors": { "primary_color": 0, "secondary_color": null, "tertiary_color": null },
        "hoist": false,
        "icon": null,
        "unicode_emoji": null,
        "position": position,
        "permissions": permissions.to_string(),
        "managed": position > 0,
        "mentionable": false,
        "flags": 0,
    })
}

pub fn user(id: u64, name: &str, bot: bool) -> Value {
    json!({
        "id": id.to_string(),
        "username": name,
        "global_name": name,
        "discriminator": "0",
        "avatar": null,
        "bot": bot,
        "public_flags": 0,
    })
}

pub fn member(user: &Value, permissions: u64) -> Value {
    with_roles(user, &[], Some(permissions))
}

/// A member of a server with `roles` (ids), and his permissions in the channel where an
/// interaction comes from (none outside one: `GET /guilds/{guild}/members/{user}`).
pub fn with_roles(user: &Value, roles: &[u64], permissions: Option<u64>) -> Value {
    let roles: Vec<String> = roles.iter().map(u64::to_string).collect();
    let mut member = json!({
        "user": user,
        "nick": null,
        "avatar": null,
        "roles": roles,
        "joined_at": TIMESTAMP,
        "premium_since": null,
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
        "communication_disabled_until": null,
    });
    if let Some(permissions) = permissions {
        member["permissions"] = json!(permissions.to_string());
    }
    member
}

/// A message as the API returns it, written by `author`.
pub fn message(id: u64, channel: u64, author: &Value, data: &Value, attachments: usize) -> Value {
    let attachments: Vec<Value> = (0..attachments)
        .map(|n| {
            json!({
                "id": (id * 10 + n as u64).to_string(),
                "filename": format!("file{n}.png"),
                "size": 1,
                "url": format!("https://cdn.invalid/{id}/{n}"),
                "proxy_url": format!("https://cdn.invalid/{id}/{n}"),
            })
        })
        .collect();
    json!({
        "id": id.to_string(),
        "channel_id": channel.to_string(),
        "author": author,
        "content": data.get("content").cloned().unwrap_or(json!("")),
        "timestamp": TIMESTAMP,
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": attachments,
        "embeds": data.get("embeds").cloned().unwrap_or(json!([])),
        "components": data.get("components").cloned().unwrap_or(json!([])),
        "pinned": false,
        "type": 0,
        "flags": data.get("flags").cloned().unwrap_or(json!(0)),
    })
}

/// A public thread's channel object, as Discord answers its creation: thread `id` in
/// `parent`, owned by `owner`, named and set as `body` asked.
pub fn thread(id: u64, parent: u64, owner: u64, body: &Value) -> Value {
    json!({
        "id": id.to_string(),
        "type": body.get("type").cloned().unwrap_or(json!(11)),
        "parent_id": parent.to_string(),
        "owner_id": owner.to_string(),
        "name": body.get("name").cloned().unwrap_or(json!("")),
        "last_message_id": null,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "flags": 0,
        "thread_metadata": {
            "archived": false,
            "auto_archive_duration": body.get("auto_archive_duration").cloned().unwrap_or(json!(4320)),
            "archive_timestamp": TIMESTAMP,
            "locked": false,
            "create_timestamp": TIMESTAMP,
        },
    })
}

/// Who sends an interaction and where.
#[derive(Debug, Clone)]
pub struct Origin {
    pub user: Value,
    pub permissions: u64,
    pub channel: u64,
    pub guild: Option<u64>,
}

/// The `d` of an `INTERACTION_CREATE` event.
pub fn interaction(id: u64, application: u64, token: &str, kind: u64, origin: &Origin, data: Value) -> Value {
    let mut event = json!({
        "id": id.to_string(),
        "application_id": application.to_string(),
        "type": kind,
        "data": data,
        "channel_id": origin.channel.to_string(),
        "channel": { "id": origin.channel.to_string(), "type": if origin.guild.is_some() { 0 } else { 1 } },
        "token": token,
        "version": 1,
        "app_permissions": MEMBER_PERMISSIONS.to_string(),
        "locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {},
        "context": if origin.guild.is_some() { 0 } else { 1 },
        "attachment_size_limit": 10_485_760,
    });
    match origin.guild {
        Some(guild) => {
            event["guild_id"] = json!(guild.to_string());
            event["guild_locale"] = json!("en-US");
            event["member"] = member(&origin.user, origin.permissions);
        }
        None => event["user"] = origin.user.clone(),
    }
    event
}

/// A user the fake does not know still gets a well-formed user object.
pub(crate) fn unknown_user(id: u64) -> Value {
    user(id, &format!("user{id}"), false)
}
