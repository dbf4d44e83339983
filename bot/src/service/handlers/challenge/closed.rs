//! The rule against a challenge sent again and again, each one pinging its opponent: a
//! challenge he declined is not sent to him again for a [`PAUSE`], nor one withdrawn for
//! the [`WITHDRAWALS`]th time within it. A challenger who withdraws one by mistake may
//! send it again at once. The challenger's user record keeps his challenges that ended
//! lately without a game.

use crate::clock::{Span, Timestamp};
use crate::ids::GuildId;
use crate::service::error::Failure;
use crate::service::games::short_name;
use crate::service::parts::Parts;
use crate::service::text;
use crate::service::types::{User, UserId};
use crate::store::{ClosedChallenge, GameRecord, UserRecord};

use super::refusal::ChallengeRefusal;

/// How long a declined challenge (or the last of too many withdrawn ones) keeps its
/// challenger from challenging the same opponent in the same server.
pub(crate) const PAUSE: Span = Span::HOUR;

/// The withdrawals within a [`PAUSE`] after which the challenger waits.
pub(crate) const WITHDRAWALS: usize = 2;

/// Refuses a challenge by `caller` to `opponent` made in the server of `guild` while a
/// challenge between them ended there lately as the rule says.
pub(crate) fn check(parts: &Parts, caller: UserId, opponent: &User, guild: Option<GuildId>) -> Result<(), Failure> {
    let Some(record) = parts.users.record(caller)? else { return Ok(()) };
    let now = parts.clocks.now();
    let recent: Vec<&ClosedChallenge> = record
        .closed
        .iter()
        .filter(|closed| closed.opponent == opponent.id && closed.guild == guild && now < closed.at + PAUSE)
        .collect();
    let name = text::name(&opponent.name);
    if let Some(declined) = recent.iter().rev().find(|closed| closed.declined) {
        return Err(ChallengeRefusal::Declined { name, wait: wait(now, declined.at) }.into());
    }
    if let Some(first) = recent.len().checked_sub(WITHDRAWALS).and_then(|index| recent.get(index)) {
        return Err(ChallengeRefusal::Withdrawn { name, count: WITHDRAWALS, wait: wait(now, first.at) }.into());
    }
    Ok(())
}

/// Keeps in the challenger's record that `challenge` ends now without a game (`declined`
/// by its opponent, else withdrawn), forgetting those older than a [`PAUSE`]. Written
/// before the challenge closes: should the close then fail, the mark only makes the
/// challenger wait, and no closed challenge goes unmarked. A command that lost a race
/// runs again and marks its challenge again: the mark replaces the first, so one
/// withdrawal never counts twice.
pub(crate) fn remember(parts: &Parts, challenge: &GameRecord, declined: bool) -> Result<(), Failure> {
    let challenger = challenge.challenger();
    let now = parts.clocks.now();
    let name = || short_name(challenge.name_of(challenger));
    let mut user = parts.users.record(challenger)?.unwrap_or_else(|| UserRecord::new(challenger, name()));
    user.closed.retain(|closed| now < closed.at + PAUSE && closed.challenge != challenge.id);
    let (opponent, guild) = (challenge.opponent(), challenge.origin.guild);
    user.closed.push(ClosedChallenge { challenge: challenge.id, opponent, guild, at: now, declined });
    parts.users.save(&user)
}

/// The time left until a challenge that ended `at` no longer counts, in minutes rounded
/// up (`60 minutes`, `1 minute`).
fn wait(now: Timestamp, at: Timestamp) -> String {
    let left = ((at + PAUSE) - now).0;
    let minute = Span::MINUTE.0;
    let minutes = usize::try_from((left + minute - 1) / minute).unwrap_or(1).max(1);
    text::counted(minutes, "minute", "minutes")
}
