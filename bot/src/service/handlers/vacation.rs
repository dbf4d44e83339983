//! `/vacation`: pauses the clocks of all the caller's games (see [`Clocks`] for what a
//! vacation means, exactly).

//!
//! [`Clocks`]: crate::service::clocks::Clocks

pub(crate) mod refusal;

use crate::clock::{Span, Timestamp};
use crate::service::clocks::Clocks;
use crate::service::error::Failure;
use crate::service::games::short_name;
use crate::service::loaded::Loaded;
use crate::service::parts::{Parts, retry};
use crate::service::tell;
use crate::service::types::{Caller, GameId, Message, Notice, Reply, Response, UserId};
use crate::store::{GameRecord, Phase, UserRecord, Vacation};
use refusal::VacationRefusal;

/// `/vacation`: pauses (or, with 0 days, resumes) the clocks of all the caller's games.
pub(crate) fn vacation(parts: &Parts, caller: &Caller, days: u8) -> Result<Response, Failure> {
    let now = parts.clocks.now();
    let me = caller.user.id;
    let mut user = parts.users.record(me)?.unwrap_or_else(|| UserRecord::new(me, short_name(&caller.user.name)));
    let running = user.away_until(now).is_some();
    if days == 0 && !running {
        return Err(VacationRefusal::NotOnVacation.into());
    }
    let end = now + Span::days(days.into());
    match user.vacations.last_mut() {
        Some(vacation) if running => vacation.end = end,
        _ => user.vacations.push(Vacation { start: now, end }),
    }
    let left = parts.clocks.vacation_days_left(&user.vacations, days)?;
    let left = (left, parts.clocks.vacation_days_left_next_year(&user.vacations));
    parts.users.save(&user)?;
    let mut moved = Vec::new();
    let mut notices = Vec::new();
    for entry in parts.games.entries_of(me)? {
        let id = entry.id;
        if entry.phase == Phase::Playing
            && let Some(told) = retry(|| pause(parts, id, me, days))?
        {
            moved.push(id);
            notices.extend(told);
        }
    }
    let text = vacation_text(days, end, &moved, &parts.clocks, left);
    let reply = Reply { ok: true, message: text.into(), ..Reply::default() };
    Ok(Response { reply, notices })
}

/// Moves the clock of game `id` to the pause its players' vacations make now, telling
/// the opponent of `away` in the same write; returns that notice, or `None` when the
/// clock did not move.
fn pause(parts: &Parts, id: GameId, away: UserId, days: u8) -> Result<Option<Vec<Notice>>, Failure> {
    let game = parts.games.loaded(parts.games.load(id)?)?;
    let Some(moved) = parts.clocks.repaused(&game.record, &parts.users.of(&game.record)) else { return Ok(None) };
    let change = |next: &mut GameRecord| next.clock = Some(moved);
    let written = parts.commit(game, change, |game| pause_notice(parts, game, away, days).into_iter().collect())?;
    Ok(Some(written.notices))
}

/// Tells the opponent of the one who went away (or came back) how his game's clock
/// moved.
fn pause_notice(parts: &Parts, game: &Loaded, away: UserId, days: u8) -> Option<Notice> {
    let record = &game.record;
    let clock = record.clock?;
    let opponent = record.seats.other(away);
    let mover = game.mover().map_or_else(|| Message::from("nobody"), |user| Message::new().name(record.name_of(user)));
    let what = if days == 0 { "is back from vacation" } else { "is on vacation" };
    let message = Message::new()
        .ping(opponent, record.name_of(opponent))
        .push(": ")
        .name(record.name_of(away))
        .push(format!(" {what}: in {}, ", record.id))
        .then(mover)
        .push(format!("'s turn is now due {}.", parts.clocks.deadline(clock.deadline)));
    tell::tell(parts, (record, &parts.users.of(record)), opponent, message, true)
}

/// The caller's reply to `/vacation`; `left`: the days left this year, and next year's
/// when the vacation reaches into it.
fn vacation_text(
    days: u8,
    end: Timestamp,
    moved: &[GameId],
    clocks: &Clocks,
    left: (u32, Option<(i16, u32)>),
) -> String {
    let games: Vec<String> = moved.iter().map(ToString::to_string).collect();
    let games = if games.is_empty() { "no clock was running".to_owned() } else { games.join(", ") };
    let allowance = clocks.allowance();
    let left = match left {
        (this_year, Some((year, next))) => {
            format!("{this_year} of your {allowance} vacation days are left this year, and {next} for {year}.")
        }
        (this_year, None) => format!("{this_year} of your {allowance} vacation days are left this year."),
    };
    if days == 0 {
        format!("Welcome back: your clocks run again ({games}). {left}")
    } else {
        format!(
            "You are on vacation, back {}: the clocks of your games stand still until then ({games}); your opponents were told. {left}",
            clocks.deadline(end)
        )
    }
}
