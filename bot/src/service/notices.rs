//! The notices part, the service's side of the outbox: every [`Notice`] a change causes is
//! written in the same store transaction as the change ([`queued`], called by
//! [`Games::commit`](super::games::Games::commit)), then sent by whoever hosts the service
//! (Discord, the console) through [`Notices::claim`] and [`Notices::settle`] (or
//! [`Notices::deliver`] for a synchronous sender), and removed only once it was delivered.
//!
//! A failed send is retried with exponential backoff ([`Timing`]), its next attempt stored
//! so that a restart keeps it; a direct message Discord refuses is sent once more as a ping
//! in the game's channel; a channel the bot may not post in gives up the notice and raises
//! a report, shown once to a player in the next reply about the game.
//!
//! A notice keeps what its board pictures show, not their PNG: the [`Drawing`] of each (the
//! game, how many of its turns, from which side), from which the picture is drawn when
//! the notice is sent. The board is the one of the moment the notice was made, even once
//! the game has moved on: the record is replayed to that turn. A turn writes some 60
//! bytes for a picture instead of kilobytes of base64. Notices stored before keep their
//! PNG and are sent with it, as is a picture that is not one of the record's positions.

use std::collections::HashMap;
use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};

use super::buttons::Action;
use super::loaded::Loaded;
use super::options::keys;
use super::pictures::Pictures;
use super::threads;
use super::types::{
    Attachment, Button, Caller, ChannelId, Drawing, GameId, Message, Notice, Reply, Response, Target, ThreadStep,
    TournamentId, UserId,
};
use crate::clock::{Clock, Span, Timestamp};
use crate::store::{GameRecord, NotifyMode, Phase, Queued, UserRecord};
use crate::store::{Store, StoreError, TournamentRecord, Tournaments};

/// When notices are retried, and how long a sender holds a claimed one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// The wait after the first failure; it doubles with each failure after it...
    pub first_retry: Span,
    /// ... up to this.
    pub last_retry: Span,
    /// How long a claimed notice is kept from other senders (in this process or another):
    /// longer than a send takes, and the wait before a sender that died is replaced.
    pub lease: Span,
}

impl Default for Timing {
    fn default() -> Timing {
        Timing { first_retry: Span(5_000), last_retry: Span::HOUR, lease: Span::MINUTE }
    }
}

impl Timing {
    /// The wait before the next attempt after `failures` failed ones (at least 1).
    #[must_use]
    pub fn backoff(&self, failures: u32) -> Span {
        let doublings = failures.saturating_sub(1).min(40);
        Span(self.first_retry.0.saturating_mul(1_i64 << doublings).min(self.last_retry.0))
    }
}

/// How one attempt to send a notice went, as the sender saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// Discord took the message.
    Sent,
    /// Worth trying again later: a server error, a rate limit, no connection.
    Failed,
    /// The user takes no direct messages from the bot (Discord's 50007, or a 403 on the
    /// DM channel).
    DmClosed,
    /// The bot may not post in the channel (a 403: 50001 Missing Access, 50013 Missing
    /// Permissions).
    ChannelClosed,
    /// Refused for good for another reason (a bad request): given up, logged.
    Rejected,
    /// Discord took the message as a new one, and this is its id: a tournament's standings
    /// message, which the next standings edit.
    Posted(u64),
}

/// A notice claimed for sending: hand `notice` to the sender, then its outcome to
/// [`Service::settle`](super::Service::settle).
#[derive(Debug, Clone)]
pub struct Outgoing {
    /// The notice to send.
    pub notice: Notice,
    /// The message this notice replaces by an edit, if any: a tournament's standings
    /// message, posted before ([`Delivery::Posted`]).
    pub edits: Option<u64>,
    queued: Queued,
    letter: Letter,
}

/// A notice as its outbox body holds it (JSON).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Letter {
    target: Target,
    /// The message, as segments.
    #[serde(default)]
    message: Message,
    /// Before messages had segments, a notice was its text with `@name` for each user in
    /// `mentions`: such a letter is read with [`Message::legacy`] ([`Notices::opened`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    mentions: Vec<UserId>,
    images: Vec<Image>,
    /// The game it is about (stored as `game`).
    #[serde(rename = "game")]
    about: Option<GameId>,
    /// The game's channel: where a refused direct message goes instead.
    channel: Option<ChannelId>,
    /// Failed attempts so far.
    #[serde(default)]
    failures: u32,
    /// Already moved from a refused direct message to the channel.
    #[serde(default)]
    rerouted: bool,
    #[serde(default)]
    buttons: Vec<Button>,
    /// A tournament's standings: drawn from the tournament when sent, so that the letter
    /// holds nothing else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    standings: Option<TournamentId>,
    /// What the notice does to its game's thread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    thread: Option<ThreadStep>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Image {
    name: String,
    /// The PNG, in base64: the only form before notices kept drawings, and still the form
    /// of a picture that is not one of its game's record positions. Empty with a drawing.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    png: String,
    /// How to draw the picture when the notice is sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    drawing: Option<Drawing>,
}

