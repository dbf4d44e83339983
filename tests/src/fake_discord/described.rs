//! The request bodies of the thread routes as Discord's published API description gives
//! them (`discord/discord-api-spec`, `specs/openapi.json`: `CreateTextThreadWithoutMessageRequest`,
//! `CreateTextThreadWithMessageRequest`, `UpdateThreadRequestPartial`), written out here as
//! data: each field's kind and bounds, which are required. The fake checks every such
//! request against them and counts what does not fit ([`super::FakeDiscord::violations`]).

use serde_json::Value;

/// A field's kind and bounds; every optional field may also be `null`.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// A string of `min..=max` characters.
    Text {
        min: usize,
        max: usize,
    },
    /// An integer within `min..=max`.
    Integer {
        min: i64,
        max: i64,
    },
    /// One of these integers.
    OneOf(&'static [i64]),
    Boolean,
    /// Up to `max` snowflakes (strings of digits).
    Snowflakes {
        max: usize,
    },
}

/// A request body: its fields, and which must be there.
#[derive(Debug)]
pub struct Body {
    name: &'static str,
    required: &'static [&'static str],
    fields: &'static [(&'static str, Kind)],
}

/// `ThreadAutoArchiveDuration`: minutes.
const ARCHIVE_AFTER: Kind = Kind::OneOf(&[60, 1440, 4320, 10080]);
const SLOW_MODE: Kind = Kind::Integer { min: 0, max: 21_600 };

/// The fields of a new thread; one without a message also has the last two.
const NEW_THREAD: &[(&str, Kind)] = &[
    ("name", Kind::Text { min: 1, max: 100 }),
    ("auto_archive_duration", ARCHIVE_AFTER),
    ("rate_limit_per_user", SLOW_MODE),
    // Announcement, public and private threads.
    ("type", Kind::OneOf(&[10, 11, 12])),
    ("invitable", Kind::Boolean),
];

/// `POST /channels/{channel}/threads`, a thread without a message.
pub const CREATE_THREAD: Body =
    Body { name: "CreateTextThreadWithoutMessageRequest", required: &["name"], fields: NEW_THREAD };

/// `POST /channels/{channel}/messages/{message}/threads`.
pub const CREATE_THREAD_FROM_MESSAGE: Body =
    Body { name: "CreateTextThreadWithMessageRequest", required: &["name"], fields: NEW_THREAD.split_at(3).0 };

/// `PATCH /channels/{thread}`, for a thread.
pub const EDIT_THREAD: Body = Body {
    name: "UpdateThreadRequestPartial",
    required: &[],
    fields: &[
        ("name", Kind::Text { min: 0, max: 100 }),
        ("archived", Kind::Boolean),
        ("locked", Kind::Boolean),
        ("invitable", Kind::Boolean),
        ("auto_archive_duration", ARCHIVE_AFTER),
        ("rate_limit_per_user", SLOW_MODE),
        ("flags", Kind::Integer { min: 0, max: i64::MAX }),
        ("applied_tags", Kind::Snowflakes { max: 5 }),
    ],
};

impl Body {
    /// What in `body` the description does not allow: a missing required field, a field
    /// it does not name, a value of another kind or out of bounds.
    #[must_use]
    pub fn violations(&self, body: &Value) -> Vec<String> {
        let Some(object) = body.as_object() else { return vec![format!("{}: not an object", self.name)] };
        let mut found: Vec<String> = self
            .required
            .iter()
            .filter(|field| object.get(**field).is_none_or(Value::is_null))
            .map(|field| format!("{}: `{field}` is required", self.name))
            .collect();
        for (field, value) in object {
            match self.fields.iter().find(|(name, _)| name == field) {
                None => found.push(format!("{}: no field `{field}`", self.name)),
                Some(_) if value.is_null() && !self.required.contains(&field.as_str()) => {}
                Some((_, kind)) if !fits(*kind, value) => {
                    found.push(format!("{}: `{field}` may not be {value}", self.name));
                }
                Some(_) => {}
            }
        }
        found
    }
}

fn fits(kind: Kind, value: &Value) -> bool {
    match kind {
        Kind::Text { min, max } => value.as_str().is_some_and(|text| (min..=max).contains(&text.chars().count())),
        Kind::Integer { min, max } => value.as_i64().is_some_and(|number| (min..=max).contains(&number)),
        Kind::OneOf(allowed) => value.as_i64().is_some_and(|number| allowed.contains(&number)),
        Kind::Boolean => value.is_boolean(),
        Kind::Snowflakes { max } => value.as_array().is_some_and(|ids| {
            ids.len() <= max
                && ids.iter().all(|id| id.as_str().is_some_and(|id| id.bytes().all(|b| b.is_ascii_digit())))
        }),
    }
}
