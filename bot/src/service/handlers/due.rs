//! What [`Service::tick`](crate::service::Service::tick) finds due in the deadline index:
//! reminders, timeouts, expired challenges, and clocks a vacation moves.

use stonemate_engine::Color;

use crate::clock::Timestamp;
use crate::service::loaded::Loaded;
use crate::service::types::{Button, Message, Notice, Target};
use crate::service::{Parts, tell};
use crate::store::{Ending, GameRecord, Phase, Reason, TurnClock};

/// Everything due by now. Each record's change is committed with its messages in one
/// write, so each is put in the outbox once, and only with the change.
pub(crate) fn due_notices(parts: &Parts) -> Vec<Notice> {
    let now = parts.clocks.now();
    let Ok(ids) = parts.games.due(now) else { return Vec::new() };
    let mut notices = Vec::new();
    for id in ids {
        let Ok(game) = parts.games.load(id).and_then(|record| parts.games.loaded(record)) else { continue };
        // A game counting dead pieces (go, rule 10) waits on its own rules.
        if let Some(counted) = super::counting::due(parts, &game, now) {
            notices.extend(counted.unwrap_or_default());
            continue;
        }
        let Some((change, told)) = due(parts, &game, now) else { continue };
        // A record changed meanwhile (or a failed write) is looked at again next tick.
        if let Ok(mut written) = parts.commit(game, |next| change.apply(next), |_| told) {
            notices.append(&mut written.notices);
        }
    }
    notices
}

/// What is due for one game at `now`: the change to commit and the messages to send.
fn due(parts: &Parts, game: &Loaded, now: Timestamp) -> Option<(Due, Vec<Notice>)> {
    let record = &game.record;
    match record.phase {
        Phase::Challenge if record.expires <= now => {
            let message = Message::new()
                .ping(record.challenger, &record.names[0])
                .push(format!(": your challenge {} to ", record.id))
                .name(&record.names[1])
                .push(format!(" ({}) expired unanswered.", record.game.name()));
            Some((Due::Expire, tell::tell(parts, record, record.challenger, message, true).into_iter().collect()))
        }
        Phase::Playing => clock_due(parts, game, now),
        _ => None,
    }
}

/// The timeout or the reminder due for the player to move. In a game against the bot,
/// the bot claims the win as soon as the player's time runs out (it never waits, as a
/// player could, and it never plays on a clock itself).
fn clock_due(parts: &Parts, game: &Loaded, now: Timestamp) -> Option<(Due, Vec<Notice>)> {
    let record = &game.record;
    let clock = record.clock?;
    let mover = game.mover()?;
    let waiting = record.other(mover);
    if let Some(moved) = parts.clocks.repaused(record) {
        Some((Due::Repaused(moved), Vec::new()))
    } else if clock.deadline <= now && !clock.timeout_told && parts.seat.is_bot(waiting) {
        let winner = record.side_of(waiting)?;
        let text = Message::from(format!("your time for {} ran out: Stonemate claims the win.", record.id));
        let mut notices = tell::result_notices(parts, record, &text, Some(waiting));
        // No reply shows this result: its notice in the channel offers the rematch.
        let in_channel = notices.iter_mut().filter(|notice| matches!(notice.target, Target::Channel(_)));
        in_channel.for_each(|notice| notice.buttons.push(Button::rematch(record.id)));
        Some((Due::Claimed(winner, now), notices))
    } else if clock.deadline <= now && !clock.timeout_told {
        let message =
            Message::new().ping(waiting, record.name_of(waiting)).push(": ").name(record.name_of(mover)).push(format!(
                "'s time for {} ran out {}. You may `/claim` the win, or give more time with `/extratime`.",
                record.id,
                parts.clocks.deadline(clock.deadline)
            ));
        Some((Due::TimedOut, tell::tell(parts, record, waiting, message, true).into_iter().collect()))
    } else if clock.remind_at.is_some_and(|at| at <= now) && !clock.timeout_told {
        let message = Message::new().ping(mover, record.name_of(mover)).push(format!(
            ": your turn in {} is due {}.",
            record.id,
            parts.clocks.deadline(clock.deadline)
        ));
        let next = parts.clocks.remind_after(&clock, now);
        Some((Due::Reminded(next), tell::tell(parts, record, mover, message, false).into_iter().collect()))
    } else {
        None
    }
}

/// What a tick changes in a record.
#[derive(Debug, Clone, Copy)]
enum Due {
    /// The challenge lapsed unanswered.
    Expire,
    /// The waiting player was told he may claim (no reminder is left).
    TimedOut,
    /// The player to move was reminded; the next reminder is then.
    Reminded(Option<Timestamp>),
    /// The clock is moved to its players' vacations (see [`Clocks::repaused`](crate::service::clocks::Clocks::repaused)).
    Repaused(TurnClock),
    /// The bot, waiting, won on time (then).
    Claimed(Color, Timestamp),
}

impl Due {
    fn apply(self, record: &mut GameRecord) {
        match (self, record.clock.as_mut()) {
            (Due::Expire, _) => record.phase = Phase::Expired,
            (Due::Repaused(moved), _) => record.clock = Some(moved),
            (Due::Claimed(winner, at), _) => {
                record.finish(Ending { winner: Some(winner), reason: Reason::Timeout, finished: Some(at) });
            }
            (Due::TimedOut, Some(clock)) => (clock.remind_at, clock.timeout_told) = (None, true),
            (Due::Reminded(next), Some(clock)) => clock.remind_at = next,
            (_, None) => {}
        }
    }
}
