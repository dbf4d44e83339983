//! Time in games: how deadlines are written, when a turn's clock starts and when its
//! reminders fall, and `/vacation`, which pauses a player's clocks.
//!
//! What a vacation means, exactly:
//! - From the command on, every running clock in the player's games (his turns and his
//!   opponents') stands still until the vacation ends: its deadline and its reminders
//!   move on by the paused time. A clock that ran out before the vacation began stays
//!   run out.
//! - A clock that starts during the vacation (a turn played by the opponent, a game
//!   accepted or started) counts from the vacation's end.
//! - Nothing has to happen when it ends: the moved deadlines are stored (and indexed), so
//!   clocks run again by themselves, across restarts too.
//! - `/vacation days:0` ends it at once: every deadline it moved comes back by the unused
//!   time, and only the days used (rounded up) count against the allowance. `/vacation
//!   days:N` during a vacation makes it end N days from now.
//! - Each player has `vacation_days_per_year` days per calendar year (UTC, by the day a
//!   vacation starts).
//! - When both players of a game are away, its clock stands still from the earlier start
//!   to the later end.
//! - The vacation is stored first, then each game's clock is moved. Should the process
//!   stop in between, the tick moves the clocks left behind before it reminds or times
//!   out (each clock stands still from the vacation's start).

use super::Service;
use super::error::Refusal;
use super::lookup::short_name;
use super::picture::Loaded;
use super::text;
use super::types::{Caller, GameId, Notice, Reply, Response, UserId};
use crate::clock::{Span, Timestamp};
use crate::store::{GameRecord, Phase, TurnClock, UserRecord, Vacation};

/// The longest vacation one command takes, in days.
pub const MAX_VACATION_DAYS: u8 = 30;

impl Service {
    /// `at` as the host writes deadlines (`in 2d 5h (... UTC)`, or a Discord timestamp).
    pub(super) fn deadline(&self, at: Timestamp) -> String {
        self.settings.deadlines.when(at, self.now())
    }

    /// The clock of a turn of `length` starting now in `record`'s game: while one of its
    /// players is on vacation, it starts when the vacation ends.
    pub(super) fn start_clock(&self, record: &GameRecord, length: Span) -> TurnClock {
        let now = self.now();
        let paused = self.pause_of(record).map(|pause| pause.end);
        let start = paused.unwrap_or(now);
        let mut clock = TurnClock::new(start, start + length);
        clock.paused_until = paused;
        clock.remind_at = self.remind_after(&clock, start);
        clock
    }

    /// The clock of a turn of `days` days, or none for a game without a clock.
    pub(super) fn turn_clock(&self, record: &GameRecord) -> Option<TurnClock> {
        (record.days > 0).then(|| self.start_clock(record, Span::days(record.days.into())))
    }

    /// The next reminder of `clock` after `after`: at the largest reminder point still
    /// ahead that is shorter than the whole turn (a reminder as the turn begins says
    /// nothing).
    pub(super) fn remind_after(&self, clock: &TurnClock, after: Timestamp) -> Option<Timestamp> {
        let whole = clock.deadline - clock.started;
        let ahead = clock.deadline - after;
        let point = self.settings.reminders.iter().filter(|p| Span(0) < **p && **p < whole && **p < ahead).max()?;
        Some(clock.deadline - *point)
    }

    /// The pause the running vacations of `record`'s players make: from the earlier start
    /// to the later end.
    fn pause_of(&self, record: &GameRecord) -> Option<Vacation> {
        let now = self.now();
        let running = |user| {
            let vacation = self.store.user(user).ok().flatten()?.vacations.last().copied()?;
            (vacation.start <= now && now < vacation.end).then_some(vacation)
        };
        let pauses: Vec<Vacation> = [record.challenger, record.opponent].into_iter().filter_map(running).collect();
        let start = pauses.iter().map(|pause| pause.start).min()?;
        let end = pauses.iter().map(|pause| pause.end).max()?;
        Some(Vacation { start, end })
    }

    /// `/vacation`: pauses (or, with 0 days, resumes) the clocks of all the caller's games.
    pub(super) fn vacation(&self, caller: &Caller, days: u8) -> Result<Response, Refusal> {
        let now = self.now();
        let me = caller.user.id;
        let mut user = self.store.user(me)?.unwrap_or_else(|| UserRecord::new(me, short_name(&caller.user.name)));
        let running = user.away_until(now).is_some();
        if days == 0 && !running {
            return Err(Refusal::NotOnVacation);
        }
        let end = now + Span::days(days.into());
        match user.vacations.last_mut() {
            Some(vacation) if running => vacation.end = end,
            _ => user.vacations.push(Vacation { start: now, end }),
        }
        let left = self.vacation_days_left(&user.vacations, days)?;
        self.store.save_user(&user)?;
        let mut moved = Vec::new();
        let mut notices = Vec::new();
        for (id, phase) in self.store.games_of(me)? {
            if phase == Phase::Playing
                && let Some(told) = Self::retry(|| self.pause(id, me, days))?
            {
                moved.push(id);
                notices.extend(told);
            }
        }
        let text = vacation_text(days, end, &moved, self, left);
        let reply = Reply { ok: true, text, private: true, ..Reply::default() };
        Ok(Response { reply, notices })
    }