/// What a rerouted direct message says in the channel, after its own text.
const REROUTED: &str = " (Your direct messages are closed to me, so I tell you here.)";

/// What the next reply about a game says once its channel refused the bot's notices.
#[must_use]
pub fn channel_refused() -> String {
    format!(
        "I may not post in this game's channel, so some of its messages did not arrive: give me the Send Messages \
         permission here, or choose `{}`.",
        keys::Notify::mode.usage(NotifyMode::Dm.name())
    )
}

/// How many notices one claim takes at most.
const CLAIM: usize = 50;

impl Letter {
    fn of(notice: &Notice, channel: Option<ChannelId>) -> Letter {
        let image = |a: &Attachment| match &a.drawing {
            Some(drawing) => Image { name: a.name.clone(), png: String::new(), drawing: Some(drawing.clone()) },
            None => Image { name: a.name.clone(), png: STANDARD.encode(&a.bytes), drawing: None },
        };
        // Standings are drawn when they are sent: the letter keeps the tournament alone.
        let (message, images) = match notice.standings {
            Some(_) => (Message::new(), Vec::new()),
            None => (notice.message.clone(), notice.images.iter().map(image).collect()),
        };
        Letter {
            target: notice.target,
            message,
            text: None,
            mentions: Vec::new(),
            images,
            about: notice.about,
            channel,
            failures: 0,
            rerouted: false,
            buttons: notice.buttons.clone(),
            standings: notice.standings,
            thread: notice.thread.clone(),
        }
    }

    /// The notice to send, its pictures drawn by `draw` (or decoded from their PNG); a
    /// picture that cannot be drawn any more is left out.
    fn notice(&self, mut draw: impl FnMut(&Drawing) -> Option<Attachment>) -> Notice {
        let images = self
            .images
            .iter()
            .filter_map(|image| match &image.drawing {
                Some(drawing) => draw(drawing),
                None => Some(Attachment::file(image.name.clone(), STANDARD.decode(&image.png).unwrap_or_default())),
            })
            .collect();
        Notice {
            target: self.target,
            message: self.message.clone(),
            images,
            about: self.about,
            buttons: self.buttons.clone(),
            standings: None,
            thread: self.thread.clone(),
        }
    }

    fn body(&self) -> Vec<u8> {
        // Plain data of strings and numbers: serde_json cannot fail on it.
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// The same notice as a ping in the game's channel, if it is a direct message that
    /// was not rerouted yet and the channel is known; `name` is the user's, should the
    /// message not address him already.
    fn rerouted(&self, name: &str) -> Option<Letter> {
        let (Target::Direct(user), Some(channel), false) = (self.target, self.channel, self.rerouted) else {
            return None;
        };
        let message = self.message.clone().pinging(user, name).push(REROUTED);
        Some(Letter { target: Target::Channel(channel), message, rerouted: true, ..self.clone() })
    }

    /// A letter stored before messages had segments, in the form written now (and the
    /// same letter if it is not one): its pings found by the users' names, which
    /// `name_of` gives.
    fn upgraded(self, name_of: impl Fn(UserId) -> Option<String>) -> Letter {
        let Some(text) = &self.text else { return self };
        let message = Message::legacy(text, &self.mentions, name_of);
        Letter { message, text: None, mentions: Vec::new(), ..self }
    }
}

/// The outbox entries for `notices` about `record`, due `now`: what a commit stores with
/// the change.
pub fn queued(now: Timestamp, record: &GameRecord, notices: &[Notice]) -> Vec<Queued> {
    notices.iter().map(|notice| Queued::new(now, Letter::of(notice, Some(record.channel())).body())).collect()
}

/// The outbox entries for `notices` about no one game (a tournament's news), due `now`,
/// sent to `channel` when a direct message cannot be.
pub fn queued_in(now: Timestamp, channel: ChannelId, notices: &[Notice]) -> Vec<Queued> {
    notices.iter().map(|notice| Queued::new(now, Letter::of(notice, Some(channel)).body())).collect()
}

/// How a tournament's standings are drawn when their notice is sent.
pub type DrawStandings = fn(&TournamentRecord) -> Notice;

/// The notices part: the outbox as senders see it.
#[derive(Debug)]
pub struct Notices {
    store: Store,
    clock: Arc<dyn Clock>,
    timing: Timing,
    pictures: Pictures,
    /// Given by the tournaments' handlers, whose news they are.
    standings: DrawStandings,
}

impl Notices {
    pub fn new(
        store: Store,
        clock: Arc<dyn Clock>,
        timing: Timing,
        pictures: Pictures,
        standings: DrawStandings,
    ) -> Notices {
        Notices { store, clock, timing, pictures, standings }
    }

