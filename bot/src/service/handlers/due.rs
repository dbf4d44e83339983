//! What [`Service::tick`](crate::service::Service::tick) finds due in the deadline index:
//! reminders, timeouts (a game lost on time, or aborted before both players played; or,
//! with `timeouts = "claim"`, the waiting player told he may claim), expired challenges,
//! and clocks a vacation moves.

use stonemate_engine::{EndReason, Ending, Outcome};

use crate::clock::Timestamp;
use crate::service::error::Failure;
use crate::service::loaded::Loaded;
use crate::service::parts::Parts;
use crate::service::ratings::Ratings;
use crate::service::settings::Timeouts;
use crate::service::tell;
use crate::service::types::{Button, Message, Notice, Target, UserId};
use crate::store::{CalledOff, Finish, GameRecord, Phase, RatingChange, TurnClock};

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
        let Some(found) = due(parts, &game, now) else { continue };
        // The ratings could not be read: nothing is told or written without them, and the
        // game is looked at again next tick.
        let Ok(Found { due, told, ratings }) = found.inspect_err(|error| {
            tracing::error!(game = game.record.id.0, %error, "cannot read the ratings a timeout changes");
        }) else {
            continue;
        };
        // A record changed meanwhile (or a failed write) is looked at again next tick.
        // The ratings the notices tell are the ones written.
        if let Ok(mut written) = parts.commit_rated(game, |next| due.apply(next), |_, _| Ok(ratings), |_| told) {
            notices.append(&mut written.notices);
        }
    }
    notices
}

/// What a tick found due for one game: the change to commit, the messages to send with it,
/// and the rating changes both tell (found once, for the notices and for the write).
struct Found {
    due: Due,
    told: Vec<Notice>,
    ratings: Vec<RatingChange>,
}

impl Found {
    /// A change that ends no game, so changes no rating.
    fn unrated(due: Due, told: Vec<Notice>) -> Found {
        Found { due, told, ratings: Vec::new() }
    }
}

/// What is due for one game at `now`; an error when the ratings it changes cannot be read.
fn due(parts: &Parts, game: &Loaded, now: Timestamp) -> Option<Result<Found, Failure>> {
    let record = &game.record;
    match record.phase {
        Phase::Challenge if record.origin.expires <= now => {
            let message = Message::new()
                .ping(record.challenger(), &record.seats.challenger.name)
                .push(format!(": your challenge {} to ", record.id))
                .name(&record.seats.opponent.name)
                .push(format!(" ({}) expired unanswered.", record.kind.name()));
            Some(Ok(Found::unrated(
                Due::Expire,
                tell::tell(parts, (record, &parts.users.of(record)), record.challenger(), message, true)
                    .into_iter()
                    .collect(),
            )))
        }
        Phase::Playing => clock_due(parts, game, now),
        _ => None,
    }
}

/// The timeout or the reminder due for the player to move.
fn clock_due(parts: &Parts, game: &Loaded, now: Timestamp) -> Option<Result<Found, Failure>> {
    let record = &game.record;
    let clock = record.clock?;
    let mover = game.mover()?;
    let waiting = record.seats.other(mover);
    if let Some(moved) = parts.clocks.repaused(record, &parts.users.of(record)) {
        Some(Ok(Found::unrated(Due::Repaused(moved), Vec::new())))
    } else if clock.deadline <= now && !clock.timeout_told {
        Some(timed_out(parts, game, mover, waiting, now))
    } else if clock.remind_at.is_some_and(|at| at <= now) && !clock.timeout_told {
        let message = Message::new().ping(mover, record.name_of(mover)).push(format!(
            ": your turn in {} is due {}.",
            record.id,
            parts.clocks.deadline(clock.deadline)
        ));
        let next = parts.clocks.remind_after(&clock, now);
        Some(Ok(Found::unrated(
            Due::Reminded(next),
            tell::tell(parts, (record, &parts.users.of(record)), mover, message, false).into_iter().collect(),
        )))
    } else {
        None
    }
}