    /// The vacation days left this year once `planned` (the last asking for `days` more)
    /// is taken, or the refusal of a plan beyond the allowance.
    fn vacation_days_left(&self, planned: &[Vacation], days: u8) -> Result<u32, Refusal> {
        let allowance = self.settings.vacation_days_per_year;
        let used = days_used(planned, self.now());
        u32::from(allowance).checked_sub(used).ok_or_else(|| {
            // What was left before this request: the days it asks for are whole.
            let left = (u32::from(allowance) + u32::from(days)).saturating_sub(used);
            Refusal::VacationAllowance { asked: days, left, allowance }
        })
    }

    /// Moves the clock of game `id` to the pause its players' vacations make now, telling
    /// the opponent of `away` in the same write; returns that notice, or `None` when the
    /// clock did not move.
    fn pause(&self, id: GameId, away: UserId, days: u8) -> Result<Option<Vec<Notice>>, Refusal> {
        let game = self.loaded(self.load(id)?)?;
        let Some(moved) = self.repaused(&game.record) else { return Ok(None) };
        let change = |next: &mut GameRecord| next.clock = Some(moved);
        let (_, notices) =
            self.commit_with(game, change, |game| self.pause_notice(game, away, days).into_iter().collect())?;
        Ok(Some(notices))
    }

    /// `record`'s clock moved to the pause its players' vacations make now, if it has not
    /// been moved so yet (a clock that ran out stays as it is). The tick checks this too
    /// before it reminds or times out, so a `/vacation` cut short by a crash (the vacation
    /// stored, some clocks not yet moved) is caught up.
    pub(super) fn repaused(&self, record: &GameRecord) -> Option<TurnClock> {
        let now = self.now();
        let pause = self.pause_of(record).unwrap_or(Vacation { start: now, end: now });
        // A clock that ran out before the pause began stays run out.
        let clock = record.clock.filter(|clock| clock.deadline > pause.start)?;
        // Where it stands still until already; else it stands still from the pause's start.
        let was = clock.paused_until.filter(|end| *end > pause.start).unwrap_or(pause.start);
        let until = pause.end;
        if until == was {
            return None;
        }
        let mut moved = clock.shifted(until - was);
        moved.paused_until = (until > now).then_some(until);
        Some(moved)
    }

    /// Tells the opponent of the one who went away (or came back) how his game's clock
    /// moved.
    fn pause_notice(&self, game: &Loaded, away: UserId, days: u8) -> Option<Notice> {
        let record = &game.record;
        let clock = record.clock?;
        let opponent = record.other(away);
        let mover = game.mover().map_or_else(|| "nobody".to_owned(), |user| text::name(record.name_of(user)));
        let what = if days == 0 { "is back from vacation" } else { "is on vacation" };
        let text = format!(
            "{}: {} {what}: in {}, {mover}'s turn is now due {}.",
            text::ping(record.name_of(opponent)),
            text::name(record.name_of(away)),
            record.id,
            self.deadline(clock.deadline)
        );
        self.tell(record, opponent, text, true)
    }
}

/// The vacation days taken (or planned) in the calendar year of `now`, each vacation by
/// the year it starts in, a day begun counting whole.
fn days_used(vacations: &[Vacation], now: Timestamp) -> u32 {
    let year = year_of(now);
    vacations.iter().filter(|vacation| year_of(vacation.start) == year).map(|v| whole_days(v.end - v.start)).sum()
}

/// The calendar year (UTC) of an instant.
fn year_of(time: Timestamp) -> i16 {
    time.utc_date().map_or(0, |day| day.year())
}

/// Days, rounded up: a day begun counts.
fn whole_days(span: Span) -> u32 {
    u32::try_from(span.0.max(0).unsigned_abs().div_ceil(Span::DAY.0.unsigned_abs())).unwrap_or(u32::MAX)
}

/// The caller's reply to `/vacation`.
fn vacation_text(days: u8, end: Timestamp, moved: &[GameId], service: &Service, left: u32) -> String {
    let games: Vec<String> = moved.iter().map(ToString::to_string).collect();
    let games = if games.is_empty() { "no clock was running".to_owned() } else { games.join(", ") };
    let allowance = service.settings.vacation_days_per_year;
    if days == 0 {
        format!(
            "Welcome back: your clocks run again ({games}). {left} of your {allowance} vacation days are left this year."
        )
    } else {
        format!(
            "You are on vacation, back {}: the clocks of your games stand still until then ({games}); your opponents were told. {left} of your {allowance} vacation days are left this year.",
            service.deadline(end)
        )
    }
}