    /// The users who asked for a daily digest, as stored (none when the store fails).
    pub fn digest_readers(&self) -> Vec<UserRecord> {
        self.store.outbox().digest_readers().unwrap_or_else(|error| {
            tracing::error!(%error, "cannot read who asked for a digest");
            Vec::new()
        })
    }

    /// Writes `user`'s digest of `day` (`notices`: none on a day with nothing to tell)
    /// with his record marking the day done, in one transaction; `false` when the day was
    /// done already, or the write failed (the next tick tries again).
    pub fn enqueue_digest(&self, user: UserId, day: i64, notices: &[Notice]) -> bool {
        let now = self.clock.now();
        let queued: Vec<Queued> =
            notices.iter().map(|notice| Queued::new(now, Letter::of(notice, None).body())).collect();
        self.store.outbox().enqueue_digest(user, day, &queued).unwrap_or_else(|error| {
            tracing::error!(%error, user = user.0, "cannot write a daily digest");
            false
        })
    }

    /// Adds the once-only report of a refused channel to a reply about that game, for a
    /// player of it.
    pub fn with_report(&self, caller: &Caller, mut response: Response) -> Response {
        let Some(id) = response.reply.about else { return response };
        // Nearly always none is pending: then the record is not read to see who plays.
        if !self.store.outbox().report_pending(id).unwrap_or(false) {
            return response;
        }
        let player = self.store.load(id).ok().flatten().is_some_and(|record| record.seats.involves(caller.user.id));
        if player && self.store.outbox().take_report(id).unwrap_or(false) {
            response.reply.message.append(format!("\n{}", channel_refused()));
        }
        response
    }

    /// Takes the notices due now for sending, oldest first, each for one lease. A store
    /// failure gives none (and stops the service, as every storage failure does).
    pub fn claim(&self) -> Vec<Outgoing> {
        let now = self.clock.now();
        let claimed = match self.store.outbox().claim(now, now + self.timing.lease, CLAIM) {
            Ok(claimed) => claimed,
            Err(error) => {
                tracing::error!(%error, "cannot read the outbox");
                return Vec::new();
            }
        };
        // Each game's record is read once for all the pictures of the claim.
        let mut records = HashMap::new();
        let opened: Vec<Outgoing> =
            claimed.into_iter().filter_map(|queued| self.opened(queued, &mut records)).collect();
        self.latest_standings(self.until_a_thread_opens(opened))
    }

    /// `claimed` up to the first notice that opens a thread: the notices after it go
    /// back, due now, so that they are read again once the thread is stored, and those
    /// about its game go there.
    fn until_a_thread_opens(&self, mut claimed: Vec<Outgoing>) -> Vec<Outgoing> {
        let opens = |outgoing: &Outgoing| matches!(outgoing.letter.thread, Some(ThreadStep::Open { .. }));
        if let Some(first) = claimed.iter().position(opens) {
            let now = self.clock.now();
            for later in claimed.split_off(first + 1) {
                self.put_back(Queued { due: now, ..later.queued });
            }
        }
        claimed
    }

    /// `claimed` with only the last standings notice of each tournament: all would show
    /// the same standings, drawn now; the others are delivered by it.
    fn latest_standings(&self, claimed: Vec<Outgoing>) -> Vec<Outgoing> {
        let mut last: HashMap<TournamentId, usize> = HashMap::new();
        for (index, outgoing) in claimed.iter().enumerate() {
            if let Some(tournament) = outgoing.letter.standings {
                last.insert(tournament, index);
            }
        }
        let mut kept = Vec::with_capacity(claimed.len());
        for (index, outgoing) in claimed.into_iter().enumerate() {
            match outgoing.letter.standings {
                Some(tournament) if last.get(&tournament) != Some(&index) => self.forget(outgoing.queued.id),
                _ => kept.push(outgoing),
            }
        }
        kept
    }

