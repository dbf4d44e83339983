//! The seat part: Stonemate's own player inside the service: who it is ([`BotPlayer`]), when it is asked
//! something (after every write, at start-up, on every tick), and how its answer is
//! applied: through the very commands a player would use, so its turns get the same
//! checks, the same durable write and the same notices.
//!
//! The service never searches: it hands a [`Job`] to whatever the host gave it (the
//! worker pool of [`crate::ai_pool`] on Discord, a queue the console answers between two
//! lines) and applies the [`Answer`] when the host feeds it back
//! ([`Service::apply_answer`](super::Service::apply_answer)). Nothing about a pending question is stored: the record
//! says whether the bot is to move or has a draw offer to answer, so a restart (or a lost
//! job) simply asks again, with the same seed.

use std::fmt;

use stonemate_ai::{Level, Question};

use super::loaded::Loaded;
use super::types::{Budget, GameId, User, UserId};
use crate::ai_pool::Job;
use crate::store::Phase;

/// Where the service sends the bot's questions; it must return at once.
pub type Submit = Box<dyn Fn(Job<GameId>) + Send + Sync>;

/// The bot as a player: its user, and where its questions go.
pub struct BotPlayer {
    /// Stonemate's own user, as it plays.
    pub user: User,
    submit: Submit,
}

impl BotPlayer {
    /// The bot playing as `user`, its questions going to `submit`.
    #[must_use]
    pub fn new(user: User, submit: Submit) -> BotPlayer {
        BotPlayer { user, submit }
    }
}

impl fmt::Debug for BotPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BotPlayer").field("user", &self.user).finish_non_exhaustive()
    }
}

/// The seed of the bot's search at a position: a function of the game and the turn
/// count only, so that a restart (or a resubmitted job) thinks the same thoughts.
#[must_use]
pub fn seed(id: GameId, turn_count: usize) -> u64 {
    // Two different odd multipliers keep (game, turns) pairs apart.
    u64::from(id.0).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (turn_count as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
}

/// The seat part: whether the bot plays, as whom, and what it is asked.
#[derive(Debug)]
pub struct Seat {
    bot: Option<BotPlayer>,
    /// How long the bot searches each turn (`None`: its level's own budget).
    budget: Option<Budget>,
}

impl Seat {
    pub fn new(budget: Option<Budget>) -> Seat {
        Seat { bot: None, budget }
    }

    /// Lets the bot take this seat.
    pub fn take(&mut self, bot: BotPlayer) {
        self.bot = Some(bot);
    }

    /// The bot's user, if it plays.
    pub fn user(&self) -> Option<&User> {
        self.bot.as_ref().map(|bot| &bot.user)
    }

    /// Whether `user` is Stonemate's own player.
    pub fn is_bot(&self, user: UserId) -> bool {
        self.bot.as_ref().is_some_and(|bot| bot.user.id == user)
    }

    /// Whether the bot is to move in `game` (its turns have no clock).
    pub fn to_move(&self, game: &Loaded) -> bool {
        game.mover().is_some_and(|user| self.is_bot(user))
    }

    /// Asks the bot what `game` needs from it now, if anything: its turn, its answer to a
    /// draw offer, or its judgement of the dead pieces while a proposal waits for it.
    /// Called after every write of a game.
    pub fn ask(&self, game: &Loaded) {
        let Some(bot) = &self.bot else { return };
        let record = &game.record;
        if record.phase != Phase::Playing {
            return;
        }
        let Some(side) = record.seats.side_of(bot.user.id) else { return };
        let level = record.level().unwrap_or(Level::Medium);
        let job = |question| {
            let mut job = Job::new(
                record.id,
                record.kind,
                record.options.clone(),
                record.turns.clone(),
                question,
                level,
                seed(record.id, record.turns.len()),
            );
            if let Some(budget) = self.budget {
                job.budget = budget;
            }
            job
        };
        if let Some(counting) = record.pending.counting.as_ref().filter(|_| game.position.is_counting()) {
            // Counting dead pieces (go, rule 10): no turn is asked until play resumes.
            if counting.by != Some(side) {
                (bot.submit)(job(Question::Counting { bot: side }));
            }
            return;
        }
        if record.pending.draw_offer == Some(side.other()) {
            (bot.submit)(job(Question::DrawOffer { bot: side }));
        }
        if game.to_move() == Some(side) {
            (bot.submit)(job(Question::Turn));
        }
    }
}
