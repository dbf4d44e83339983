//! The game service: Stonemate without Discord. Commands come in ([`Command`], from a
//! [`Caller`]), replies go out ([`Response`]: the [`Reply`] to the caller and the
//! [`Notice`]s the bot sends besides); [`Service::tick`] sends reminders, timeouts and
//! challenge expiries on its own.
//!
//! The service is synchronous and `Send + Sync`: share it in an `Arc` and call it from
//! blocking threads (it renders PNGs and flushes the database). Everything it knows is in
//! the [`Store`]; positions are rebuilt from the stored turns (and cached), so a
//! restart loses nothing. Two commands racing on one game apply at most one: every write
//! is a compare-and-swap on the record's version, and the loser is checked again against
//! the new state.
//!
//! Every game belongs to the server it was started in ([`Caller::guild`]): a command from
//! another server finds it nowhere, as if its id did not exist.
//!
//! Replies and notices are [`Message`]s: text, users' names and pings as separate
//! segments, so that no name can format a message or mention anyone ([`text`]) and whom
//! to ping is a user id, rendered by each adapter ([`message`]). Refusals are private, change nothing, and carry the board
//! where there is one.

mod buttons;
mod clocks;
pub mod commands;
mod error;
mod games;
mod handlers;
mod limits;
mod loaded;
pub mod message;
mod notices;
pub mod options;
mod pictures;
pub mod ratings;
pub mod rules;
mod seat;
mod table;
mod tell;
pub mod text;
mod types;
mod users;

use std::sync::Arc;

pub use buttons::{Action, PickPath, PickPress, Step};
pub use commands::Command;
pub use error::Refusal;
pub use loaded::Loaded;
pub use message::Segment;
pub use notices::{Delivery, Outgoing, Timing as NoticeTiming, channel_refused};
pub use seat::{BotPlayer, Submit, seed};
pub use types::{
    Attachment, Budget, Button, ButtonStyle, Caller, ChannelId, Choice, ColorChoice, Drawing, Field, GameId,
    GameStatus, GuildId, Level, Message, Notice, NotifyMode, Reply, Response, Select, SelectOption, Target, User,
    UserId,
};

use crate::clock::{Clock, DeadlineStyle, Span, Timestamp};
use crate::store::{self as store_types, FailStop, Store, StoreError};

/// Limits and defaults.
#[derive(Debug, Clone)]
pub struct Settings {
    /// How long a challenge waits for an answer.
    pub challenge_expiry: Span,
    /// Days per move when a challenge names none.
    pub default_days: u8,
    /// Challenges one user may have sent that wait for an answer (received ones do not
    /// count: nobody can be blocked by a flood of challenges).
    pub max_pending_challenges: usize,
    /// Challenges one user may have waiting for the answer of one opponent.
    pub max_challenges_per_opponent: usize,
    /// Games one user may be playing at once.
    pub max_active_games: usize,
    /// Positions kept replayed in memory.
    pub cached_positions: usize,
    /// Draws board pictures (the renderer's PNG; benchmarks swap it to measure the rest).
    pub render: fn(&stonemate_render::Picture) -> Vec<u8>,
    /// Draws the animated replay of `/history` (a GIF).
    pub animate: fn(&[stonemate_render::Picture]) -> Vec<u8>,
    /// How long the bot searches each turn: `None` for its level's own budget; tests and
    /// tournaments set a small node budget.
    pub bot_budget: Option<Budget>,
    /// How deadlines are written: Discord timestamps on Discord, UTC in the console.
    pub deadlines: DeadlineStyle,
    /// When the player to move is reminded, as time left before the deadline (each once
    /// per turn; points as long as the whole turn or longer are skipped).
    pub reminders: Vec<Span>,
    /// Days of `/vacation` each player may take per calendar year (UTC).
    pub vacation_days_per_year: u16,
    /// When failed notices are retried ([`NoticeTiming`]).
    pub notices: NoticeTiming,
    /// What happens when a player's time for a turn runs out ([`Timeouts`]).
    pub timeouts: Timeouts,
}

/// What happens when the player to move lets his time run out (config `timeouts`,
/// console `--timeouts`).
/// Either way, a game in which a player has not yet played a turn of his own is aborted
/// then, without result and unrated: nobody loses a game he never began.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Timeouts {
    /// He loses at once, and both players are told (as correspondence sites do).
    #[default]
    Automatic,
    /// The waiting player is told, and may `/claim` the win (or give more time).
    Claim,
}

