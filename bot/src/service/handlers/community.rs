//! Playing again and standing in the community (issue 18): `/stats`, `/leaderboard`, and
//! the Rematch button every finished game's reply carries.

pub(crate) mod refusal;

use std::cmp::Ordering;
use std::fmt;

use stonemate_ai::Level;
use stonemate_engine::{Color, GameKind};

use super::challenge::Terms;
use crate::service::error::Failure;
use crate::service::error::Refusal;
use crate::service::parts::Parts;
use crate::service::ratings::{self, EXPLAINED};
use crate::service::text;
use crate::service::types::{Caller, GameId, Reply, Response, User, UserId};
use crate::store::{ColorChoice, GameRecord, Phase, RatingRecord};
use refusal::CommunityRefusal;

/// How many players `/leaderboard` lists.
pub const LEADERS: usize = 10;

/// One player's results in one game: games, wins, losses, draws.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Tally {
    games: u32,
    wins: u32,
    losses: u32,
    draws: u32,
}

impl Tally {
    /// Counts a finished game of `user` (aborted games count for nothing).
    fn count(&mut self, record: &GameRecord, user: UserId) {
        let Some(ending) = record.result.as_ref().filter(|finish| !finish.aborted()) else { return };
        self.games += 1;
        match ending.winner() {
            None => self.draws += 1,
            Some(side) if record.seats.side_of(user) == Some(side) => self.wins += 1,
            Some(_) => self.losses += 1,
        }
    }
}

impl fmt::Display for Tally {
    /// `3 games (1 win, 1 loss, 1 draw)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}, {}, {})",
            counted(self.games, "game", "games"),
            counted(self.wins, "win", "wins"),
            counted(self.losses, "loss", "losses"),
            counted(self.draws, "draw", "draws"),
        )
    }
}

