//! A fake Discord on 127.0.0.1 for running the real serenity client in tests: an HTTP API
//! (`http.rs`) and a websocket gateway (`gateway.rs`). Tests send interactions through
//! the gateway and read what the bot sent back from the recorded requests. Everything
//! stops when the [`FakeDiscord`] is dropped.

pub mod described;
mod failures;
mod gateway;
mod http;
pub mod payloads;
mod recorded;
mod server;
mod shared;

pub use failures::{Failure, Route};
pub use payloads::Origin;
pub use recorded::{
    Answer, DEFERRED_REPLY, DEFERRED_UPDATE, EPHEMERAL, Recorded, RequestKind, Sent, UPDATE_MESSAGE, custom_ids,
};
pub use server::FakeDiscord;