impl std::str::FromStr for Timeouts {
    type Err = String;

    /// `automatic` or `claim`, as the config and the console's `--timeouts` write them.
    fn from_str(text: &str) -> Result<Timeouts, String> {
        match text {
            "automatic" => Ok(Timeouts::Automatic),
            "claim" => Ok(Timeouts::Claim),
            other => Err(format!("`{}` is not a timeouts mode: write automatic or claim", text::short(other))),
        }
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            challenge_expiry: Span::days(7),
            default_days: 3,
            max_pending_challenges: 20,
            max_challenges_per_opponent: 3,
            max_active_games: 30,
            cached_positions: 512,
            render: stonemate_render::png,
            animate: stonemate_render::animation,
            bot_budget: None,
            deadlines: DeadlineStyle::default(),
            reminders: vec![Span::days(1), Span::HOUR],
            vacation_days_per_year: 30,
            notices: NoticeTiming::default(),
            timeouts: Timeouts::default(),
        }
    }
}

/// The game service. See the module documentation. It only hands what comes in to the
/// handlers (`service/handlers/`) with the parts they work with.
#[derive(Debug)]
pub struct Service {
    /// Over a [`FailStop`] (also `fail_stop`): stops for good at the first storage failure.
    store: Store,
    /// The same failure switch, to ask whether it tripped.
    fail_stop: Arc<FailStop>,
    parts: Parts,
}

/// The parts of the service, each owning its state behind a few methods; a command
/// handler is a function of its typed arguments and of these.
#[derive(Debug)]
struct Parts {
    /// Records and positions: open a game, commit a change.
    games: games::Games,
    /// The outbox: claim, settle, deliver what the commits queued.
    notices: notices::Notices,
    /// The service's time, deadlines, reminders and vacations.
    clocks: clocks::Clocks,
    ratings: ratings::Ratings,
    /// Stonemate's own player, when the host lets it play ([`Service::with_bot`]).
    seat: seat::Seat,
    /// Display names and notification settings.
    users: users::Users,
    /// Board pictures and the animated replay.
    pictures: pictures::Pictures,
    /// The limits of challenges and games.
    settings: Settings,
}

impl Parts {
    /// Writes the next version of `game`'s record with the notices `notices` makes from
    /// it, all in one transaction ([`games::Games::commit`]: version check, ratings,
    /// indexes, notices), then asks the bot if the game now waits for it: the rating
    /// changes are found for the new record ([`ratings::Ratings::changes`]).
    fn commit(
        &self,
        game: Loaded,
        change: impl FnOnce(&mut store_types::GameRecord),
        notices: impl FnOnce(&Loaded) -> Vec<Notice>,
    ) -> Result<games::Written, Refusal> {
        let rated = |next: &store_types::GameRecord, was_over| self.ratings.changes(was_over, next, &self.seat);
        self.commit_rated(game, change, rated, notices)
    }

    /// [`Parts::commit`] with the rating changes `rated` gives (from the new record and
    /// whether the old one was over): a caller that already found them and told them in
    /// its notices passes those very changes, so that they are written (the store still
    /// refuses them if a rating moved since it was read), not found a second time. Every
    /// change to a game goes through here.
    fn commit_rated(
        &self,
        game: Loaded,
        change: impl FnOnce(&mut store_types::GameRecord),
        rated: impl FnOnce(&store_types::GameRecord, bool) -> Result<Vec<store_types::RatingChange>, Refusal>,
        notices: impl FnOnce(&Loaded) -> Vec<Notice>,
    ) -> Result<games::Written, Refusal> {
        let written = self.games.commit(game, change, rated, notices)?;
        self.seat.ask(&written.game);
        Ok(written)
    }

    /// Commits `change` and answers with what `respond` makes of the new version; its
    /// notices are written with the change. When the bot is the caller, its reply is
    /// announced in the game's channel, as the first of those notices.
    fn respond(
        &self,
        caller: &Caller,
        game: Loaded,
        change: impl FnOnce(&mut store_types::GameRecord),
        respond: impl FnOnce(&Loaded) -> Response,
    ) -> Result<Response, Refusal> {
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
        handlers::community::mark_over(&self.ratings, &written.game.record, &mut reply);
        Ok(Response { reply, notices: written.notices })
    }
}

