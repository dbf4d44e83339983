//! The servers' own settings: one [`ServerRecord`] per server that set something (`v` and
//! the server's id), read and written through [`Servers`], a view of the [`Store`].

use super::backend::{Backend, Batch, KeyRange};
use super::error::StoreError;
use super::keys;
use super::record::ServerRecord;
use super::records::Store;
use crate::ids::GuildId;

/// The server settings of one [`Store`].
#[derive(Debug)]
pub struct Servers<'a, B: ?Sized = dyn Backend> {
    store: &'a Store<B>,
}

impl<'a, B: Backend + ?Sized> Servers<'a, B> {
    /// The server settings kept in `store`.
    #[must_use]
    pub fn of(store: &'a Store<B>) -> Servers<'a, B> {
        Servers { store }
    }

    /// The settings of server `guild`, if it set any.
    pub fn load(&self, guild: GuildId) -> Result<Option<ServerRecord>, StoreError> {
        self.store.backend().get(&keys::server(guild))?.map(|bytes| keys::decode_server(&bytes)).transpose()
    }

    /// The servers that turned threads on (`/settings threads:on`), which the bot checks
    /// at its start that it may open threads in.
    pub fn threaded(&self) -> Result<Vec<GuildId>, StoreError> {
        let entries = self.store.backend().scan(&KeyRange::prefix(&[keys::SERVER]))?;
        let servers = entries.iter().map(|(_, bytes)| keys::decode_server(bytes));
        servers.filter_map(|server| server.map(|server| server.threads.then_some(server.guild)).transpose()).collect()
    }

    /// Stores the settings of a server.
    pub fn save(&self, server: &ServerRecord) -> Result<(), StoreError> {
        self.store.commit(Batch::new().put(keys::server(server.guild), serde_json::to_vec(server)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::MemoryStore;

    #[test]
    fn the_servers_with_threads_on_are_listed_and_no_other() {
        let store = MemoryStore::new();
        let servers = Servers::of(&store);
        assert_eq!(servers.threaded().unwrap(), Vec::new());
        for (guild, threads) in [(9, true), (3, false), (700, true)] {
            servers.save(&ServerRecord { threads, ..ServerRecord::new(GuildId(guild)) }).unwrap();
        }
        assert_eq!(servers.threaded().unwrap(), vec![GuildId(9), GuildId(700)]);
        servers.save(&ServerRecord::new(GuildId(9))).unwrap();
        assert_eq!(servers.threaded().unwrap(), vec![GuildId(700)], "turned off again");
    }
}
