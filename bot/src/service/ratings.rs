//! Ratings (issue 18): Glicko-2, computed by the `skillratings` crate, one rating per
//! player, game and server.
//!
//! - **Rating period**: every rated game is a rating period of its own (as most bots
//!   do): when it ends, both players' ratings are updated from that one result. Time
//!   without games is no period: a deviation does not grow while a player is away.
//! - **What is rated**: games between two people in a server, on a clock, that end with
//!   a winner or a draw after both players have played a turn of their own. Games
//!   against Stonemate, games without a clock (`days:0`, which nobody can lose on time,
//!   so a losing player could stall them for ever), games ended before both played (a
//!   resignation at once, a time out nobody began), aborted games (by a player, an
//!   administrator, or a clock that ran out before both played), and challenges that
//!   never started are not.
//! - **Provisional**: a rating whose deviation is above [`PROVISIONAL_DEVIATION`] (lichess's
//!   rule): a new player starts at 1500 ± 350 and needs a few games to fall below it.
//!
//! The new ratings are written in the same store transaction as the result
//! (`Games::commit`, in the service's games part); a rating that moved since it was read (another game of the same
//! player ended first) fails the write as a conflict, and the command runs again.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use stonemate_engine::{Color, EndReason, GameKind};

use super::seat::Seat;
use super::text;
use super::types::{Button, Reply};
use crate::ids::{GuildId, UserId};
use crate::service::error::Failure;
use crate::store::{GameRecord, Phase, RatingChange, RatingRecord, Store, Tournaments};

/// A rating with a deviation above this is provisional (marked `?`).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// How `/stats` and `/leaderboard` explain the ratings.
pub const EXPLAINED: &str = "Ratings are Glicko-2, per server and game, updated after every rated game: \
games between two people on a clock that end with a result after both have played, never games against \
Stonemate, games without a clock (days:0) or aborted ones. `?` marks a \
provisional rating, whose deviation is above 110 (everyone starts at 1500 ± 350); the leaderboard \
lists provisional ratings after the settled ones";

/// Whether a rating is still provisional.
#[must_use]
pub fn provisional(rating: &RatingRecord) -> bool {
    rating.deviation > PROVISIONAL_DEVIATION
}

/// A rating as players read it: `1662`, or `1662?` while provisional.
#[must_use]
pub fn shown(rating: &RatingRecord) -> String {
    let mark = if provisional(rating) { "?" } else { "" };
    format!("{:.0}{mark}", rating.rating)
}

/// A player's rating before his first rated game.
fn first(user: UserId, kind: GameKind, guild: GuildId) -> RatingRecord {
    let start = Glicko2Rating::new();
    RatingRecord {
        user,
        kind,
        guild,
        rating: start.rating,
        deviation: start.deviation,
        volatility: start.volatility,
        games: 0,
    }
}

fn glicko(rating: &RatingRecord) -> Glicko2Rating {
    Glicko2Rating { rating: rating.rating, deviation: rating.deviation, volatility: rating.volatility }
}

/// `rating` after one more rated game that left it at `new`.
fn after(rating: &RatingRecord, new: Glicko2Rating) -> RatingRecord {
    RatingRecord {
        rating: new.rating,
        deviation: new.deviation,
        volatility: new.volatility,
        games: rating.games + 1,
        ..*rating
    }
}

