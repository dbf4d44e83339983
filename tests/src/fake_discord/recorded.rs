//! What the fake recorded and what tests read of it: the requests the bot made, the
//! interactions the fake sent, and the bot's answers to them.

use std::time::Instant;

use serde_json::Value;

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
    pub(super) fn new(kind: RequestKind, body: Value, files: Vec<Vec<u8>>, message: Option<Value>) -> Self {
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
    /// A thread opened in `channel` (from `message`, if any).
    CreateThread {
        channel: u64,
        message: Option<u64>,
        thread: u64,
    },
    /// A change of a channel (a thread: archived, locked...).
    EditChannel {
        channel: u64,
    },
    /// The roles of a server, asked for.
    Roles {
        guild: u64,
    },
    /// A member of a server, asked for.
    Member {
        guild: u64,
        user: u64,
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
