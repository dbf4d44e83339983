//! The [`Service`] itself: what the hosts (Discord, the console, tests) call. It hands
//! what comes in to the handlers (`handlers/`) with the [`Parts`] they work with, and
//! makes every refusal the private reply that tells it.

use std::sync::Arc;

use super::commands::{self, Command};
use super::handlers;
use super::notices::{Delivery, Outgoing};
use super::parts::{Parts, retry};
use super::seat::BotPlayer;
use super::settings::Settings;
use super::types::{Caller, Choice, Field, GameId, Notice, Response, User, UserId};
use super::{clocks, games, notices, pictures, ratings, seat, users};
use crate::clock::{Clock, Timestamp};
use crate::store::{FailStop, Store, Tournaments};

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

impl Service {
    /// A service over `store`, on `clock`'s time.
    pub fn new(store: impl Into<Store>, clock: Arc<dyn Clock>, settings: Settings) -> Service {
        let fail_stop = Arc::new(FailStop::new(store.into().backend().clone()));
        let store = Store::from(fail_stop.clone());
        // One pictures part for replies and deliveries, so that they share what was drawn.
        let pictures = pictures::Pictures::new(settings.render, settings.animate);
        let parts = Parts {
            games: games::Games::new(store.clone(), clock.clone(), settings.cached_positions),
            notices: notices::Notices::new(
                store.clone(),
                clock.clone(),
                settings.notices,
                pictures.clone(),
                handlers::tournament::standings_notice,
            ),
            clocks: clocks::Clocks::new(clock, &settings),
            ratings: ratings::Ratings::new(store.clone()),
            seat: seat::Seat::new(settings.bot_budget),
            users: users::Users::new(store.clone()),
            pictures,
            settings,
            tournaments: Tournaments::of(&store),
            after_end: handlers::tournament::progress::game_ended,
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
        let mut response = self.parts.finish(caller, retry(|| command.clone().run(&self.parts, caller)));
        // As the command is declared, whatever its handler made.
        response.reply.private |= command.is_private();
        self.parts.notices.with_report(caller, response)
    }

    /// Handles a command as its options came in (the console, Discord): `spec` makes the
    /// typed command of `args`, or refuses a bad value as the service would refuse it.
    pub fn handle_args(&self, caller: &Caller, spec: &commands::Spec, args: &commands::Args) -> Response {
        match spec.command(args) {
            Ok(command) => self.handle(caller, command),
            Err(refusal) => self.parts.refused(caller, refusal.into()),
        }
    }

    /// Handles a button press: `custom_id` as the service made it (`accept:12`,
    /// `decline:12`, `resign:7`, `draw-accept:7`, `draw-decline:7`, `rematch:7`,
    /// `history-back:7:4`). Ids the service did not make are refused.
    pub fn press(&self, caller: &Caller, custom_id: &str) -> Response {
        let response = self.parts.finish(caller, retry(|| handlers::press(&self.parts, caller, custom_id)));
        self.parts.notices.with_report(caller, response)
    }

    /// Handles a choice in a select menu: `custom_id` as the service made it (a turn
    /// picker's step, `pick:7:12:R.e`) and the value chosen. Ids the service did not make
    /// are refused.
    pub fn select(&self, caller: &Caller, custom_id: &str, value: &str) -> Response {
        let response =
            self.parts.finish(caller, retry(|| handlers::choose(&self.parts, caller, custom_id, Some(value))));
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
    /// record's change; the daily digests due (each written with its player's record);
    /// and asks the bot again in every game where it is to move (its turns have no clock,
    /// so it is never reminded nor timed out). Returns the notices it wrote; they are sent
    /// with the others ([`Service::deliver`]). Call it every minute or so; it reads the
    /// deadline index, so nothing is lost across restarts.
    pub fn tick(&self) -> Vec<Notice> {
        let mut notices = handlers::due::due_notices(&self.parts);
        notices.extend(handlers::digest::due_digests(&self.parts));
        // Tournaments that start by themselves now, and rounds due (also after a restart).
        handlers::tournament::progress::due(&self.parts);
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
    pub fn deliver(&self, send: impl FnMut(&Outgoing) -> Delivery) -> Vec<Notice> {
        self.parts.notices.deliver(send)
    }
}
