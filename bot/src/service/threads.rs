//! A game's thread (`/settings threads:on`): the notice that opens it when the game
//! starts ([`around`]), the one that posts the end and archives it, where the game's
//! notices go once it is open ([`target`]), and what the sender's answer to the opening
//! does to the record ([`opened`]).
//!
//! The thread is asked for through the outbox like every message, so a turn never waits
//! on Discord; the notices written before it opens are sent after it (the claim stops
//! after an opening), and each is sent where the record says when it goes out.

use super::types::{ChannelId, GameId, Message, Notice, Target, ThreadStep};
use crate::store::{GameRecord, NOBODY, Phase, Servers, Store, Thread};

/// The most characters Discord allows in a thread's name.
pub const MAX_NAME: usize = 100;

/// What the channel is told when Discord refused a game's thread.
const REFUSED: &str = "I may not open a thread here (I need Create Public Threads and Send Messages in Threads), \
                       so the game goes on in this channel.";

/// The thread's name: the game and its players by colour, `#12 alice vs bob`, plain text
/// within [`MAX_NAME`] characters.
#[must_use]
pub fn name(record: &GameRecord) -> String {
    let [first, second] = match record.seats.by_color() {
        Some(players) => players.map(|user| record.name_of(user)),
        None => [record.seats.challenger.name.as_str(), record.seats.opponent.name.as_str()],
    };
    let name = format!("{} {} vs {}", record.id, super::text::typed(first), super::text::typed(second));
    name.chars().take(MAX_NAME).collect()
}

/// `notices` of a change from `old` (`None`: a record created as it is) to `new`, with
/// the thread's own: its opening first when the game starts in a server with threads on,
/// the archiving last when a game with an open thread ends.
pub fn around(store: &Store, old: Option<&GameRecord>, new: &GameRecord, mut notices: Vec<Notice>) -> Vec<Notice> {
    let was = |phase| old.is_some_and(|old| old.phase == phase);
    if new.phase == Phase::Playing && !was(Phase::Playing) && new.origin.thread.is_none() && wanted(store, new) {
        notices.insert(0, opening(new));
    }
    if let Some(thread) = new.thread().filter(|_| new.phase == Phase::Finished && !was(Phase::Finished)) {
        notices.push(closing(new.id, thread));
    }
    notices
}

/// Whether the record's server turned threads on; not on a store failure (the game then
/// goes on in its channel).
fn wanted(store: &Store, record: &GameRecord) -> bool {
    let Some(guild) = record.guild() else { return false };
    Servers::of(store)
        .load(guild)
        .unwrap_or_else(|error| {
            tracing::error!(%error, "cannot read a server's settings");
            None
        })
        .is_some_and(|server| server.threads)
}

/// The notice that opens the game's thread in its channel and greets it there, pinging
/// the players: on Discord a user mentioned in a thread is added to it.
fn opening(record: &GameRecord) -> Notice {
    let mut message = Message::new();
    for seat in [&record.seats.challenger, &record.seats.opponent] {
        // Stonemate's own seat, and the empty seat of an open challenge, are nobody to ping.
        if seat.user != NOBODY && !(record.against_bot() && seat.user == record.opponent()) {
            message = message.ping(seat.user, seat.name.clone()).push(" ");
        }
    }
    let message = message.push(format!(
        "this thread follows {} {}: its turns, pings and requests come here, and commands used here answer here.",
        record.kind.title(),
        record.id
    ));
    notice(Target::Channel(record.channel()), message, record.id, Some(ThreadStep::Open { name: name(record) }))
}

/// The notice that closes a finished game's thread: said in it, then archived.
fn closing(id: GameId, thread: ChannelId) -> Notice {
    let message = Message::from(format!("{id} is over: this thread is archived."));
    notice(Target::Channel(thread), message, id, Some(ThreadStep::Archive))
}

fn notice(target: Target, message: Message, id: GameId, step: Option<ThreadStep>) -> Notice {
    Notice { target, message, images: Vec::new(), about: Some(id), buttons: Vec::new(), standings: None, thread: step }
}

/// Where a notice about `record` meant for `target` goes: to the game's open thread
/// instead of its channel.
#[must_use]
pub fn target(record: &GameRecord, target: Target) -> Target {
    match (target, record.thread()) {
        (Target::Channel(channel), Some(thread)) if channel == record.channel() => Target::Channel(thread),
        _ => target,
    }
}

/// The record `old` once opening its thread went so: `Some(thread)` opened, `None`
/// refused (kept, so the thread is never asked again), with what that tells: the refusal
/// said in the channel, once; a game that ended before its thread opened has it archived
/// at once. `None` when the record already knows its thread.
#[must_use]
pub fn opened(old: &GameRecord, opened: Option<ChannelId>) -> Option<(GameRecord, Vec<Notice>)> {
    if old.origin.thread.is_some() {
        return None;
    }
    let mut new = old.clone();
    new.version += 1;
    new.origin.thread = Some(opened.map_or(Thread::Refused, Thread::Open));
    let told = match opened {
        None => vec![notice(Target::Channel(new.channel()), Message::from(REFUSED), new.id, None)],
        Some(thread) if new.phase == Phase::Finished => vec![closing(new.id, thread)],
        Some(_) => Vec::new(),
    };
    Some((new, told))
}
