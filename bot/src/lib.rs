//! Stonemate's bot: the command-line tools, storage, the game service and the Discord and
//! console adapters. `main.rs` only wires these together.
//!
//! # Glossary
//!
//! One word, one thing, in code and in messages:
//!
//! - **kind** ([`GameKind`](stonemate_engine::GameKind)): which of the five games (Go,
//!   Chego, iChess, Gess, Chogo); a variable holding one is `kind`.
//! - **id** ([`GameId`](ids::GameId)): the number of a game or challenge (`#12`); a
//!   variable holding one is `id`.
//!   A field that says which game something is about is named for that role:
//!   [`Reply::about`](service::Reply::about), `rematch_of`.
//! - **record** ([`GameRecord`](store::GameRecord)): what is stored of a game: options,
//!   players, turns, clock, result, version.
//! - **game** ([`Loaded`](service::Loaded)): a record opened with its position replayed;
//!   a variable `game` holds one and nothing else. (A command's option `game` is the
//!   user's word: an id, or a kind for `/challenge` and `/rules`; it keeps that name in
//!   the typed [`Command`](service::Command). The record's `kind` is stored as `game`.)
//! - **position** ([`AnyGame`](stonemate_engine::AnyGame)): the engine's state after the
//!   turns; a variable holding one is `position`.
//! - **side** ([`Color`](stonemate_engine::Color)): white or black (Chogo's green), as the
//!   rules see the players.
//! - **turn** ([`Turn`](stonemate_engine::Turn)): one player's move, drop or pass as the
//!   engine takes it; a typed turn is read once into a `Turn` and never printed to be read
//!   again. The record keeps its turns as the game prints them.
//! - **ending** ([`Ending`](stonemate_engine::Ending)): who won (or a draw) and why, in
//!   the engine's words; the **finish** ([`Finish`](store::Finish)) is how the record
//!   keeps it: the ending, when, and who called a game off without result.
//! - **player**: a user playing a game; **opponent**: the other player of a game or the
//!   one a challenge is addressed to, never the AI.
//! - **seat**: Stonemate's own player in a game ([`service`]'s seat part), its questions
//!   answered by the **AI pool** ([`ai_pool`]), the worker threads that run the search;
//!   what it decides is a **decision** ([`BotDecision`](ai_pool::BotDecision)).
//! - **command**: what a user asks (`/move`); **press**: a button of ours clicked.
//! - **option**: a named value of a command (`game`, `status`), declared once in the list
//!   of commands; a text quotes one through its key (`keys::Games::status`, in
//!   [`service::options`]) so that renaming it cannot leave the text behind.
//! - **reply**: the answer to a command or press, for the caller; **notice**: a message the
//!   bot sends on its own (a turn ping, a result, a reminder), written to the **outbox**
//!   with the change that causes it and sent from there.
//! - **message** ([`Message`](service::Message)): what a reply or a notice says, as
//!   segments (text, a user's name, a ping by user id) that each adapter renders; whom it
//!   pings is read from its pings only.
//! - **takeback**: a player's request to take back his last turn (and the opponent's after
//!   it), stored in the record until the opponent answers or a turn is played.
//! - **refusal** ([`Refusal`](service::Refusal)): why a command changed nothing, named
//!   after the rule.
//! - **parts**: the service's owners of state (games, notices, clocks, ratings, seat,
//!   users, pictures); **handlers**: the functions that run commands over them.

// Every public item says what it is for its caller (issue 25): CI's `-D warnings` keeps
// it so.
#![warn(missing_docs)]

pub mod ai_pool;
pub mod backup;
pub mod cli;
pub mod clock;
pub mod config;
pub mod console;
pub mod discord;
pub mod ids;
pub mod output;
pub mod periodic;
pub mod render_cmd;
pub mod replay;
pub mod service;
pub mod shards;
pub mod store;
pub mod suggest;
