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
//! - Each player has `vacation_days_per_year` days per calendar year (UTC): each day of a
//!   vacation counts in the year it begins in, whichever year the vacation began (a
//!   vacation begun on 31 December uses the new year's days from 1 January on).
//! - When both players of a game are away, its clock stands still from the earlier start
//!   to the later end.
//! - The vacation is stored first, then each game's clock is moved. Should the process
//!   stop in between, the tick moves the clocks left behind before it reminds or times
//!   out (each clock stands still from the vacation's start).

use std::sync::Arc;

use super::error::Refusal;
use super::settings::Settings;
use super::users::Players;
use crate::clock::{Clock, DeadlineStyle, Span, Timestamp};
use crate::service::handlers::vacation::refusal::VacationRefusal;
use crate::store::{GameRecord, TurnClock, Vacation};

/// The clocks part: the service's time and what it makes of it.
#[derive(Debug)]
pub struct Clocks {
    clock: Arc<dyn Clock>,
    deadlines: DeadlineStyle,
    reminders: Vec<Span>,
    vacation_days_per_year: u16,
}

impl Clocks {
    pub fn new(clock: Arc<dyn Clock>, settings: &Settings) -> Clocks {
        Clocks {
            clock,
            deadlines: settings.deadlines,
            reminders: settings.reminders.clone(),
            vacation_days_per_year: settings.vacation_days_per_year,
        }
    }

    /// The service's time.
    pub fn now(&self) -> Timestamp {
        self.clock.now()
    }

    /// `at` as the host writes deadlines (`in 2d 5h (... UTC)`, or a Discord timestamp).
    pub fn deadline(&self, at: Timestamp) -> String {
        self.deadlines.when(at, self.now())
    }

    /// The clock of a turn of `length` starting now in a game of `players`: while one of
    /// them is on vacation, it starts when the vacation ends.
    pub fn start_clock(&self, players: &Players, length: Span) -> TurnClock {
        let now = self.now();
        let paused = self.pause_of(players).map(|pause| pause.end);
        let start = paused.unwrap_or(now);
        let mut clock = TurnClock::new(start, start + length);
        clock.paused_until = paused;
        clock.remind_at = self.remind_after(&clock, start);
        clock
    }

    /// The clock of a turn of `days` days in `record` (played by `players`), or none for a
    /// game without a clock.
    pub fn turn_clock(&self, record: &GameRecord, players: &Players) -> Option<TurnClock> {
        (record.days > 0).then(|| self.start_clock(players, Span::days(record.days.into())))
    }

    /// The next reminder of `clock` after `after`: at the largest reminder point still
    /// ahead that is shorter than the whole turn (a reminder as the turn begins says
    /// nothing).
    pub fn remind_after(&self, clock: &TurnClock, after: Timestamp) -> Option<Timestamp> {
        let whole = clock.deadline - clock.started;
        let ahead = clock.deadline - after;
        let point = self.reminders.iter().filter(|p| Span(0) < **p && **p < whole && **p < ahead).max()?;
        Some(clock.deadline - *point)
    }

    /// The pause the running vacations of a game's `players` make: from the earlier start
    /// to the later end.
    pub fn pause_of(&self, players: &Players) -> Option<Vacation> {
        let now = self.now();
        let running = |vacation: &Vacation| vacation.start <= now && now < vacation.end;
        let pauses: Vec<Vacation> = players.vacations().into_iter().filter(running).collect();
        let start = pauses.iter().map(|pause| pause.start).min()?;
        let end = pauses.iter().map(|pause| pause.end).max()?;
        Some(Vacation { start, end })
    }

    /// The vacation days left this year once `planned` (the last asking for `days` more
    /// from now) is taken, or the refusal of a plan beyond the allowance in any calendar
    /// year it reaches: a vacation counts in each year for the days it has there,
    /// whichever year it began in.
    pub fn vacation_days_left(&self, planned: &[Vacation], days: u8) -> Result<u32, Refusal> {
        let allowance = u32::from(self.vacation_days_per_year);
        let now = self.now();
        let this_year = year_of(now);
        let mut years = vec![this_year];
        years.extend(planned.iter().flat_map(|vacation| day_starts(vacation).map(year_of)));
        years.sort_unstable();
        years.dedup();
        if years.into_iter().any(|year| days_used(planned, year) > allowance) {
            // What was left before this request: the plan's days until now only.
            let mut before = planned.to_vec();
            if let Some(last) = before.last_mut() {
                last.end = last.end.min(now).max(last.start);
            }
            let left = allowance.saturating_sub(days_used(&before, this_year));
            return Err(VacationRefusal::Allowance { asked: days, left, allowance: self.vacation_days_per_year }.into());
        }
        Ok(allowance - days_used(planned, this_year))
    }

    /// The vacation days left next year once `planned` is taken, with that year, when the
    /// plan reaches into it (a vacation begun in late December takes the new year's days
    /// from 1 January on).
    #[must_use]
    pub fn vacation_days_left_next_year(&self, planned: &[Vacation]) -> Option<(i16, u32)> {
        let next = year_of(self.now()) + 1;
        let reached = planned.iter().flat_map(day_starts).any(|start| year_of(start) == next);
        reached.then(|| (next, u32::from(self.vacation_days_per_year).saturating_sub(days_used(planned, next))))
    }

    /// `record`'s clock moved to the pause its players' vacations make now, if it has not
    /// been moved so yet (a clock that ran out stays as it is). The tick checks this too
    /// before it reminds or times out, so a `/vacation` cut short by a crash (the vacation
    /// stored, some clocks not yet moved) is caught up.
    pub fn repaused(&self, record: &GameRecord, players: &Players) -> Option<TurnClock> {
        let now = self.now();
        let pause = self.pause_of(players).unwrap_or(Vacation { start: now, end: now });
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

    /// The deadline of the current turn, as `, due in 2d 5h (...)` (written as the host
    /// writes deadlines), or nothing without a clock.
    pub fn time_left(&self, record: &GameRecord) -> String {
        match record.clock {
            Some(clock) if clock.deadline <= self.now() => ", time is up".to_owned(),
            Some(clock) => format!(", due {}", self.deadline(clock.deadline)),
            None => String::new(),
        }
    }

    /// Days of vacation each player may take per calendar year.
    pub fn allowance(&self) -> u16 {
        self.vacation_days_per_year
    }
}

/// The vacation days taken (or planned) in calendar year `year`: each vacation's days,
/// a day begun counting whole, counted in the year each of its days begins in (so a
/// vacation begun on 31 December counts its January days in the new year).
pub fn days_used(vacations: &[Vacation], year: i16) -> u32 {
    let days = vacations.iter().flat_map(day_starts).filter(|start| year_of(*start) == year).count();
    u32::try_from(days).unwrap_or(u32::MAX)
}

/// When each day of `vacation` begins: its start, and every 24 hours after, for as many
/// days as it has (a day begun counting whole).
fn day_starts(vacation: &Vacation) -> impl Iterator<Item = Timestamp> + '_ {
    (0..whole_days(vacation.end - vacation.start)).map(move |day| vacation.start + Span::days(day.into()))
}

/// The calendar year (UTC) of an instant.
fn year_of(time: Timestamp) -> i16 {
    time.utc_date().map_or(0, |day| day.year())
}

/// Days, rounded up: a day begun counts.
fn whole_days(span: Span) -> u32 {
    u32::try_from(span.0.max(0).unsigned_abs().div_ceil(Span::DAY.0.unsigned_abs())).unwrap_or(u32::MAX)
}
