//! Messages the bot sends on its own: turn pings and results (after a command), and what
//! [`Service::tick`] finds due in the deadline index (reminders, timeouts, expired
//! challenges).

use super::Service;
use super::picture::Loaded;
use super::text;
use super::types::{Notice, NotifyMode, Target, UserId};
use crate::clock::Timestamp;
use crate::store::{GameRecord, Phase};

impl Service {
    /// How `user` wants to be told; the default until he says otherwise is the channel.
    pub(super) fn notify_mode(&self, user: UserId) -> NotifyMode {
        self.store.user(user).ok().flatten().map(|record| record.notify).unwrap_or_default()
    }

    /// A message for `user` about `record`, sent the way he chose. `always` messages
    /// (results, timeouts) still go to the channel, without a ping, when he chose `off`.
    fn tell(&self, record: &GameRecord, user: UserId, text: String, always: bool) -> Option<Notice> {
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
        Some(Notice { target, text, mentions, images: Vec::new(), game: Some(record.id) })
    }

    /// Time left for the current turn, as `, 2d 5h left`, or nothing without a clock.
    pub(super) fn time_left(&self, record: &GameRecord) -> String {
        match record.clock {
            Some(clock) if clock.deadline <= self.now() => ", time is up".to_owned(),
            Some(clock) => format!(", {} left", clock.deadline - self.now()),
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

    /// Tells the players other than `except` how the game ended.
    pub(super) fn result_notices(&self, record: &GameRecord, text: &str, except: Option<UserId>) -> Vec<Notice> {
        [record.challenger, record.opponent]
            .into_iter()
            .filter(|user| Some(*user) != except)
            .filter_map(|user| self.tell(record, user, format!("{}: {text}", text::ping(record.name_of(user))), true))
            .collect()
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

    /// The timeout or the reminder due for the player to move.
    fn clock_due(&self, game: &Loaded, now: Timestamp) -> Option<(Due, Vec<Notice>)> {
        let record = &game.record;
        let clock = record.clock?;
        let mover = game.mover()?;
        let waiting = record.other(mover);
        if clock.deadline <= now && !clock.timeout_told {
            let text = format!(
                "{}: {}'s time for {} ran out. You may `/claim` the win, or give more time with `/extratime`.",
                text::ping(record.name_of(waiting)),
                text::name(record.name_of(mover)),
                record.id
            );
            Some((Due::TimedOut, self.tell(record, waiting, text, true).into_iter().collect()))
        } else if clock.reminder_at() <= now && !clock.reminded {
            let left = clock.deadline - now;
            let ping = text::ping(record.name_of(mover));
            let text = format!("{ping}: a quarter of your time is left in {}: {left}.", record.id);
            Some((Due::Reminded, self.tell(record, mover, text, false).into_iter().collect()))
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
    /// The waiting player was told he may claim (the reminder counts as sent too).
    TimedOut,
    /// The player to move was reminded.
    Reminded,
}

impl Due {
    fn apply(self, record: &mut GameRecord) {
        match (self, record.clock.as_mut()) {
            (Due::Expire, _) => record.phase = Phase::Expired,
            (Due::TimedOut, Some(clock)) => (clock.reminded, clock.timeout_told) = (true, true),
            (Due::Reminded, Some(clock)) => clock.reminded = true,
            (_, None) => {}
        }
    }
}
