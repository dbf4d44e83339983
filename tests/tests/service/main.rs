//! The game service, driven through its commands as the Discord adapter and the console
//! drive it: one module per area. Every refusal is checked to leave the store unchanged,
//! byte for byte.

mod bot_player;
mod challenges;
mod clock;
mod common;
mod endings;
mod mentions;
mod outbox;
mod picking;
mod pictures;
mod race;
mod servers;
mod store;
mod turns;
mod views;
