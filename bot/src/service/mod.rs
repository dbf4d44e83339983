//! The game service: Stonemate without Discord. Commands come in ([`Command`], from a
//! [`Caller`]), replies go out ([`Response`]: the [`Reply`] to the caller and the
//! [`Notice`]s the bot sends besides); [`Service::tick`] sends reminders, timeouts and
//! challenge expiries on its own.
//!
//! The service is synchronous and `Send + Sync`: share it in an `Arc` and call it from
//! blocking threads (it renders PNGs and flushes the database). Everything it knows is in
//! the [`Store`](crate::store::Store); positions are rebuilt from the stored turns (and cached), so a
//! restart loses nothing. Two commands racing on one game apply at most one: every write
//! is a compare-and-swap on the record's version, and the loser is checked again against
//! the new state.
//!
//! Every game belongs to the server it was started in ([`Caller::guild`]): a command from
//! another server finds it nowhere, as if its id did not exist.
//!
//! Replies and notices are [`Message`]s: text, users' names and pings as separate
//! segments, so that no name can format a message or mention anyone ([`text`]) and whom
//! to ping is a user id, rendered by each adapter ([`message`]). Refusals are private, change nothing, and are shown with the board
//! where there is one.

mod buttons;
mod clocks;
pub mod commands;
mod error;
mod front;
mod games;
mod handlers;
mod input;
mod limits;
mod loaded;
pub mod message;
mod notices;
pub mod options;
mod parts;
mod pictures;
pub mod ratings;
pub mod rules;
mod seat;
mod settings;
mod table;
mod tell;
pub mod text;
mod threads;
mod types;
mod users;

pub use buttons::{Action, KeptLine, PickPath, PickPress, ProposalTag, Step};
pub use commands::Command;
pub use error::Refusal;
pub use front::Service;
pub use handlers::challenge::refusal::ChallengeRefusal;
pub use handlers::community::refusal::CommunityRefusal;
pub use handlers::conditional::refusal::ConditionalRefusal;
pub use handlers::counting::refusal::CountingRefusal;
pub use handlers::endings::refusal::EndingRefusal;
pub use handlers::requests::refusal::{RequestKind, RequestRefusal};
pub use handlers::takeback::refusal::TakebackRefusal;
pub use handlers::vacation::refusal::VacationRefusal;
pub use input::BadValue;
pub use loaded::Loaded;
pub use message::Segment;
pub use notices::{Delivery, Outgoing, Timing as NoticeTiming, channel_refused};
pub use seat::{BotPlayer, Submit, seed};
pub use settings::{Settings, Timeouts};
pub use threads::name as thread_name;
pub use types::{
    Attachment, Budget, Button, ButtonStyle, Caller, ChannelId, Choice, ColorChoice, Drawing, Field, GameId,
    GameStatus, GuildId, Level, Message, Notice, NotifyMode, Reply, Response, Select, SelectOption, Target, ThreadStep,
    User, UserId,
};
