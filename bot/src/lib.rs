//! Stonemate's bot: the command-line tools and (as they land) storage, the game service
//! and the Discord adapter. `main.rs` only wires these together.

pub mod cli;
pub mod render_cmd;
pub mod replay;
