//! The cross-crate integration tests, as one test binary (each binary links the whole
//! bot, so one per crate keeps builds short), one module per area:
//!
//! - `stores`: one conformance suite run on every store;
//! - `service`: the game service driven through its commands;
//! - `discord`: the Discord adapter end to end against the fake Discord;
//! - `moving`: the `stonemate` binary moving its data between stores;
//! - `postgres`: the tests' throwaway PostgreSQL itself.

mod discord;
mod moving;
mod postgres;
mod service;
mod stores;
