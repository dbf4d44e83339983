//! The types every command shares: the bot's state ([`Data`]), the poise [`Context`] and
//! the [`Error`] type.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::RwLock;

use crate::service::Service;

/// What the commands can reach.
#[derive(Debug)]
pub struct Data {
    /// The game service every command is handed to.
    pub service: Arc<Service>,
    /// Held shared while a command, press or tick is being handled; shutdown takes it
    /// exclusively, so it waits for them before flushing the database.
    pub busy: Arc<RwLock<()>>,
    /// How long a command may work before the interaction is deferred.
    pub defer_after: Duration,
    /// Sends the notices, after the replies that caused them.
    pub outbox: Arc<super::sender::Outbox>,
}

/// A failure of the adapter itself (Discord unreachable, a task that died). Refusals of
/// the game service are ordinary replies, not errors.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// What poise hands each command: the interaction, and our [`Data`].
pub type Context<'a> = poise::Context<'a, Data, Error>;
