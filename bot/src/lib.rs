//! Stonemate's bot: the command-line tools, storage, the game service and (as it lands)
//! the Discord adapter. `main.rs` only wires these together.

pub mod backup;
pub mod cli;
pub mod clock;
pub mod config;
pub mod console;
pub mod discord;
pub mod ids;
pub mod opponent;
pub mod output;
pub mod periodic;
pub mod render_cmd;
pub mod replay;
pub mod service;
pub mod shards;
pub mod store;
pub mod suggest;
