//! The servers' own settings: one [`ServerRecord`] per server that set something (`v` and
//! the server's id), read and written through [`Servers`], a view of the [`Store`].

use super::backend::{Backend, Batch};
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

    /// Stores the settings of a server.
    pub fn save(&self, server: &ServerRecord) -> Result<(), StoreError> {
        self.store.commit(Batch::new().put(keys::server(server.guild), serde_json::to_vec(server)?))
    }
}
