//! The words the service speaks: who calls, what they ask (the [`Command`] of
//! [`super::commands`]), and what comes back ([`Response`], [`Notice`]). Plain data, no Discord types: the adapter translates
//! Discord interactions into these and these into Discord messages.

use std::fmt;

use serde::{Deserialize, Serialize};

pub use super::message::Message;

pub use stonemate_ai::{Budget, Level};

pub use crate::ids::{ChannelId, GameId, GuildId, TournamentId, UserId};
pub use crate::store::{ColorChoice, NotifyMode};

/// A user and the name to show for him. The service stores the latest name it was given,
/// so pictures, `/games` and notices can name players who are not calling.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct User {
    /// The user's Discord id.
    pub id: UserId,
    /// The name to show for him (his server nickname or user name).
    pub name: String,
}

impl User {
    /// A user from his Discord id and name.
    pub fn new(id: u64, name: impl Into<String>) -> User {
        User { id: UserId(id), name: name.into() }
    }
}

/// Who sent a command, and from where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    /// Who sent it.
    pub user: User,
    /// The channel it was sent in.
    pub channel: ChannelId,
    /// The server: every game is looked up in it. `None` in a direct-message channel.
    pub guild: Option<GuildId>,
    /// Whether the caller may manage `guild` (Discord's Manage Server permission), which
    /// `/admin-abort` needs.
    pub admin: bool,
}

impl Caller {
    /// A member of `guild` without the Manage Server permission.
    #[must_use]
    pub fn new(user: User, channel: ChannelId, guild: Option<GuildId>) -> Caller {
        Caller { user, channel, guild, admin: false }
    }
}

/// Which games `/games` lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameStatus {
    /// Active games and pending challenges.
    Active,
    /// Finished games, a page at a time.
    Finished,
}

impl GameStatus {
    /// Every status, in the order `/games` offers them.
    pub const ALL: [GameStatus; 2] = [GameStatus::Active, GameStatus::Finished];

    /// The name users type.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
        }
    }
}

/// A file sent with a message: a board PNG, an animated replay, a record text file.
#[derive(Clone, PartialEq, Eq)]
pub struct Attachment {
    /// A file name with its extension, e.g. `game-12.png`.
    pub name: String,
    /// The file's contents.
    pub bytes: Vec<u8>,
    /// For a picture of one of a game's positions: how to draw it again from the game's
    /// record. A notice keeps this in the outbox instead of the PNG, and draws the picture
    /// when it is sent.
    pub drawing: Option<Drawing>,
}

impl Attachment {
    /// A file that is not drawn from a game's record (a record text, an animation).
    #[must_use]
    pub fn file(name: String, bytes: Vec<u8>) -> Attachment {
        Attachment { name, bytes, drawing: None }
    }
}

/// How a board picture of a game is drawn again: which of the record's positions, from
/// which side, with which marks. A notice keeps this (some 60 bytes of JSON) in the
/// outbox rather than the picture's PNG (a few kilobytes, more in base64), and draws the
/// board when it is delivered: the position after `turns` turns is the one the notice was
/// made about even once the game has moved on, and `line` tells whether those turns are
/// still the record's (a takeback and a different turn since change them).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Drawing {
    /// The game whose record is replayed.
    pub game: GameId,
    /// How many of the record's turns lead to the position drawn.
    pub turns: u32,
    /// The CRC-32 of those turns (each followed by a newline).
    pub line: u32,
    /// Black's side is drawn at the bottom (White's otherwise).
    #[serde(default, skip_serializing_if = "is_false")]
    pub black_bottom: bool,
    /// The game was shown as over: its record's result heads the picture, also when the
    /// board alone cannot tell (a resignation). A picture made before the game ended shows
    /// it going on, whatever happened since.
    #[serde(default, skip_serializing_if = "is_false")]
    pub ended: bool,
    /// Squares highlighted ([`stonemate_engine::Square::index`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub highlights: Vec<u16>,
    /// Squares crossed out ([`stonemate_engine::Square::index`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marked: Vec<u16>,
}

/// Whether a flag is unset (it is then left out of the JSON).
#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(flag: &bool) -> bool {
    !*flag
}

impl fmt::Debug for Attachment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Attachment({}, {} bytes)", self.name, self.bytes.len())
    }
}

/// How a button looks (Discord's button styles).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ButtonStyle {
    /// The most prominent (Discord's blurple).
    Primary,
    /// A grey, for the lesser choices.
    Secondary,
    /// Green, for accepting.
    Success,
    /// Red, for giving something up (resign, decline).
    Danger,
}

/// A button under a reply. `custom_id` (at most 100 characters) is the text of its
/// [`Action`](super::buttons::Action), as `accept:12`, so a press works after a restart:
/// hand it to [`Service::press`](super::Service::press).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Button {
    /// Sent back in the press; see above.
    pub custom_id: String,
    /// The text on the button.
    pub label: String,
    /// Its colour.
    pub style: ButtonStyle,
}

