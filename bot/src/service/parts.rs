//! The parts of the service ([`Parts`]), each owning its state behind a few methods, and
//! the steps every command shares: a change committed with its notices, a refusal made
//! into the private reply that tells it, and a command run again when it lost a race.

use super::error::{BoardOf, Failure};
use super::loaded::Loaded;
use super::settings::Settings;
use super::types::{Caller, Notice, Reply, Response};
use super::{clocks, games, notices, pictures, ratings, seat, users};
use crate::store::{GameRecord, Phase, RatingChange, Tournaments};

/// The parts of the service, each owning its state behind a few methods; a command
/// handler is a function of its typed arguments and of these.
#[derive(Debug)]
pub(crate) struct Parts {
    /// Records and positions: open a game, commit a change.
    pub(crate) games: games::Games,
    /// The outbox: claim, settle, deliver what the commits queued.
    pub(crate) notices: notices::Notices,
    /// The service's time, deadlines, reminders and vacations.
    pub(crate) clocks: clocks::Clocks,
    pub(crate) ratings: ratings::Ratings,
    /// Stonemate's own player, when the host lets it play ([`Service::with_bot`](crate::service::Service::with_bot)).
    pub(crate) seat: seat::Seat,
    /// Display names and notification settings.
    pub(crate) users: users::Users,
    /// Board pictures and the animated replay.
    pub(crate) pictures: pictures::Pictures,
    /// The limits of challenges and games.
    pub(crate) settings: Settings,
    /// The tournaments kept beside the games.
    pub(crate) tournaments: Tournaments,
    /// What a game's write does once the game has ended: its tournament records the
    /// result (set by the service to the tournaments' hook, which itself writes games
    /// through here, so it is held as a function rather than named).
    pub(crate) after_end: fn(&Parts, &GameRecord),
}

impl Parts {
    /// Writes the next version of `game`'s record with the notices `notices` makes from
    /// it, all in one transaction ([`games::Games::commit`]: version check, ratings,
    /// indexes, notices), then asks the bot if the game now waits for it: the rating
    /// changes are found for the new record ([`ratings::Ratings::changes`]).
    pub(crate) fn commit(
        &self,
        game: Loaded,
        change: impl FnOnce(&mut GameRecord),
        notices: impl FnOnce(&Loaded) -> Vec<Notice>,
    ) -> Result<games::Written, Failure> {
        let rated = |next: &GameRecord, was_over| self.ratings.changes(was_over, next, &self.seat);
        self.commit_rated(game, change, rated, notices)
    }

    /// [`Parts::commit`] with the rating changes `rated` gives (from the new record and
    /// whether the old one was over): a caller that already found them and told them in
    /// its notices passes those very changes, so that they are written (the store still
    /// refuses them if a rating moved since it was read), not found a second time. Every
    /// change to a game goes through here.
    pub(crate) fn commit_rated(
        &self,
        game: Loaded,
        change: impl FnOnce(&mut GameRecord),
        rated: impl FnOnce(&GameRecord, bool) -> Result<Vec<RatingChange>, Failure>,
        notices: impl FnOnce(&Loaded) -> Vec<Notice>,
    ) -> Result<games::Written, Failure> {
        let was_over = game.record.phase == Phase::Finished;
        let written = self.games.commit(game, change, rated, notices)?;
        self.seat.ask(&written.game);
        if !was_over && written.game.record.phase == Phase::Finished {
            (self.after_end)(self, &written.game.record);
        }
        Ok(written)
    }

    /// Commits `change` and answers with what `respond` makes of the new version; its
    /// notices are written with the change. When the bot is the caller, its reply is
    /// announced in the game's channel, as the first of those notices.
    pub(crate) fn respond(
        &self,
        caller: &Caller,
        game: Loaded,
        change: impl FnOnce(&mut GameRecord),
        respond: impl FnOnce(&Loaded) -> Response,
    ) -> Result<Response, Failure> {
        let mut reply = None;
        let written = self.commit(game, change, |game| {
            let Response { reply: said, mut notices } = respond(game);
            if self.seat.is_bot(caller.user.id) {
                notices.insert(0, notices::announcement(game, &said));
            }
            reply = Some(said);
            notices
        })?;
        let mut reply = reply.unwrap_or_default();
        // After the write, so that the new ratings are the stored ones.
        self.ratings.mark_over(&written.game.record, &mut reply);
        Ok(Response { reply, notices: written.notices })
    }

    /// The private reply that tells `failure` to `caller`, with the board it is about
    /// drawn as he sees it (when the game still opens).
    pub(crate) fn refused(&self, caller: &Caller, failure: Failure) -> Response {
        let text = failure.to_string();
        let board = match failure {
            Failure::Refused { board, .. } => board,
            Failure::Conflict | Failure::Stale => None,
        };
        let drawn = board.and_then(|BoardOf { id, marked }| {
            let game = self.games.load(id).and_then(|record| self.games.loaded(record)).ok()?;
            Some((id, self.pictures.marked_board(&game, Some(caller.user.id), marked)))
        });
        let (about, images) = drawn.map_or((None, Vec::new()), |(id, board)| (Some(id), vec![board]));
        let reply = Reply { ok: false, message: text.into(), private: true, images, about, ..Reply::default() };
        Response { reply, notices: Vec::new() }
    }

    /// The response to a command's `result`: its answer, or the reply that tells why not.
    pub(crate) fn finish(&self, caller: &Caller, result: Result<Response, Failure>) -> Response {
        result.unwrap_or_else(|failure| self.refused(caller, failure))
    }
}

/// Runs a command (or one write of it) again when it lost a race for a record: each run
/// reads the record afresh, so the second is checked against what the winner wrote.
pub(crate) fn retry<T>(mut run: impl FnMut() -> Result<T, Failure>) -> Result<T, Failure> {
    let mut result = run();
    for _ in 1..RETRIES {
        if !matches!(result, Err(Failure::Conflict)) {
            break;
        }
        result = run();
    }
    result
}

/// How often a command runs at most when it keeps losing races for its record.
const RETRIES: usize = 16;