    /// The standings notice of `tournament` as they stand now, and the message showing
    /// them so far; `None` once the tournament is gone.
    fn standings_now(&self, tournament: TournamentId) -> Option<(Notice, Option<u64>)> {
        let record = Tournaments::of(&self.store).load(tournament).ok().flatten()?;
        Some(((self.standings)(&record), record.standings_message))
    }

    /// An outbox entry read back, its pictures drawn from the records (read into
    /// `records`, by game); an unreadable one is dropped (and logged).
    fn opened(&self, queued: Queued, records: &mut HashMap<GameId, Option<GameRecord>>) -> Option<Outgoing> {
        match serde_json::from_slice::<Letter>(&queued.body) {
            Ok(letter) => {
                if let Some(tournament) = letter.standings {
                    let Some((notice, edits)) = self.standings_now(tournament) else {
                        tracing::warn!(id = queued.id, %tournament, "standings of a tournament no longer stored: dropped");
                        self.forget(queued.id);
                        return None;
                    };
                    return Some(Outgoing { notice, edits, queued, letter });
                }
                let letter = letter.upgraded(|user| self.name_of(user));
                let mut load =
                    |id: GameId| records.entry(id).or_insert_with(|| self.store.load(id).ok().flatten()).clone();
                let mut notice = letter.notice(|drawing| {
                    let record = load(drawing.game);
                    let drawn = record.as_ref().and_then(|record| self.pictures.redraw(record, drawing));
                    if drawn.is_none() {
                        tracing::warn!(id = queued.id, game = ?drawing.game, turns = drawing.turns, "a notice's board cannot be drawn again: sent without it");
                    }
                    drawn
                });
                // Sent where the game is followed now: its thread, once open.
                let opens = matches!(letter.thread, Some(ThreadStep::Open { .. }));
                if let (Some(id), Target::Channel(_), false) = (letter.about, notice.target, opens)
                    && let Some(record) = load(id)
                {
                    notice.target = threads::target(&record, notice.target);
                }
                Some(Outgoing { notice, edits: None, queued, letter })
            }
            Err(error) => {
                tracing::error!(id = queued.id, %error, "an unreadable notice in the outbox: dropped");
                self.forget(queued.id);
                None
            }
        }
    }

    /// Records how sending `outgoing` went: delivered notices leave the outbox, failed
    /// ones wait for their next attempt, a refused direct message goes to the channel.
    pub fn settle(&self, outgoing: Outgoing, delivery: Delivery) {
        let Outgoing { queued, letter, .. } = outgoing;
        let now = self.clock.now();
        // A failed opening is retried as any notice is.
        if let (Some(ThreadStep::Open { .. }), Some(id), false) =
            (&letter.thread, letter.about, delivery == Delivery::Failed)
        {
            return self.settle_opening(queued.id, id, delivery);
        }
        match delivery {
            Delivery::Sent => self.forget(queued.id),
            Delivery::Posted(message) => match letter.standings {
                Some(tournament) => {
                    if let Err(error) = Tournaments::of(&self.store).remember_standings(tournament, message, queued.id)
                    {
                        tracing::error!(%error, %tournament, "cannot remember the standings message");
                    }
                }
                None => self.forget(queued.id),
            },
            Delivery::Failed => {
                let letter = Letter { failures: letter.failures.saturating_add(1), ..letter };
                let due = now + self.timing.backoff(letter.failures);
                tracing::warn!(id = queued.id, game = ?letter.about, failures = letter.failures, "a notice failed; retrying later");
                self.put_back(Queued { due, body: letter.body(), ..queued });
            }
            Delivery::DmClosed => match letter.rerouted(&self.name_of_target(&letter)) {
                Some(letter) => self.put_back(Queued { due: now, body: letter.body(), ..queued }),
                None => {
                    tracing::warn!(id = queued.id, game = ?letter.about, "a notice was refused in the channel too: dropped");
                    self.forget(queued.id);
                }
            },
            Delivery::ChannelClosed => {
                tracing::warn!(id = queued.id, game = ?letter.about, "the bot may not post in the channel: dropped, reported");
                if let Some(id) = letter.about
                    && let Err(error) = self.store.outbox().raise_report(id)
                {
                    tracing::error!(%error, "cannot store the report of a refused channel");
                }
                self.forget(queued.id);
            }
            Delivery::Rejected => {
                tracing::error!(id = queued.id, game = ?letter.about, "Discord refused a notice: dropped");
                self.forget(queued.id);
            }
        }
    }