impl Service {
    /// A service over `store`, on `clock`'s time.
    pub fn new(store: impl Into<Store>, clock: Arc<dyn Clock>, settings: Settings) -> Service {
        let fail_stop = Arc::new(FailStop::new(store.into().backend().clone()));
        let store = Store::from(fail_stop.clone());
        // One pictures part for replies and deliveries, so that they share what was drawn.
        let pictures = pictures::Pictures::new(settings.render, settings.animate);
        let parts = Parts {
            games: games::Games::new(store.clone(), clock.clone(), settings.cached_positions),
            notices: notices::Notices::new(store.clone(), clock.clone(), settings.notices, pictures.clone()),
            clocks: clocks::Clocks::new(clock, &settings),
            ratings: ratings::Ratings::new(store.clone()),
            seat: seat::Seat::new(settings.bot_budget),
            users: users::Users::new(store.clone()),
            pictures,
            settings,
        };
        Service { store, fail_stop, parts }
    }

    /// The storage failure that stopped the service, if one did: from then on it refuses
    /// every command and serves nothing, and the process must exit (non-zero, after the
    /// reply in hand) so that its supervisor restarts it from what is on disk.
    pub fn stopped(&self) -> Option<&str> {
        self.fail_stop.failure()
    }

    /// Handles one command. Never panics on user input; refusals come back as private
    /// replies with `ok == false`.
    pub fn handle(&self, caller: &Caller, command: Command) -> Response {
        let mut response = finish(retry(|| command.clone().run(&self.parts, caller)));
        // As the command is declared, whatever its handler made.
        response.reply.private |= command.is_private();
        self.parts.notices.with_report(caller, response)
    }

    /// Handles a command as its options came in (the console, Discord): `spec` makes the
    /// typed command of `args`, or refuses a bad value as the service would refuse it.
    pub fn handle_args(&self, caller: &Caller, spec: &commands::Spec, args: &commands::Args) -> Response {
        match spec.command(args) {
            Ok(command) => self.handle(caller, command),
            Err(refusal) => refusal.into_response(),
        }
    }

    /// Handles a button press: `custom_id` as the service made it (`accept:12`,
    /// `decline:12`, `resign:7`, `draw-accept:7`, `draw-decline:7`, `rematch:7`,
    /// `history-back:7:4`). Ids the service did not make are refused.
    pub fn press(&self, caller: &Caller, custom_id: &str) -> Response {
        let response = finish(retry(|| handlers::press(&self.parts, caller, custom_id)));
        self.parts.notices.with_report(caller, response)
    }

    /// Handles a choice in a select menu: `custom_id` as the service made it (a turn
    /// picker's step, `pick:7:12:R.e`) and the value chosen. Ids the service did not make
    /// are refused.
    pub fn select(&self, caller: &Caller, custom_id: &str, value: &str) -> Response {
        let response = finish(retry(|| handlers::choose(&self.parts, caller, custom_id, Some(value))));
        self.parts.notices.with_report(caller, response)
    }

    /// Suggestions for an option being typed: at most 25, filtered by `typed`. `named` is
    /// the `game` option typed so far in the same command (for [`Field::Notation`] and
    /// [`Field::Square`]). Errors give no suggestions.
    pub fn autocomplete(&self, caller: &Caller, field: Field, typed: &str, named: Option<&str>) -> Vec<Choice> {
        handlers::complete::choices(&self.parts.games, caller, field, typed, named).unwrap_or_default()
    }

    /// Puts in the outbox what is due by now: reminders (at [`Settings::reminders`] before
    /// the deadline), timeouts (as [`Settings::timeouts`] says: the player loses at once,
    /// or the waiting player may `/claim`; in a game against the bot, the bot wins at once;
    /// a game a player never began is aborted), expired challenges, each written with its
    /// record's change;
    /// and asks the bot again in every game where it is to move (its turns have no clock,
    /// so it is never reminded nor timed out). Returns the notices it wrote; they are sent
    /// with the others ([`Service::deliver`]). Call it every minute or so; it reads the
    /// deadline index, so nothing is lost across restarts.
    pub fn tick(&self) -> Vec<Notice> {
        let notices = handlers::due::due_notices(&self.parts);
        // A job lost on the way (a crash, a full pool) is asked again.
        self.resume_bot();
        notices
    }

