//! Stonemate's own player inside the service: who it is ([`BotPlayer`]), when it is asked
//! something (after every write, at start-up, on every tick), and how its answer is
//! applied: through the very commands a player would use, so its turns get the same
//! checks, the same durable write and the same notices.
//!
//! The service never searches: it hands a [`Job`] to whatever the host gave it (the
//! worker pool of [`crate::opponent`] on Discord, a queue the console answers between two
//! lines) and applies the [`Answer`] when the host feeds it back
//! ([`Service::apply_answer`]). Nothing about a pending question is stored: the record
//! says whether the bot is to move or has a draw offer to answer, so a restart (or a lost
//! job) simply asks again, with the same seed.

use std::fmt;

use stonemate_ai::{Level, Question};

use super::Service;
use super::error::Refusal;
use super::picture::Loaded;
use super::types::{Caller, GameId, Notice, User, UserId};
use crate::opponent::{Answer, Job, Reply};
use crate::store::Phase;

/// Where the service sends the bot's questions; it must return at once.
pub type Submit = Box<dyn Fn(Job<GameId>) + Send + Sync>;

/// The bot as a player: its user, and where its questions go.
pub struct BotPlayer {
    pub user: User,
    submit: Submit,
}

impl fmt::Debug for BotPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BotPlayer").field("user", &self.user).finish_non_exhaustive()
    }
}

/// The seed of the bot's search at a position: a function of the game and the turn
/// count only, so that a restart (or a resubmitted job) thinks the same thoughts.
#[must_use]
pub fn seed(game: GameId, turn_count: usize) -> u64 {
    // Two different odd multipliers keep (game, turns) pairs apart.
    u64::from(game.0).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (turn_count as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
}

impl Service {
    /// Lets Stonemate's own player take part as `user`: challenging it starts a game at
    /// once, and whenever it is to move (or has a draw offer to answer) a [`Job`] goes to
    /// `submit`. Games already waiting for it are asked about at once (a restart resumes
    /// them).
    #[must_use]
    pub fn with_bot(mut self, user: User, submit: impl Fn(Job<GameId>) + Send + Sync + 'static) -> Service {
        self.bot = Some(BotPlayer { user, submit: Box::new(submit) });
        self.resume_bot();
        self
    }

    /// The bot's user, if it plays.
    #[must_use]
    pub fn bot_user(&self) -> Option<&User> {
        self.bot.as_ref().map(|bot| &bot.user)
    }

    /// Whether `user` is Stonemate's own player.
    pub(super) fn is_bot(&self, user: UserId) -> bool {
        self.bot.as_ref().is_some_and(|bot| bot.user.id == user)
    }

    /// Whether the bot is to move in `game` (its turns have no clock).
    pub(super) fn bot_to_move(&self, game: &Loaded) -> bool {
        game.mover().is_some_and(|user| self.is_bot(user))
    }

    /// Submits a job for every active game where the bot is to move or has a draw offer to
    /// answer. Submitting what is already pending is harmless (the pool merges it; the
    /// answer to a question asked twice is applied once, the second finding the game
    /// moved on).
    pub fn resume_bot(&self) {
        let Some(bot) = &self.bot else { return };
        let games = match self.store.games_of(bot.user.id) {
            Ok(games) => games,
            Err(error) => {
                tracing::warn!(%error, "cannot list the bot's games");
                return;
            }
        };
        for (id, phase) in games {
            if phase == Phase::Playing
                && let Ok(game) = self.load(id).and_then(|record| self.loaded(record))
            {
                self.ask_bot(&game);
            }
        }
    }

    /// Asks the bot what `game` needs from it now, if anything: its turn, or its answer to
    /// a draw offer. Called after every write of a game.
    pub(super) fn ask_bot(&self, game: &Loaded) {
        let Some(bot) = &self.bot else { return };
        let record = &game.record;
        if record.phase != Phase::Playing {
            return;
        }
        let Some(side) = record.side_of(bot.user.id) else { return };
        let level = record.level.unwrap_or(Level::Medium);
        let job = |question| {
            let mut job = Job::new(
                record.id,
                record.game,
                record.options.clone(),
                record.turns.clone(),
                question,
                level,
                seed(record.id, record.turns.len()),
            );
            if let Some(budget) = self.settings.bot_budget {
                job.budget = budget;
            }
            job
        };
        if record.draw_offer == Some(side.other()) {
            (bot.submit)(job(Question::DrawOffer { bot: side }));
        }
        if game.to_move() == Some(side) {
            (bot.submit)(job(Question::Turn));
        }
    }

    /// Applies the bot's answer exactly as if it had sent the command: a turn as `/move`,
    /// a resignation as the Resign button, a draw answer as the draw buttons. Returns the
    /// messages it put in the outbox with its change: the announcement in the game's
    /// channel (with the board), then the notices the command makes. An answer to a position the game has left (or to a game
    /// that is over) is dropped; a refused or failed answer is logged and the game left as
    /// it is (the next tick asks again).
    pub fn apply_answer(&self, answer: Answer<GameId>) -> Vec<Notice> {
        let Some(bot) = &self.bot else { return Vec::new() };
        let id = answer.game;
        let reply = match answer.reply {
            Ok(reply) => reply,
            Err(error) => {
                tracing::warn!(game = %id, %error, "the bot has no answer");
                return Vec::new();
            }
        };
        let result = Self::retry(|| {
            let record = self.load(id)?;
            if record.phase != Phase::Playing || record.turns.len() != answer.turn_count {
                return Err(Refusal::Stale);
            }
            let caller = Caller::new(bot.user.clone(), record.channel, record.guild);
            match &reply {
                Reply::Play(turn) => self.turn(&caller, Some(id), turn),
                Reply::Resign => self.resign(&caller, id),
                Reply::AcceptDraw => self.answer_draw(&caller, id, true),
                Reply::DeclineDraw => self.answer_draw(&caller, id, false),
            }
        });
        match result {
            // The announcement and the notices were written with the bot's change.
            Ok(response) => response.notices,
            Err(Refusal::Stale) => Vec::new(),
            Err(refusal) => {
                tracing::warn!(game = %id, ?reply, %refusal, "the bot's answer was refused");
                Vec::new()
            }
        }
    }
}