    /// Records how opening game `id`'s thread went (notice `notice`): opened (its id), or
    /// refused for good, and the game goes on in its channel, which is told.
    fn settle_opening(&self, notice: u64, id: GameId, delivery: Delivery) {
        let opened = match delivery {
            Delivery::Posted(thread) => Some(ChannelId(thread)),
            _ => None,
        };
        tracing::info!(game = %id, ?opened, "a game's thread opened (none: refused)");
        if let Err(error) = self.store_thread(id, opened) {
            tracing::error!(%error, game = %id, "cannot store a game's thread");
        }
        self.forget(notice);
    }

    /// Writes what became of game `id`'s thread into its record ([`threads::opened`]),
    /// with what that tells; again when a command wrote the record meanwhile.
    fn store_thread(&self, id: GameId, opened: Option<ChannelId>) -> Result<(), StoreError> {
        crate::store::retrying(|| {
            let Some((old, stored)) = self.store.read(id)? else { return Ok(()) };
            let Some((new, told)) = threads::opened(&old, opened) else { return Ok(()) };
            self.store.update_from((&old, &stored), &new, &[], &queued(self.clock.now(), &new, &told))
        })
    }

    /// Sends every notice due now with `send`, in order, and settles each; notices moved
    /// to the channel are sent in the same call. Returns the notices delivered.
    pub fn deliver(&self, mut send: impl FnMut(&Outgoing) -> Delivery) -> Vec<Notice> {
        let mut delivered = Vec::new();
        // A rerouted notice, or one held back behind a thread's opening, is due again at
        // once: another round takes it (a tournament's start opens a thread per game). A
        // failed notice is due only later, so the rounds end.
        for _ in 0..1_000 {
            let claimed = self.claim();
            if claimed.is_empty() {
                break;
            }
            for outgoing in claimed {
                let delivery = send(&outgoing);
                if matches!(delivery, Delivery::Sent | Delivery::Posted(_)) {
                    delivered.push(outgoing.notice.clone());
                }
                self.settle(outgoing, delivery);
            }
        }
        delivered
    }

    /// The name last stored for `user`, if any.
    fn name_of(&self, user: UserId) -> Option<String> {
        self.store.user(user).ok().flatten().map(|record| record.name)
    }

    /// The name of the user a direct message goes to.
    fn name_of_target(&self, letter: &Letter) -> String {
        match letter.target {
            Target::Direct(user) => self.name_of(user).unwrap_or_else(|| user.0.to_string()),
            Target::Channel(_) => String::new(),
        }
    }

    fn forget(&self, id: u64) {
        if let Err(error) = self.store.outbox().remove_notice(id) {
            tracing::error!(%error, id, "cannot remove a notice from the outbox");
        }
    }

    fn put_back(&self, queued: Queued) {
        if let Err(error) = self.store.outbox().reschedule(&queued) {
            tracing::error!(%error, id = queued.id, "cannot reschedule a notice");
        }
    }
}

/// The bot's reply to its own command about `game`, said as a message in the game's
/// channel; a finished game's offers the rematch.
pub fn announcement(game: &Loaded, reply: &Reply) -> Notice {
    // The bot's own buttons are not for anyone else, except those that answer its
    // proposal of dead pieces (go, rule 10), which are its opponent's to press.
    let for_opponent = |button: &&Button| {
        matches!(button.custom_id.parse::<Action>(), Ok(Action::AcceptDead { .. } | Action::Resume { .. }))
    };
    let mut buttons: Vec<Button> = reply.buttons.iter().filter(for_opponent).cloned().collect();
    // Tournament games offer no Rematch: the players did not choose each other.
    if game.record.phase == Phase::Finished && game.record.origin.tournament.is_none() {
        buttons.push(Button::rematch(game.id()));
    }
    Notice {
        target: Target::Channel(game.record.channel()),
        message: reply.message.clone(),
        images: reply.images.clone(),
        about: reply.about,
        buttons,
        standings: None,
        thread: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_doubles_from_the_first_wait_up_to_the_last() {
        let timing = Timing::default();
        let waits: Vec<i64> = (1..=12).map(|failures| timing.backoff(failures).0 / 1000).collect();
        assert_eq!(waits, [5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 3600, 3600]);
        assert_eq!(timing.backoff(u32::MAX), Span::HOUR, "no overflow");
    }
}
