//! The daily digest (`/notify digest:on hour:H`): once a day, at the hour the player chose
//! (UTC), one direct message listing every game where he is to move, least time left
//! first, each with its opponent, game, deadline and last turn, within one message (the
//! rest counted, with `/games` to see them). Nothing is sent on a day with no such game.
//!
//! The tick finds the digests due ([`due_digests`]); each is written to the outbox with
//! the player's record marking the day done, in one transaction, so a restart neither
//! loses a day's digest nor doubles it. A tick late after a restart still sends the day's
//! digest; a day the bot was down for entirely has none.

use crate::clock::{Span, Timestamp};
use crate::service::error::Failure;
use crate::service::games;
use crate::service::loaded::Loaded;
use crate::service::parts::Parts;
use crate::service::text;
use crate::service::types::{Caller, Message, Notice, Reply, Response, Target, UserId};
use crate::store::{NotifyMode, Phase, UserRecord};

use super::views::cut_list;

/// The digest's hour when `digest:on` names none (UTC).
pub const DEFAULT_HOUR: u8 = 8;

/// What `/notify` changes; each left out stays as it is.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NotifyChange {
    /// How he is told of his turns.
    pub mode: Option<NotifyMode>,
    /// The daily digest on or off.
    pub digest: Option<bool>,
    /// The digest's hour (UTC); given alone, it turns the digest on.
    pub hour: Option<u8>,
}

/// `/notify`: how the caller is told that it is his turn, and his daily digest; with
/// nothing given, what he set.
pub(crate) fn set_notify(parts: &Parts, caller: &Caller, change: NotifyChange) -> Result<Response, Failure> {
    let old = parts.users.record(caller.user.id)?;
    let old = old.unwrap_or_else(|| UserRecord::new(caller.user.id, String::new()));
    let NotifyChange { mode, digest, hour } = change;
    let digest = match (digest, hour) {
        (Some(false), _) => None,
        (Some(true), None) => Some(old.digest.unwrap_or(DEFAULT_HOUR)),
        (_, Some(hour)) => Some(hour),
        (None, None) => old.digest,
    };
    // A digest set (or moved) now starts at the next time the clock shows its hour.
    let digested = match digest {
        Some(hour) if digest != old.digest => Some(done_when_set(hour, parts.clocks.now())),
        _ => old.digested,
    };
    let name = games::short_name(&caller.user.name);
    let notify = mode.unwrap_or(old.notify);
    let user = UserRecord { name, notify, digest, digested, ..old };
    parts.users.save(&user)?;
    let told = match notify {
        NotifyMode::Channel => "You will be pinged in the game's channel when it is your turn.",
        NotifyMode::Dm => "You will get a direct message when it is your turn.",
        NotifyMode::Off => "You will not be pinged about your turns (results still show in the channel).",
    };
    let daily = match digest {
        Some(hour) => format!(
            " Daily digest: on, at {hour:02}:00 UTC, one direct message listing the games where you are to move."
        ),
        None => " Daily digest: off.".to_owned(),
    };
    let reply = Reply { ok: true, message: format!("{told}{daily}").into(), ..Reply::default() };
    Ok(Response { reply, notices: Vec::new() })
}

/// The day of `now`: days since 1970, UTC.
#[must_use]
pub(crate) fn day_of(now: Timestamp) -> i64 {
    now.0.div_euclid(Span::DAY.0)
}

/// The time of `hour` (UTC) on `day`.
fn at(day: i64, hour: u8) -> Timestamp {
    Timestamp(day * Span::DAY.0 + i64::from(hour) * Span::HOUR.0)
}

/// The day whose digest `user` is due at `now`, if one is: his hour has come today and
/// today is not done.
fn due_day(user: &UserRecord, now: Timestamp) -> Option<i64> {
    let hour = user.digest?;
    let day = day_of(now);
    (now >= at(day, hour) && user.digested.is_none_or(|done| done < day)).then_some(day)
}

/// The last day done for a digest at `hour` set at `now`: today when today's hour has
/// passed, so that the first digest comes at the next time the clock shows that hour.
#[must_use]
pub(crate) fn done_when_set(hour: u8, now: Timestamp) -> i64 {
    let day = day_of(now);
    if now >= at(day, hour) { day } else { day - 1 }
}

/// Every digest due now, written to the outbox: the notices written.
pub(crate) fn due_digests(parts: &Parts) -> Vec<Notice> {
    let now = parts.clocks.now();
    let mut written = Vec::new();
    for user in parts.notices.digest_readers() {
        let Some(day) = due_day(&user, now) else { continue };
        let digest: Vec<Notice> = digest(parts, user.id).into_iter().collect();
        if parts.notices.enqueue_digest(user.id, day, &digest) {
            written.extend(digest);
        }
    }
    written
}

/// The digest of `user`'s games where he is to move, or `None` when there is none.
fn digest(parts: &Parts, user: UserId) -> Option<Notice> {
    let mut waiting = to_move(parts, user);
    if waiting.is_empty() {
        return None;
    }
    waiting.sort_by_key(|game| (game.record.clock.map_or(i64::MAX, |clock| clock.deadline.0), game.record.id));
    let lines: Vec<String> = waiting.iter().map(|game| line(parts, game, user)).collect();
    let head = format!(
        "Your daily digest: {} where you are to move, least time left first:\n",
        text::counted(lines.len(), "game", "games")
    );
    let text = cut_list(&head, &lines, "\n", |more| format!("\n… and {more} more: `/games` lists them all."));
    Some(Notice {
        target: Target::Direct(user),
        message: Message::from(text),
        images: Vec::new(),
        about: None,
        buttons: Vec::new(),
        standings: None,
        thread: None,
    })
}

/// `user`'s games being played, in every server, where he is to move.
fn to_move(parts: &Parts, user: UserId) -> Vec<Loaded> {
    let Ok(entries) = parts.games.entries_of(user) else { return Vec::new() };
    entries
        .into_iter()
        .filter(|entry| entry.phase == Phase::Playing)
        .filter_map(|entry| parts.games.load(entry.id).and_then(|record| parts.games.loaded(record)).ok())
        .filter(|game| game.record.phase == Phase::Playing && game.mover() == Some(user))
        .collect()
}

/// `#3 go vs bob: due in 2d 3h, last turn R@d4`.
fn line(parts: &Parts, game: &Loaded, user: UserId) -> String {
    let record = &game.record;
    let opponent = text::name(record.name_of(record.seats.other(user)));
    let deadline =
        record.clock.map_or("no clock".to_owned(), |clock| format!("due {}", parts.clocks.deadline(clock.deadline)));
    let last = record.turns.last().map_or("no turn yet".to_owned(), |turn| format!("last turn {turn}"));
    format!("{} {} vs {opponent}: {deadline}, {last}", record.id, record.kind.name())
}