/// `3 wins`, `1 loss`.
fn counted(count: u32, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// Best first: established ratings before provisional ones (as lichess ranks them: one
/// lucky game must not top the table), then the higher rating, then the surer one, then
/// the older account.
fn ranking(a: &RatingRecord, b: &RatingRecord) -> Ordering {
    let provisional = ratings::provisional;
    (provisional(a).cmp(&provisional(b)))
        .then(b.rating.total_cmp(&a.rating))
        .then(a.deviation.total_cmp(&b.deviation))
        .then(a.user.cmp(&b.user))
}

/// `/stats`: a player's games, wins, losses, draws and rating, per game, in this
/// server.
pub(crate) fn stats(
    parts: &Parts,
    caller: &Caller,
    user: Option<&User>,
    only: Option<GameKind>,
) -> Result<Response, Failure> {
    let user = user.unwrap_or(&caller.user);
    let guild = caller.guild.ok_or(CommunityRefusal::ServerOnly)?;
    // Per game: against people (what the rating is about), and against the bot.
    let mut tallies = [[Tally::default(); 2]; GameKind::ALL.len()];
    for record in parts.games.records_of(caller, user.id, Phase::Finished)? {
        let place = GameKind::ALL.iter().position(|kind| *kind == record.kind);
        if let (Some(place), true) = (place, record.guild() == Some(guild)) {
            tallies[place][usize::from(record.against_bot())].count(&record, user.id);
        }
    }
    let mut lines = Vec::new();
    for (kind, [people, bot]) in GameKind::ALL.into_iter().zip(tallies) {
        let rating = parts.ratings.rating(guild, kind, user.id)?;
        let played = people.games + bot.games > 0;
        if only.is_some_and(|only| only != kind) || (only.is_none() && !played && rating.is_none()) {
            continue;
        }
        let rating =
            rating.map_or_else(|| "unrated".to_owned(), |rating| format!("rating {}", ratings::shown(&rating)));
        let mut line = format!("{}: {people}, {rating}", kind.title());
        if bot.games > 0 {
            line.push_str(&format!("; against Stonemate: {bot}"));
        }
        lines.push(line);
    }
    let name = text::name(&user.name);
    let text = if lines.is_empty() {
        format!("{name} has finished no game in this server yet.")
    } else {
        format!("{name} in this server:\n{}\n{EXPLAINED}.", lines.join("\n"))
    };
    Ok(Response { reply: Reply { ok: true, message: text.into(), ..Reply::default() }, notices: Vec::new() })
}

/// `/leaderboard`: the ten best-rated players of a game in this server (every rated
/// player, provisional ratings marked), and the caller's own place below them.
pub(crate) fn leaderboard(parts: &Parts, caller: &Caller, kind: GameKind) -> Result<Response, Failure> {
    let guild = caller.guild.ok_or(CommunityRefusal::ServerOnly)?;
    let mut table = parts.ratings.table(guild, kind)?;
    table.sort_by(ranking);
    let line = |(place, rating): (usize, &RatingRecord)| {
        let name = parts.users.name(rating.user).map_or_else(|| "someone".to_owned(), |name| text::name(&name));
        format!("{}. {name} — {} ({})", place + 1, ratings::shown(rating), counted(rating.games, "game", "games"))
    };
    let mut lines: Vec<String> = table.iter().enumerate().take(LEADERS).map(line).collect();
    if let Some(mine) = table.iter().position(|rating| rating.user == caller.user.id).filter(|p| *p >= LEADERS) {
        lines.push("…".to_owned());
        lines.push(line((mine, &table[mine])));
    }
    let text = if lines.is_empty() {
        format!("Nobody has a {} rating in this server yet.", kind.title())
    } else {
        format!("**{}** leaderboard:\n{}\n{EXPLAINED}.", kind.title(), lines.join("\n"))
    };
    Ok(Response { reply: Reply { ok: true, message: text.into(), ..Reply::default() }, notices: Vec::new() })
}

/// The Rematch button: a new challenge from the presser to the same opponent, with the
/// same game, options and days, colours swapped; against Stonemate, a new game at once
/// at the same level. Only the two players may press it. One rematch at a time: when
/// the opponent already asked for it, the press accepts his challenge; a second press
/// of the one who asked (or a press once the rematch is being played) says where it is.
pub(crate) fn rematch(parts: &Parts, caller: &Caller, id: GameId) -> Result<Response, Failure> {
    let record = parts.games.named(caller, id)?;
    if record.phase != Phase::Finished {
        return Err(CommunityRefusal::NotOver(record.id).into());
    }
    super::tournament::refuse_in_tournament(&record, "a rematch")?;
    let side = record.seats.side_of(caller.user.id).ok_or(Refusal::NotYourGame(record.id))?;
    if let Some(made) = made_rematch(parts, caller, record.id)? {
        return match made.phase {
            Phase::Challenge if made.opponent() == caller.user.id => {
                super::challenge::accept(parts, caller, Some(made.id))
            }
            _ => Err(CommunityRefusal::RematchMade {
                id: record.id,
                rematch: made.id,
                waiting: made.phase == Phase::Challenge,
            }
            .into()),
        };
    }
    let other = record.seats.other(caller.user.id);
    let opponent = User { id: other, name: record.name_of(other).to_owned() };
    let color = if side == Color::White { ColorChoice::Black } else { ColorChoice::White };
    let level = record.level().unwrap_or(Level::Medium);
    let (kind, days, options) = (record.kind, Some(record.days), record.options.clone());
    let terms = Terms { opponent: Some(&opponent), kind, color, days, options, level, rematch_of: Some(record.id) };
    let made = super::challenge::challenge(parts, caller, terms)?;
    let Some(new) = made.reply.about else { return Ok(made) };
    // Two presses at once (both players', or one player's twice) may each have found no
    // rematch: the finished game's version decides which challenge stands. The other,
    // which nobody has seen yet, is withdrawn, and its press runs again (a conflict), to
    // find the one that stands. Against the bot the rematch begins at once, so the same
    // holds for the game: the lost one, withdrawn, is never asked of the bot again.
    match parts.commit(parts.games.loaded(record)?, |_| {}, |_| Vec::new()) {
        Ok(_) => Ok(made),
        Err(refusal) => {
            let lost = parts.games.loaded(parts.games.load(new)?)?;
            parts.commit(lost, |next| next.phase = Phase::Withdrawn, |_| Vec::new())?;
            Err(refusal)
        }
    }
}

/// The rematch of game `id` that the caller's Rematch press would duplicate: a challenge
/// it made that waits for an answer, or the game it became, still being played.
fn made_rematch(parts: &Parts, caller: &Caller, id: GameId) -> Result<Option<GameRecord>, Failure> {
    for phase in [Phase::Challenge, Phase::Playing] {
        let records = parts.games.records_of(caller, caller.user.id, phase)?;
        if let Some(made) = records.into_iter().find(|record| record.origin.rematch_of == Some(id)) {
            return Ok(Some(made.record));
        }
    }
    Ok(None)
}