/// One choice of a [`Select`] menu.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SelectOption {
    /// Sent back when it is chosen (at most 100 characters).
    pub value: String,
    /// What the user reads (at most 100 characters).
    pub label: String,
}

/// A select menu under a reply (Discord's string select, at most 25 options). Choosing an
/// option sends `custom_id` and the option's value back: hand both to
/// [`Service::select`](super::Service::select).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Select {
    /// Sent back with the choice: the text of an [`Action`](super::buttons::Action).
    pub custom_id: String,
    /// Shown before anything is chosen.
    pub placeholder: String,
    /// The choices, in order.
    pub options: Vec<SelectOption>,
}

/// The answer to a command or a button press, for the caller (and the channel unless
/// private).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reply {
    /// `false` when the command was refused; nothing was changed then.
    pub ok: bool,
    /// The message, as segments each adapter renders.
    pub message: Message,
    /// Only the caller sees it (Discord: ephemeral). Every refusal is private.
    pub private: bool,
    /// Pictures shown inline: board PNGs, the animated replay.
    pub images: Vec<Attachment>,
    /// Other files, such as the record of `/history`.
    pub files: Vec<Attachment>,
    /// Buttons under the reply, in order.
    pub buttons: Vec<Button>,
    /// Select menus under the reply, above its buttons (the turn picker's steps).
    pub selects: Vec<Select>,
    /// The game the reply is about, if any.
    pub about: Option<GameId>,
    /// Answers a button press by replacing the message the button is on (Discord:
    /// UPDATE_MESSAGE) instead of posting a new one: `/history`'s First, Back, Next and
    /// Last show another turn in the same message.
    pub replaces_message: bool,
}

impl Reply {
    /// The message as plain text (a ping is `@name`): what the console shows.
    #[must_use]
    pub fn text(&self) -> String {
        self.message.plain()
    }
}

/// Where a message the bot sends on its own goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// A new message in the game's channel.
    Channel(ChannelId),
    /// A direct message to the user.
    Direct(UserId),
}

/// A message the bot sends on its own: a turn ping, a game's result, a reminder, a
/// timeout, an expired challenge. Always a new message, so mentions ping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// Where it goes.
    pub target: Target,
    /// The message, as segments each adapter renders.
    pub message: Message,
    /// Pictures shown inline, such as the board after a turn.
    pub images: Vec<Attachment>,
    /// The game it is about, if any.
    pub about: Option<GameId>,
    /// Buttons under it (a finished game's result carries Rematch).
    pub buttons: Vec<Button>,
    /// The standings of this tournament: the outbox keeps the tournament alone and draws
    /// them anew when they are sent, and Discord shows one message, edited after each
    /// result, instead of a new one each time.
    pub standings: Option<TournamentId>,
    /// What it does to its game's thread besides its message (`/settings threads:on`).
    pub thread: Option<ThreadStep>,
}

/// What a notice does to its game's thread, besides posting its message there.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ThreadStep {
    /// Opens a public thread of this name in the target channel and posts the message in
    /// it; the sender gives the thread's channel id back ([`Delivery::Posted`]).
    ///
    /// [`Delivery::Posted`]: super::Delivery::Posted
    Open {
        /// The thread's name: the game and its players, within Discord's 100 characters.
        name: String,
    },
    /// Posts the message in the thread (the target), then archives the thread.
    Archive,
}

impl Notice {
    /// The message as plain text (a ping is `@name`): what the console shows.
    #[must_use]
    pub fn text(&self) -> String {
        self.message.plain()
    }
}

/// What a command or a press produces: the reply, and the messages to send besides it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Response {
    /// The answer for the caller.
    pub reply: Reply,
    /// The notices it causes, sent besides the reply.
    pub notices: Vec<Notice>,
}

impl Response {
    /// A public reply about game `id` saying `message`, with the notices it causes.
    #[must_use]
    pub fn about(id: GameId, message: Message, notices: Vec<Notice>) -> Response {
        Response { reply: Reply { ok: true, message, about: Some(id), ..Reply::default() }, notices }
    }
}

/// The option being autocompleted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// A `game` option: the caller's active games.
    Game,
    /// A `challenge` option: pending challenges to or from the caller.
    Challenge,
    /// `/move notation`: the legal turns of the game.
    Notation,
    /// `/legal square`: squares from which a legal turn starts.
    Square,
}

/// One autocomplete suggestion: `name` is shown (at most 100 characters), `value` is sent
/// back as the option's value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Choice {
    /// Shown in the list.
    pub name: String,
    /// Sent back as the option's value.
    pub value: String,
}
