//! A server's own settings ([`ServerRecord`]), which its managers set: stored under `v`
//! and the server's id, and only once one of them sets something.

use serde::{Deserialize, Serialize};

use crate::ids::GuildId;

/// The settings of one server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServerRecord {
    /// Whose.
    pub guild: GuildId,
    /// `/settings threads:on`: each game started here gets a thread of its own.
    #[serde(default)]
    pub threads: bool,
}

impl ServerRecord {
    /// The settings of a server that set none.
    #[must_use]
    pub fn new(guild: GuildId) -> ServerRecord {
        ServerRecord { guild, threads: false }
    }
}