/// The time of `mover` ran out. A game in which a player has not yet played a turn of
/// his own is aborted, whatever the setting: nobody loses a game he never began. Else,
/// with automatic timeouts, and always when the bot waits (it never waits, as a player
/// could), `mover` loses at once and both players are told; with `claim`, the waiting
/// player is told that he may claim. The rating changes are found here, once: the notices
/// tell them and the commit writes them.
fn timed_out(parts: &Parts, game: &Loaded, mover: UserId, waiting: UserId, now: Timestamp) -> Result<Found, Failure> {
    let record = &game.record;
    let ran_out = parts.clocks.deadline(record.clock.map_or(now, |clock| clock.deadline));
    let automatic = parts.settings.timeouts == Timeouts::Automatic || parts.seat.is_bot(waiting);
    let winner = record.seats.side_of(waiting);
    let due = match winner {
        // In a tournament a time-out is always a loss: the players did not choose each other.
        _ if !record.both_played() && record.origin.tournament.is_none() => {
            Due::Ended(Finish::called_off(CalledOff::Unstarted).at(now))
        }
        Some(winner) if automatic || record.origin.tournament.is_some() => {
            let ending = Ending { outcome: Outcome::Winner(winner), reason: EndReason::Timeout };
            Due::Ended(Finish::new(ending).at(now))
        }
        _ => {
            let message = Message::new()
                .ping(waiting, record.name_of(waiting))
                .push(": ")
                .name(record.name_of(mover))
                .push(format!(
                    "'s time for {} ran out {ran_out}. You may `/claim` the win, or give more time with `/extratime`.",
                    record.id
                ));
            return Ok(Found::unrated(
                Due::TimedOut,
                tell::tell(parts, (record, &parts.users.of(record)), waiting, message, true).into_iter().collect(),
            ));
        }
    };
    // The result as it will be stored, for the messages written with it.
    let mut ended = game.clone();
    due.apply(&mut ended.record);
    let result = ended.result();
    // Like every other ending, both players read the new ratings with the result.
    let changes = parts.ratings.changes(false, &ended.record, &parts.seat)?;
    let ratings = Ratings::foreseen(&ended.record, &changes);
    let mut notices = Vec::new();
    for user in [mover, waiting] {
        let message = Message::new().ping(user, record.name_of(user)).push(": ");
        let message = if parts.seat.is_bot(waiting) && matches!(&due, Due::Ended(finish) if finish.winner().is_some()) {
            message.push(format!("your time for {} ran out: Stonemate claims the win.", record.id))
        } else if user == mover {
            message.push(format!("your time for {} ran out {ran_out}: {} is over, {result}.", record.id, record.id))
        } else {
            let over = format!("'s time for {} ran out {ran_out}: {} is over, {result}.", record.id, record.id);
            message.name(record.name_of(mover)).push(over)
        };
        let message = message.push(ratings.clone());
        notices.extend(tell::tell(parts, (record, &parts.users.of(record)), user, message, true));
    }
    // No reply shows this result: its first notice in the channel offers the rematch.
    let channel = notices.iter_mut().find(|notice| matches!(notice.target, Target::Channel(_)));
    if let Some(notice) = channel.filter(|_| record.origin.tournament.is_none()) {
        notice.buttons.push(Button::rematch(record.id));
    }
    Ok(Found { due, told: notices, ratings: changes })
}

/// What a tick changes in a record.
#[derive(Debug, Clone)]
enum Due {
    /// The challenge lapsed unanswered.
    Expire,
    /// The waiting player was told he may claim (no reminder is left).
    TimedOut,
    /// The player to move was reminded; the next reminder is then.
    Reminded(Option<Timestamp>),
    /// The clock is moved to its players' vacations (see [`Clocks::repaused`](crate::service::clocks::Clocks::repaused)).
    Repaused(TurnClock),
    /// The game ended on time: won by the waiting side, or aborted.
    Ended(Finish),
}

impl Due {
    fn apply(&self, record: &mut GameRecord) {
        match (self, record.clock.as_mut()) {
            (Due::Expire, _) => record.phase = Phase::Expired,
            (Due::Repaused(moved), _) => record.clock = Some(*moved),
            (Due::Ended(finish), _) => record.finish(finish.clone()),
            (Due::TimedOut, Some(clock)) => (clock.remind_at, clock.timeout_told) = (None, true),
            (Due::Reminded(next), Some(clock)) => clock.remind_at = *next,
            (_, None) => {}
        }
    }
}
