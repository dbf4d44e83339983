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
//! Replies name users by their display names, escaped so that no name can format a
//! message or mention anyone ([`text`]); `mentions` lists, as ids, whom to ping (`@bob`
//! in the text marks where). Refusals are private, change nothing, and carry the board
//! where there is one.

mod bot_player;
mod challenge;
pub mod commands;
mod community;
mod complete;
mod ending;
mod error;
pub mod help;
mod history;
mod lookup;
mod notify;
mod outbox;
mod picture;
mod play;
pub mod ratings;
pub mod rules;
pub mod text;
mod time;
mod types;
mod views;

use std::sync::Arc;

pub use bot_player::{BotPlayer, Submit, seed};
use challenge::Terms;
pub use error::Refusal;
pub use outbox::{CHANNEL_REFUSED, Delivery, Outgoing, Timing as NoticeTiming};
pub use picture::Loaded;
pub use types::{
    Attachment, Budget, Button, ButtonStyle, Caller, ChannelId, Choice, ColorChoice, Command, Field, GameId, GuildId,
    Level, Notice, NotifyMode, Reply, Response, Target, User, UserId,
};

use crate::clock::{Clock, DeadlineStyle, Span, Timestamp};
use crate::store::{FailStop, Store, StoreError};

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
        }
    }
}

/// The game service. See the module documentation.
#[derive(Debug)]
pub struct Service {
    /// Over a [`FailStop`] (also `fail_stop`): stops for good at the first storage failure.
    store: Store,
    fail_stop: Arc<FailStop>,
    clock: Arc<dyn Clock>,
    settings: Settings,
    positions: lookup::PositionCache,
    /// Stonemate's own player, when the host lets it play ([`Service::with_bot`]).
    bot: Option<BotPlayer>,
}

impl Service {
    pub fn new(store: impl Into<Store>, clock: Arc<dyn Clock>, settings: Settings) -> Service {
        let positions = lookup::PositionCache::new(settings.cached_positions);
        let fail_stop = Arc::new(FailStop::new(store.into().backend().clone()));
        Service { store: Store::from(fail_stop.clone()), fail_stop, clock, settings, positions, bot: None }
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
        Self::begin_writing();
        let response = Self::finish(Self::retry(|| self.dispatch(caller, command.clone())));
        self.keep_unwritten(&response);
        self.with_report(caller, response)
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
        Self::begin_writing();
        let response = Self::finish(Self::retry(|| self.dispatch_press(caller, custom_id)));
        self.keep_unwritten(&response);
        self.with_report(caller, response)
    }

    /// Suggestions for an option being typed: at most 25, filtered by `typed`. `game` is
    /// the `game` option typed so far in the same command (for [`Field::Notation`] and
    /// [`Field::Square`]). Errors give no suggestions.
    pub fn autocomplete(&self, caller: &Caller, field: Field, typed: &str, game: Option<&str>) -> Vec<Choice> {
        self.choices(caller, field, typed, game).unwrap_or_default()
    }

    /// Puts in the outbox what is due by now: reminders (at [`Settings::reminders`] before
    /// the deadline), timeouts (the waiting player may `/claim`; in a game against the bot,
    /// the bot claims at once), expired challenges, each written with its record's change;
    /// and asks the bot again in every game where it is to move (its turns have no clock,
    /// so it is never reminded nor timed out). Returns the notices it wrote; they are sent
    /// with the others ([`Service::deliver`]). Call it every minute or so; it reads the
    /// deadline index, so nothing is lost across restarts.
    pub fn tick(&self) -> Vec<Notice> {
        let notices = self.due_notices();
        // A job lost on the way (a crash, a full pool) is asked again.
        self.resume_bot();
        notices
    }

    /// The display name last stored for a user.
    pub fn user_name(&self, user: UserId) -> Option<String> {
        self.store.user(user).ok().flatten().map(|record| record.name)
    }

    /// The store, for tools and tests (dumps, backups).
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The service's time.
    pub fn now(&self) -> Timestamp {
        self.clock.now()
    }

    /// Runs a command (or one write of it) again when it lost a race for a record: each run
    /// reads the record afresh, so the second is checked against what the winner wrote.
    pub(super) fn retry<T>(mut run: impl FnMut() -> Result<T, Refusal>) -> Result<T, Refusal> {
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

    fn dispatch(&self, caller: &Caller, command: Command) -> Result<Response, Refusal> {
        match command {
            Command::Challenge { opponent, game, color, days, options, level } => {
                let options = Terms::options(options.as_deref())?;
                self.challenge(caller, Terms { opponent: Some(&opponent), kind: game, color, days, options, level })
            }
            Command::OpenChallenge { game, color, days, options } => {
                let options = Terms::options(options.as_deref())?;
                let level = Level::Medium;
                self.challenge(caller, Terms { opponent: None, kind: game, color, days, options, level })
            }
            Command::Accept { challenge } => self.accept(caller, challenge),
            Command::Decline { challenge } => self.decline(caller, challenge),
            Command::Withdraw { challenge } => self.withdraw(caller, challenge),
            Command::Move { notation, game } => self.turn(caller, game, &notation),
            Command::Drop { piece, square, game } => self.drop(caller, game, &piece, &square),
            Command::Pass { game } => self.turn(caller, game, "pass"),
            Command::Resign { game } => self.ask_resign(caller, game),
            Command::Draw { game } => self.draw(caller, game),
            Command::Abort { game } => self.abort(caller, game),
            Command::Claim { game } => self.claim(caller, game),
            Command::ExtraTime { game, days } => self.extra_time(caller, game, days),
            Command::Board { game } => self.show_board(caller, game),
            Command::History { game } => self.history(caller, game),
            Command::Games { user } => self.games(caller, user.as_ref()),
            Command::Finished { user, page } => self.finished_games(caller, user.as_ref(), page),
            Command::Vacation { days } => self.vacation(caller, days),
            Command::Legal { game, square } => self.legal(caller, game, square.as_deref()),
            Command::Rules { game } => Self::rules(game),
            Command::Notify { mode } => self.set_notify(caller, mode),
            Command::AdminAbort { game } => self.admin_abort(caller, game),
            Command::Help => Ok(help::help()),
            Command::Stats { user, game } => self.stats(caller, user.as_ref(), game),
            Command::Leaderboard { game } => self.leaderboard(caller, game),
        }
    }

    fn dispatch_press(&self, caller: &Caller, custom_id: &str) -> Result<Response, Refusal> {
        let bad = || Refusal::UnknownButton(text::typed(&custom_id.chars().take(100).collect::<String>()));
        let (action, id) = custom_id.split_once(':').ok_or_else(bad)?;
        if let Some(step) = custom_id.strip_prefix(history::PREFIX) {
            let (id, turn) = history::parse(step).ok_or_else(bad)?;
            return self.step_history(caller, id, turn);
        }
        let id = GameId(id.parse::<u32>().map_err(|_| bad())?);
        // Every action below looks the id up in the caller's server only.
        match action {
            "accept" => self.accept(caller, Some(id)),
            "decline" => self.decline(caller, Some(id)),
            "resign" => self.resign(caller, id),
            "draw-accept" => self.answer_draw(caller, id, true),
            "draw-decline" => self.answer_draw(caller, id, false),
            "rematch" => self.rematch(caller, id),
            _ => Err(bad()),
        }
    }
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
            | StoreError::NotEmpty => Refusal::StorageUnavailable,
            StoreError::Corrupt(detail) => {
                tracing::error!(error = %detail, "a stored record cannot be read");
                Refusal::StorageUnavailable
            }
        }
    }
}
