//! End-to-end tests of the Discord adapter: the real serenity client (the bot's own
//! `discord::serve`, and the `stonemate` binary) against the fake Discord on 127.0.0.1.

mod binary;
mod bot_game;
mod community;
mod deferral;
mod game;
mod harness;
mod history;
mod latency;
mod outbox;
mod picker;
mod registration;
mod shards;
mod threads;
mod tournament;
