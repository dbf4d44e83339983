//! A message as the service writes it: a list of [`Segment`]s (the service's own text, a
//! user's name, a user addressed or pinged) that each adapter renders in its own way.
//! Discord turns a ping into `<@id>` and escapes names for its markdown; the console and
//! the tests read the [plain](Message::plain) rendering, where a ping is `@name`.
//!
//! Whom a message pings is read from its [`Segment::Ping`]s ([`Message::mentions`]):
//! there is no second list to keep in step, and no adapter has to find a name in the text.
//!
//! A message is stored with its notice in the outbox (JSON, see
//! the service's notices part); [`Message::legacy`] reads the text-and-mentions form
//! notices were stored in before.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::text;
use crate::ids::UserId;

/// One piece of a [`Message`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Segment {
    /// Text the service wrote, in Discord's markup (backticks quote commands and values).
    Text(String),
    /// A user's display name as he chose it: escaped wherever markup has a meaning.
    Name(String),
    /// A user addressed as `@name` without a ping: a direct message already notifies him,
    /// and he may have asked to be told in no other way.
    At {
        /// Whom (`id` in messages stored by the first version of segments).
        #[serde(alias = "id")]
        user: UserId,
        /// His display name.
        name: String,
    },
    /// A user addressed and pinged: `<@id>` on Discord, `@name` in plain text.
    Ping {
        /// Whom (`id` in messages stored by the first version of segments).
        #[serde(alias = "id")]
        user: UserId,
        /// His display name, for the renderings that show it.
        name: String,
    },
}

/// A message: its [`Segment`]s in order. Build it with [`Message::push`],
/// [`Message::name`] and [`Message::ping`]; text alone converts with `From`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Message {
    segments: Vec<Segment>,
}

impl Message {
    /// An empty message.
    #[must_use]
    pub fn new() -> Message {
        Message::default()
    }

    /// Adds the service's own text (markup allowed).
    #[must_use]
    pub fn push(mut self, text: impl AsRef<str>) -> Message {
        self.push_text(text.as_ref());
        self
    }

    /// Adds a user's display name, shown as he wrote it but unable to format the message.
    #[must_use]
    pub fn name(mut self, raw: impl Into<String>) -> Message {
        self.segments.push(Segment::Name(raw.into()));
        self
    }

    /// Adds a ping of `user`, shown under `name`.
    #[must_use]
    pub fn ping(mut self, user: UserId, name: impl Into<String>) -> Message {
        self.segments.push(Segment::Ping { user, name: name.into() });
        self
    }

    /// Adds `other` after this message.
    #[must_use]
    pub fn then(mut self, other: impl Into<Message>) -> Message {
        self.append(other);
        self
    }

    /// Adds `other` at the end, in place.
    pub fn append(&mut self, other: impl Into<Message>) {
        for segment in other.into().segments {
            match segment {
                Segment::Text(text) => self.push_text(&text),
                other => self.segments.push(other),
            }
        }
    }

    /// Text next to text is one segment, so that equal messages have equal segments.
    fn push_text(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        match self.segments.last_mut() {
            Some(Segment::Text(last)) => last.push_str(text),
            _ => self.segments.push(Segment::Text(text.to_owned())),
        }
    }

    /// The segments, in order.
    #[must_use]
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// The users the message pings, each once, in the order they appear.
    #[must_use]
    pub fn mentions(&self) -> Vec<UserId> {
        let mut users = Vec::new();
        for segment in &self.segments {
            if let Segment::Ping { user, .. } = segment
                && !users.contains(user)
            {
                users.push(*user);
            }
        }
        users
    }

    /// The same message pinging nobody: each ping becomes `@name` only.
    #[must_use]
    pub fn quiet(self) -> Message {
        let segments = self
            .segments
            .into_iter()
            .map(|segment| match segment {
                Segment::Ping { user, name } => Segment::At { user, name },
                other => other,
            })
            .collect();
        Message { segments }
    }

    /// The same message pinging `user` where it addresses him; at its start if it does not.
    #[must_use]
    pub fn pinging(self, user: UserId, name: &str) -> Message {
        let mut pinged = false;
        let segments: Vec<Segment> = self
            .segments
            .into_iter()
            .map(|segment| match segment {
                Segment::At { user: at, name } | Segment::Ping { user: at, name } if at == user => {
                    pinged = true;
                    Segment::Ping { user, name }
                }
                other => other,
            })
            .collect();
        let message = Message { segments };
        if pinged { message } else { Message::new().ping(user, name).push(" ").then(message) }
    }

    /// The message as text, with pings written by `ping`; names (and users addressed
    /// without a ping) are escaped for Discord's markdown; cut to Discord's 2,000
    /// characters ([`text::fit`]).
    pub fn render(&self, mut ping: impl FnMut(UserId, &str) -> String) -> String {
        let mut out = String::new();
        for segment in &self.segments {
            match segment {
                Segment::Text(text) => out.push_str(text),
                Segment::Name(name) => out.push_str(&text::name(name)),
                Segment::At { name, .. } => {
                    out.push('@');
                    out.push_str(&text::name(name));
                }
                Segment::Ping { user, name } => out.push_str(&ping(*user, name)),
            }
        }
        // Every reply and notice is rendered here, by every adapter: none goes out longer
        // than Discord shows, whatever made it.
        text::fit(&mut out);
        out
    }