/// The server, players `[white, black]` and white's outcome of a finished rated game.
fn rated_result(record: &GameRecord) -> Option<(GuildId, [UserId; 2], Outcomes)> {
    // A forfeit is no game played to its end: withdrawing must not move ratings.
    let ending =
        record.result.as_ref().filter(|finish| !finish.aborted() && finish.ending.reason != EndReason::Forfeit)?;
    if record.phase != Phase::Finished || record.against_bot() || record.days == 0 || !record.both_played() {
        return None;
    }
    let outcome = match ending.winner() {
        Some(Color::White) => Outcomes::WIN,
        Some(Color::Black) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    Some((record.guild()?, record.seats.by_color()?, outcome))
}

/// The ratings part: the stored ratings, and the changes a result makes.
#[derive(Debug)]
pub struct Ratings {
    store: Store,
}

impl Ratings {
    /// The ratings kept in `store`.
    pub fn new(store: Store) -> Ratings {
        Ratings { store }
    }

    /// What a reply about a game that just ended carries: the new ratings (after a rated
    /// game) and the Rematch button.
    pub fn mark_over(&self, record: &GameRecord, reply: &mut Reply) {
        if record.phase != Phase::Finished {
            return;
        }
        reply.message.append(self.note(record));
        if record.origin.tournament.is_none() {
            reply.buttons.push(Button::rematch(record.id));
        }
    }

    /// The rating of `user` at `kind` in `guild`, if he has played a rated game.
    pub(crate) fn rating(&self, guild: GuildId, kind: GameKind, user: UserId) -> Result<Option<RatingRecord>, Failure> {
        Ok(self.store.rating(guild, kind, user)?)
    }

    /// Every rating at `kind` in `guild`.
    pub(crate) fn table(&self, guild: GuildId, kind: GameKind) -> Result<Vec<RatingRecord>, Failure> {
        Ok(self.store.ratings(guild, kind)?)
    }

    /// The rating changes that writing `next` makes: both players' new ratings when it
    /// ends a rated game (`was_over`: the record was finished before), else none.
    pub(crate) fn changes(&self, was_over: bool, next: &GameRecord, seat: &Seat) -> Result<Vec<RatingChange>, Failure> {
        let Some((guild, [white, black], outcome)) = rated_result(next).filter(|_| !was_over) else {
            return Ok(Vec::new());
        };
        if seat.is_bot(white) || seat.is_bot(black) {
            return Ok(Vec::new());
        }
        // A tournament created with `rated:off` rates none of its games.
        if let Some(tag) = next.origin.tournament
            && Tournaments::of(&self.store).load(tag.id)?.is_some_and(|tournament| !tournament.rated)
        {
            return Ok(Vec::new());
        }
        let stored = |user| self.store.rating(guild, next.kind, user);
        let (white_before, black_before) = (stored(white)?, stored(black)?);
        let white_now = white_before.unwrap_or_else(|| first(white, next.kind, guild));
        let black_now = black_before.unwrap_or_else(|| first(black, next.kind, guild));
        let (new_white, new_black) = glicko2(&glicko(&white_now), &glicko(&black_now), &outcome, &Glicko2Config::new());
        Ok(vec![
            RatingChange { before: white_before, after: after(&white_now, new_white) },
            RatingChange { before: black_before, after: after(&black_now, new_black) },
        ])
    }

    /// ` Ratings: alice 1662?, bob 1338?.` after a rated game, else nothing.
    pub fn note(&self, record: &GameRecord) -> String {
        let Some((guild, players, _)) = rated_result(record) else { return String::new() };
        let ratings: Option<Vec<RatingRecord>> =
            players.into_iter().map(|user| self.store.rating(guild, record.kind, user).ok().flatten()).collect();
        ratings.map_or_else(String::new, |ratings| said(record, &ratings))
    }

    /// [`Ratings::note`] for `changes` (those [`Ratings::changes`] found for `record`, a
    /// game ending, before it is written): the ratings its result will store, for messages
    /// written in the same transaction as those changes (a game that ends with no reply to
    /// carry them, as on time). Nothing when the game changes no rating.
    pub fn foreseen(record: &GameRecord, changes: &[RatingChange]) -> String {
        let ratings: Vec<RatingRecord> = changes.iter().map(|change| change.after).collect();
        if ratings.is_empty() { String::new() } else { said(record, &ratings) }
    }
}

/// ` Ratings: alice 1662?, bob 1338?.`: the players of `record` with `ratings`, each
/// rating naming its player.
fn said(record: &GameRecord, ratings: &[RatingRecord]) -> String {
    let parts: Vec<String> =
        ratings.iter().map(|rating| format!("{} {}", text::name(record.name_of(rating.user)), shown(rating))).collect();
    format!(" Ratings: {}.", parts.join(", "))
}
