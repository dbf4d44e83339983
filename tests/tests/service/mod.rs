//! The game service, driven through its commands as the Discord adapter and the console
//! drive it: one module per area. Every refusal is checked to leave the store unchanged,
//! byte for byte.

mod bot_player;
mod challenges;
mod clock;
// Also the stores' suite drives its stores through this table.
pub(crate) mod common;
mod conditional;
mod counting;
mod digest;
mod endings;
mod explore;
mod finished;
mod history;
mod manners;
mod mentions;
mod open_challenges;
mod outbox;
mod picking;
mod pictures;
mod race;
mod reads;
mod score;
// The stores' suite plays openings with its helpers.
pub(crate) mod ratings;
mod rematch;
mod servers;
mod standing;
mod store;
mod takeback;
mod threads;
mod timeouts;
mod tournaments;
mod turn_picker;
mod turns;
mod vacation;
mod views;