    /// The message as plain text: a ping is `@name`. What the console shows and the tests
    /// read.
    #[must_use]
    pub fn plain(&self) -> String {
        self.render(|_, name| format!("@{}", text::name(name)))
    }

    /// A message stored before messages had segments: `text` with `@name` written for
    /// the users it pings (`mentions`), whose names `name_of` gives. Each mentioned user is
    /// pinged where `@name` first stands as a whole word, or at the start.
    pub fn legacy(text: &str, mentions: &[UserId], name_of: impl Fn(UserId) -> Option<String>) -> Message {
        // Where each mentioned user's `@name` stands, as (start, end, user).
        let mut found: Vec<(usize, usize, UserId, String)> = Vec::new();
        let mut missing = Vec::new();
        for &user in mentions {
            let name = name_of(user).unwrap_or_default();
            let needle = format!("@{}", text::name(&name));
            let at = text
                .match_indices(&needle)
                .map(|(start, _)| (start, start + needle.len()))
                .filter(|&(start, end)| found.iter().all(|&(s, e, _, _)| end <= s || start >= e))
                .find(|&(_, end)| !text[end..].chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_'));
            match (at, name.is_empty()) {
                (Some((start, end)), false) => found.push((start, end, user, name)),
                _ => missing.push((user, name)),
            }
        }
        found.sort_by_key(|&(start, _, _, _)| start);
        let mut message = Message::new();
        for (user, name) in missing {
            message = message.ping(user, name).push(" ");
        }
        let mut from = 0;
        for (start, end, user, name) in found {
            message = message.push(&text[from..start]).ping(user, name);
            from = end;
        }
        message.push(&text[from..])
    }
}

impl From<&str> for Message {
    fn from(text: &str) -> Message {
        Message::new().push(text)
    }
}

impl From<String> for Message {
    fn from(text: String) -> Message {
        Message::new().push(text)
    }
}

impl From<&String> for Message {
    fn from(text: &String) -> Message {
        Message::new().push(text)
    }
}

/// The [plain](Message::plain) rendering.
impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.plain())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn discord(message: &Message) -> String {
        message.render(|user, _| format!("<@{}>", user.0))
    }

    #[test]
    fn each_adapter_renders_the_same_segments() {
        let message = Message::new().ping(UserId(7), "bob_").push(", ").name("**al**").push(" played e4.");
        assert_eq!(message.plain(), r"@bob\_, \*\*al\*\* played e4.");
        assert_eq!(discord(&message), r"<@7>, \*\*al\*\* played e4.");
        assert_eq!(message.mentions(), [UserId(7)]);
    }

    #[test]
    fn a_quiet_message_addresses_without_pinging_until_pinged_again() {
        let quiet = Message::new().ping(UserId(7), "bob").push(": your turn.").quiet();
        assert!(quiet.mentions().is_empty());
        assert_eq!(discord(&quiet), "@bob: your turn.");
        let loud = quiet.clone().pinging(UserId(7), "bob");
        assert_eq!((discord(&loud), loud.mentions()), ("<@7>: your turn.".to_owned(), vec![UserId(7)]));
        let other = quiet.pinging(UserId(8), "al");
        assert_eq!(discord(&other), "<@8> @bob: your turn.");
    }

    #[test]
    fn text_next_to_text_is_one_segment() {
        let message = Message::from("a").push("b").then(Message::from("c").name("d"));
        assert_eq!(message.segments(), [Segment::Text("abc".into()), Segment::Name("d".into())]);
    }

    #[test]
    fn a_stored_message_round_trips() {
        let message = Message::new().ping(UserId(7), "bob").push(" and ").name("al");
        let json = serde_json::to_string(&message).unwrap_or_default();
        assert_eq!(serde_json::from_str::<Message>(&json).ok(), Some(message.clone()));
        let first = r#"[{"ping":{"id":7,"name":"bob"}},{"text":" and "},{"name":"al"}]"#;
        assert_eq!(serde_json::from_str::<Message>(first).ok(), Some(message), "as first stored");
    }

    #[test]
    fn legacy_text_pings_where_the_name_stands() {
        let names =
            |user: UserId| [(7, "bob"), (8, "bo")].iter().find(|(id, _)| *id == user.0).map(|(_, n)| n.to_string());
        let legacy = |text: &str, mentions: &[u64]| {
            let mentions: Vec<UserId> = mentions.iter().map(|&id| UserId(id)).collect();
            discord(&Message::legacy(text, &mentions, names))
        };
        assert_eq!(legacy("@bob, your move", &[7]), "<@7>, your move");
        assert_eq!(legacy("@bob against @bo", &[8]), "@bob against <@8>");
        assert_eq!(legacy("your move", &[7]), "<@7> your move");
        assert_eq!(legacy("@bob, no ping", &[]), "@bob, no ping");
        assert_eq!(legacy("@bo and @bob", &[7, 8]), "<@8> and <@7>");
        assert_eq!(Message::legacy("@bob, your move", &[UserId(7)], names).plain(), "@bob, your move");
    }
}