    /// The display name last stored for a user.
    pub fn user_name(&self, user: UserId) -> Option<String> {
        self.parts.users.name(user)
    }

    /// The store, for tools and tests (dumps, backups).
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The service's time.
    pub fn now(&self) -> Timestamp {
        self.parts.clocks.now()
    }

    /// Lets Stonemate's own player take part as `user`: challenging it starts a game at
    /// once, and whenever it is to move (or has a draw offer to answer) a job goes to
    /// `submit`. Games already waiting for it are asked about at once (a restart resumes
    /// them).
    #[must_use]
    pub fn with_bot(
        mut self,
        user: User,
        submit: impl Fn(crate::ai_pool::Job<GameId>) + Send + Sync + 'static,
    ) -> Service {
        self.parts.seat.take(BotPlayer::new(user, Box::new(submit)));
        self.resume_bot();
        self
    }

    /// The bot's user, if it plays.
    #[must_use]
    pub fn bot_user(&self) -> Option<&User> {
        self.parts.seat.user()
    }

    /// Submits a job for every active game where the bot is to move or has a draw offer to
    /// answer. Submitting what is already pending is harmless (the pool merges it; the
    /// answer to a question asked twice is applied once, the second finding the game
    /// moved on).
    pub fn resume_bot(&self) {
        handlers::seat::resume(&self.parts);
    }

    /// Applies the bot's answer exactly as if it had sent the command: a turn as `/move`,
    /// a resignation as the Resign button, a draw answer as the draw buttons. Returns the
    /// messages it put in the outbox with its change: the announcement in the game's
    /// channel (with the board), then the notices the command makes. An answer to a
    /// position the game has left (or to a game that is over) is dropped; a refused or
    /// failed answer is logged and the game left as it is (the next tick asks again).
    pub fn apply_answer(&self, answer: crate::ai_pool::Answer<GameId>) -> Vec<Notice> {
        handlers::seat::apply(&self.parts, answer)
    }

    /// Takes the notices due now for sending, oldest first, each for one lease. A store
    /// failure gives none (and stops the service, as every storage failure does).
    pub fn claim_notices(&self) -> Vec<Outgoing> {
        self.parts.notices.claim()
    }

    /// Records how sending `outgoing` went: delivered notices leave the outbox, failed
    /// ones wait for their next attempt, a refused direct message goes to the channel.
    pub fn settle(&self, outgoing: Outgoing, delivery: Delivery) {
        self.parts.notices.settle(outgoing, delivery);
    }

    /// Sends every notice due now with `send`, in order, and settles each; notices moved
    /// to the channel are sent in the same call. Returns the notices delivered.
    pub fn deliver(&self, send: impl FnMut(&Notice) -> Delivery) -> Vec<Notice> {
        self.parts.notices.deliver(send)
    }
}

/// Runs a command (or one write of it) again when it lost a race for a record: each run
/// reads the record afresh, so the second is checked against what the winner wrote.
fn retry<T>(mut run: impl FnMut() -> Result<T, Refusal>) -> Result<T, Refusal> {
    let mut result = run();
    for _ in 1..RETRIES {
        if !matches!(result, Err(Refusal::Conflict)) {
            break;
        }
        result = run();
    }
    result
}

fn finish(result: Result<Response, Refusal>) -> Response {
    result.unwrap_or_else(Refusal::into_response)
}

/// How often a command runs at most when it keeps losing races for its record.
const RETRIES: usize = 16;

impl From<StoreError> for Refusal {
    fn from(error: StoreError) -> Refusal {
        match error {
            StoreError::Conflict => Refusal::Conflict,
            StoreError::Missing(id) => Refusal::NoSuchGame(id),
            // The log has the details ([`FailStop`] logs storage failures); players get
            // no library's text.
            StoreError::Unsure(_) => Refusal::OutcomeUnknown,
            StoreError::Stopped
            | StoreError::Database(_)
            | StoreError::Unreachable(_)
            | StoreError::Damaged(_)
            | StoreError::InUse(_)
            | StoreError::NotEmpty => Refusal::StorageUnavailable,
            StoreError::Corrupt(detail) => {
                tracing::error!(error = %detail, "a stored record cannot be read");
                Refusal::StorageUnavailable
            }
        }
    }
}
