//! Messages the bot sends on its own: turn pings and results (after a command), and what
//! [`Service::tick`] finds due in the deadline index (reminders, timeouts, expired
//! challenges).

use stonemate_engine::Color;

use super::Service;
use super::community::rematch_button;
use super::picture::Loaded;
use super::text;
use super::types::{Notice, NotifyMode, Target, UserId};
use crate::clock::Timestamp;
use crate::store::{Ending, GameRecord, Phase, Reason, TurnClock};

impl Service {
    /// How `user` wants to be told; the default until he says otherwise is the channel.
    pub(super) fn notify_mode(&self, user: UserId) -> NotifyMode {
        self.store.user(user).ok().flatten().map(|record| record.notify).unwrap_or_default()
    }

    /// A message for `user` about `record`, sent the way he chose. `always` messages
    /// (results, timeouts) still go to the channel, without a ping, when he chose `off`.
    pub(super) fn tell(&self, record: &GameRecord, user: UserId, text: String, always: bool) -> Option<Notice> {
        if self.is_bot(user) {
            // The bot learns of its games from the store, not from messages.
            return None;
        }
        let (target, mentions) = match self.notify_mode(user) {
            NotifyMode::Channel => (Target::Channel(record.channel), vec![user]),
            NotifyMode::Dm => (Target::Direct(user), Vec::new()),
            NotifyMode::Off if always => (Target::Channel(record.channel), Vec::new()),
            NotifyMode::Off => return None,
        };
        Some(Notice { target, text, mentions, images: Vec::new(), game: Some(record.id), buttons: Vec::new() })
    }

    /// The deadline of the current turn, as `, due in 2d 5h (...)` (written as the host
    /// writes deadlines), or nothing without a clock.
    pub(super) fn time_left(&self, record: &GameRecord) -> String {
        match record.clock {
            Some(clock) if clock.deadline <= self.now() => ", time is up".to_owned(),
            Some(clock) => format!(", due {}", self.deadline(clock.deadline)),
            None => String::new(),
        }
    }

    /// Pings the player to move in `game` (DMs carry the board from his side).
    pub(super) fn turn_ping(&self, game: &Loaded) -> Option<Notice> {
        let record = &game.record;
        let user = game.mover()?;
        let opponent = text::name(record.name_of(record.other(user)));
        let text = format!(
            "{}, it is your turn in {} ({} against {opponent}){}.",
            text::ping(record.name_of(user)),
            record.id,
            record.game.title(),
            self.time_left(record)
        );
        let mut notice = self.tell(record, user, text, false)?;
        if notice.target == Target::Direct(user) {
            notice.images.push(self.board(game, user, Vec::new()));
        }
        Some(notice)
    }

    /// Tells the players other than `except` how the game ended (or the challenge). The
    /// notices carry no Rematch button: in the channel, the reply to `except` has one, and
    /// a press in a direct message would come from no server.
    pub(super) fn result_notices(&self, record: &GameRecord, text: &str, except: Option<UserId>) -> Vec<Notice> {
        let tell = |user| self.tell(record, user, format!("{}: {text}", text::ping(record.name_of(user))), true);
        [record.challenger, record.opponent].into_iter().filter(|user| Some(*user) != except).filter_map(tell).collect()
    }

    /// Everything due by now. Each record's change is committed with its messages in one
    /// write, so each is put in the outbox once, and only with the change.
    pub(super) fn due_notices(&self) -> Vec<Notice> {
        let now = self.now();
        let Ok(ids) = self.store.due(now) else { return Vec::new() };
        let mut notices = Vec::new();
        for id in ids {
            let Ok(game) = self.load(id).and_then(|record| self.loaded(record)) else { continue };
            let Some((change, told)) = self.due(&game, now) else { continue };
            // A record changed meanwhile (or a failed write) is looked at again next tick.
            if let Ok((_, mut told)) = self.commit_with(game, |next| change.apply(next), |_| told) {
                notices.append(&mut told);
            }
        }
        notices
    }

    /// What is due for one game at `now`: the change to commit and the messages to send.
    fn due(&self, game: &Loaded, now: Timestamp) -> Option<(Due, Vec<Notice>)> {
        let record = &game.record;
        match record.phase {
            Phase::Challenge if record.expires <= now => {
                let text = format!(
                    "your challenge {} to {} ({}) expired unanswered.",
                    record.id,
                    text::name(&record.names[1]),
                    record.game.name()
                );
                let text = format!("{}: {text}", text::ping(&record.names[0]));
                Some((Due::Expire, self.tell(record, record.challenger, text, true).into_iter().collect()))
            }
            Phase::Playing => self.clock_due(game, now),
            _ => None,
        }
    }

    /// The timeout or the reminder due for the player to move. In a game against the bot,
    /// the bot claims the win as soon as the player's time runs out (it never waits, as a
    /// player could, and it never plays on a clock itself).
    fn clock_due(&self, game: &Loaded, now: Timestamp) -> Option<(Due, Vec<Notice>)> {
        let record = &game.record;
        let clock = record.clock?;
        let mover = game.mover()?;
        let waiting = record.other(mover);
        if let Some(moved) = self.repaused(record) {
            Some((Due::Repaused(moved), Vec::new()))
        } else if clock.deadline <= now && !clock.timeout_told && self.is_bot(waiting) {
            let winner = record.side_of(waiting)?;
            let text = format!("your time for {} ran out: Stonemate claims the win.", record.id);
            let mut notices = self.result_notices(record, &text, Some(waiting));
            // No reply shows this result: its notice in the channel offers the rematch.
            let in_channel = notices.iter_mut().filter(|notice| matches!(notice.target, Target::Channel(_)));
            in_channel.for_each(|notice| notice.buttons.push(rematch_button(record.id)));
            Some((Due::Claimed(winner, now), notices))
        } else if clock.deadline <= now && !clock.timeout_told {
            let text = format!(
                "{}: {}'s time for {} ran out {}. You may `/claim` the win, or give more time with `/extratime`.",
                text::ping(record.name_of(waiting)),
                text::name(record.name_of(mover)),
                record.id,
                self.deadline(clock.deadline)
            );
            Some((Due::TimedOut, self.tell(record, waiting, text, true).into_iter().collect()))
        } else if clock.remind_at.is_some_and(|at| at <= now) && !clock.timeout_told {
            let ping = text::ping(record.name_of(mover));
            let text = format!("{ping}: your turn in {} is due {}.", record.id, self.deadline(clock.deadline));
            let next = self.remind_after(&clock, now);
            Some((Due::Reminded(next), self.tell(record, mover, text, false).into_iter().collect()))
        } else {
            None
        }
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
    /// The clock is moved to its players' vacations (see [`Service::repaused`]).
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
