//! What is stored: one [`GameRecord`] per challenge or game, one [`UserRecord`] per user
//! who set something. Records are JSON (readable with any tool, and serde keeps unknown
//! fields out of the way); `format` says which layout a record has, so later versions can
//! read old databases.
//!
//! A game record holds the options, the players and the turns as notation text, never a
//! position: the position is rebuilt by replaying the turns (style principle 5).

use serde::{Deserialize, Serialize};
use stonemate_ai::Level;
use stonemate_engine::{self as engine, Color, EndReason, GameKind, Outcome};

use crate::clock::{Span, Timestamp};
use crate::ids::{ChannelId, GameId, GuildId, UserId};

/// The layout of records written by this build. Format 1 stored the result as display
/// text; [`upgrade`] reads it.
pub const FORMAT: u32 = 2;

/// The opponent of an open challenge until someone accepts it (Discord numbers nobody 0).
/// The player index lists a server's open challenges under this user.
pub const NOBODY: UserId = UserId(0);

/// The colour the challenger asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    /// White for the challenger.
    White,
    /// Black for the challenger.
    Black,
    /// A side drawn by lot when the challenge is accepted.
    Random,
}

impl ColorChoice {
    /// Every choice, in the order Discord offers them.
    pub const ALL: [ColorChoice; 3] = [ColorChoice::White, ColorChoice::Black, ColorChoice::Random];

    /// The choice as users type it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ColorChoice::White => "white",
            ColorChoice::Black => "black",
            ColorChoice::Random => "random",
        }
    }
}

/// Where a record stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Waiting for the opponent to accept or decline.
    Challenge,
    /// The opponent declined the challenge.
    Declined,
    /// The challenger withdrew the challenge.
    Withdrawn,
    /// Nobody answered the challenge before it lapsed.
    Expired,
    /// Accepted: turns are being played.
    Playing,
    /// Over; see [`GameRecord::result`].
    Finished,
}

/// How a finished game came out, as its record keeps it: the engine's [`engine::Ending`]
/// (who won and why: the one result type the rules, pictures, exports and texts share),
/// plus what only the service knows: who called a game off without result, and when it
/// ended.
///
/// The engine stays free of storage, so the stored layout (format 2: `winner`, `reason`,
/// `finished`) is written and read by one private mirror, `StoredFinish`, here.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "StoredFinish", into = "StoredFinish")]
pub struct Finish {
    /// Who won (a game called off counts as [`Outcome::Draw`] here) and why.
    pub ending: engine::Ending,
    /// Who called the game off; `Some` exactly when the ending's reason is
    /// [`EndReason::Aborted`].
    pub called_off: Option<CalledOff>,
    /// When the game ended; `None` in records from before it was stored.
    pub finished: Option<Timestamp>,
}

/// Who ended a game without result.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum CalledOff {
    /// A player, before any turn; his shown name.
    Player(String),
    /// A server administrator; his shown name.
    Admin(String),
    /// Nobody: the time of the player to move ran out while one of the players had not yet
    /// played a turn of his own (nobody loses, nor is rated for, a game he never began).
    Unstarted,
}

impl Finish {
    /// The game ended with `ending` (by the rules, a resignation, an agreement or time).
    #[must_use]
    pub fn new(ending: engine::Ending) -> Finish {
        Finish { ending, called_off: None, finished: None }
    }

    /// The game was called off without result.
    #[must_use]
    pub fn called_off(by: CalledOff) -> Finish {
        let ending = engine::Ending { outcome: Outcome::Draw, reason: EndReason::Aborted };
        Finish { ending, called_off: Some(by), finished: None }
    }

    /// The same finish, dated.
    #[must_use]
    pub fn at(self, finished: Timestamp) -> Finish {
        Finish { finished: Some(finished), ..self }
    }

    /// The side that won; `None` for a draw or a game called off.
    #[must_use]
    pub fn winner(&self) -> Option<Color> {
        match self.ending.outcome {
            Outcome::Winner(side) => Some(side),
            Outcome::Draw => None,
        }
    }

    /// Whether the game ended without result.
    #[must_use]
    pub fn aborted(&self) -> bool {
        self.ending.reason == EndReason::Aborted
    }

    /// Whether the game's own rules ended it (not the players, the clock or an admin).
    #[must_use]
    pub fn by_rules(&self) -> bool {
        rule_name::RULES.contains(&self.ending.reason)
    }

    /// `white`, `black`, `draw`, or `none` for an aborted game.
    #[must_use]
    pub fn outcome_name(&self) -> &'static str {
        if self.aborted() { "none" } else { self.ending.outcome.name() }
    }
}

/// The stored layout of a [`Finish`] (format 2).
#[derive(Clone, Serialize, Deserialize)]
struct StoredFinish {
    #[serde(with = "color_name")]
    winner: Option<Color>,
    reason: Reason,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    finished: Option<Timestamp>,
}

/// Why a game ended, as stored: the rules' own reason, or what the players (or an
/// administrator) did.
#[derive(Clone, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Reason {
    Rules(#[serde(with = "rule_name")] EndReason),
    Resignation,
    Agreement,
    Timeout,
    Aborted { by: String },
    AdminAborted { by: String },
    Unstarted,
}

impl From<StoredFinish> for Finish {
    fn from(stored: StoredFinish) -> Finish {
        let outcome = stored.winner.map_or(Outcome::Draw, Outcome::Winner);
        let finish = match stored.reason {
            Reason::Rules(reason) => Finish::new(engine::Ending { outcome, reason }),
            Reason::Resignation => Finish::new(engine::Ending { outcome, reason: EndReason::Resignation }),
            Reason::Agreement => Finish::new(engine::Ending { outcome, reason: EndReason::Agreement }),
            Reason::Timeout => Finish::new(engine::Ending { outcome, reason: EndReason::Timeout }),
            Reason::Aborted { by } => Finish::called_off(CalledOff::Player(by)),
            Reason::AdminAborted { by } => Finish::called_off(CalledOff::Admin(by)),
            Reason::Unstarted => Finish::called_off(CalledOff::Unstarted),
        };
        Finish { finished: stored.finished, ..finish }
    }
}

impl From<Finish> for StoredFinish {
    fn from(finish: Finish) -> StoredFinish {
        let winner = if finish.aborted() { None } else { finish.winner() };
        let reason = match (finish.ending.reason, finish.called_off) {
            (EndReason::Resignation, _) => Reason::Resignation,
            (EndReason::Agreement, _) => Reason::Agreement,
            (EndReason::Timeout, _) => Reason::Timeout,
            (EndReason::Aborted, Some(CalledOff::Player(by))) => Reason::Aborted { by },
            (EndReason::Aborted, Some(CalledOff::Admin(by))) => Reason::AdminAborted { by },
            // `Finish::called_off` is the only way to an abort; none without a caller.
            (EndReason::Aborted, Some(CalledOff::Unstarted) | None) => Reason::Unstarted,
            (rules, _) => Reason::Rules(rules),
        };
        StoredFinish { winner, reason, finished: finish.finished }
    }
}

/// The clock of the current turn (games with days per move only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "StoredClock")]
pub struct TurnClock {
    /// When the turn began (or when extra time was last given), moved on by pauses.
    pub started: Timestamp,
    /// When the turn's time runs out (after the pauses it stood still for).
    pub deadline: Timestamp,
    /// When the next reminder is due; `None` once none is left for this turn. The service
    /// picks it from its reminder points, so the store can index it without them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remind_at: Option<Timestamp>,
    /// Whether the waiting player was told he may claim.
    pub timeout_told: bool,
    /// The end of the latest pause (a player's vacation) this clock stood still for; the
    /// times above have already been moved on by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused_until: Option<Timestamp>,
}

impl TurnClock {
    /// A clock from `started` to `deadline`, without reminders yet (the service sets
    /// them: it knows its reminder points).
    #[must_use]
    pub fn new(started: Timestamp, deadline: Timestamp) -> TurnClock {
        TurnClock { started, deadline, remind_at: None, timeout_told: false, paused_until: None }
    }

    /// The next moment something must be sent for this turn.
    #[must_use]
    pub fn next_event(&self) -> Option<Timestamp> {
        match (self.remind_at, self.timeout_told) {
            (_, true) => None,
            (Some(remind), false) => Some(remind.min(self.deadline)),
            (None, false) => Some(self.deadline),
        }
    }

    /// The clock moved on by `span` (negative: back), as a pause moves it.
    #[must_use]
    pub fn shifted(self, span: Span) -> TurnClock {
        TurnClock {
            started: self.started + span,
            deadline: self.deadline + span,
            remind_at: self.remind_at.map(|at| at + span),
            ..self
        }
    }
}

/// A clock as stored by any format: before configurable reminders it held
/// `reminded: bool` for its one reminder, at a quarter of the time left.
#[derive(Deserialize)]
struct StoredClock {
    started: Timestamp,
    deadline: Timestamp,
    #[serde(default)]
    reminded: Option<bool>,
    #[serde(default)]
    remind_at: Option<Timestamp>,
    #[serde(default)]
    timeout_told: bool,
    #[serde(default)]
    paused_until: Option<Timestamp>,
}

impl From<StoredClock> for TurnClock {
    fn from(stored: StoredClock) -> TurnClock {
        // An old turn not yet reminded keeps its quarter-time reminder; a reminded one has
        // none left.
        let quarter = stored.deadline - Span((stored.deadline - stored.started).0 / 4);
        let remind_at = match stored.reminded {
            Some(false) => Some(quarter),
            Some(true) => None,
            None => stored.remind_at,
        };
        TurnClock {
            started: stored.started,
            deadline: stored.deadline,
            remind_at,
            timeout_told: stored.timeout_told,
            paused_until: stored.paused_until,
        }
    }
}

/// One challenge and, once accepted, the game it became.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The record layout ([`FORMAT`]).
    pub format: u32,
    /// The game's or challenge's number.
    pub id: GameId,
    /// Bumped by every write; a write expecting another version is refused, so two
    /// commands racing on one game apply at most one.
    pub version: u64,
    /// The game's kind (stored as `game`, by its name: `go`, `chego`).
    #[serde(rename = "game", with = "kind_name")]
    pub kind: GameKind,
    /// Every option with its value, as the game prints them.
    pub options: Vec<(String, String)>,
    /// The user who made the challenge.
    pub challenger: UserId,
    /// The user it is addressed to; [`NOBODY`] while an open challenge waits.
    pub opponent: UserId,
    /// Display names `[challenger, opponent]`, the latest seen.
    pub names: [String; 2],
    /// The colour the challenger asked for.
    pub color: ColorChoice,
    /// `[white, black]`, fixed when the challenge is accepted.
    pub players: Option<[UserId; 2]>,
    /// Days per move; 0 means no clock.
    pub days: u8,
    /// The channel the challenge was made in, where its notices go.
    pub channel: ChannelId,
    /// The server the record belongs to: only commands from there reach it. `None` for a
    /// record started in a direct message (possible before commands became server-only);
    /// its two players reach it from anywhere, nobody else does. Missing in JSON: `None`.
    #[serde(default)]
    pub guild: Option<GuildId>,
    /// When the challenge was made.
    pub created: Timestamp,
    /// When the challenge lapses if nobody answers it.
    pub expires: Timestamp,
    /// Where the record stands.
    pub phase: Phase,
    /// The turns as the game prints them, in order.
    pub turns: Vec<String>,
    /// The clock of the current turn; `None` without days per move or when no turn runs.
    pub clock: Option<TurnClock>,
    /// The side that offered a draw, while the offer stands.
    #[serde(with = "color_name")]
    pub draw_offer: Option<Color>,
    /// How many turns were recorded when `[white, black]` last offered a draw: a player
    /// offers again only once his opponent has played two turns since (one offer per
    /// player until then). Missing in JSON (no offer made, or records from before): none.
    #[serde(default, skip_serializing_if = "no_offers")]
    pub draw_offered_at: [Option<u32>; 2],
    /// The finished game whose Rematch button made this challenge (or game against the
    /// bot), so that a second press, or the opponent's, finds it instead of making
    /// another. Missing in JSON: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch_of: Option<GameId>,
    /// How the game ended; `None` until it is finished.
    pub result: Option<Finish>,
    /// The level of Stonemate's own player in a game against the bot; `None` in a game
    /// between two people. It marks the games against the bot, so that ratings can leave
    /// them out. Missing in JSON (records from before the bot played): `None`.
    #[serde(default, with = "level_name", skip_serializing_if = "Option::is_none")]
    pub level: Option<Level>,
    /// A player's request to take back his last turn, waiting for the opponent's answer
    /// (`/takeback`). Missing in JSON (records from before takebacks): `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub takeback: Option<Takeback>,
    /// The counting phase of go's rule 10 while it waits for an agreement: the standing
    /// proposal. `None` otherwise, also once a player resumed play (the engine still counts
    /// until the first turn of resumed play). Missing in JSON: `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counting: Option<Counting>,
    /// The conditional lines the players stored (`/conditional`), oldest first; only their
    /// owners see them. Missing in JSON: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditionals: Vec<Conditional>,
}

/// A request to take back a turn: who asked, and when (the number of turns then played; a
/// turn played after it makes it stale).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Takeback {
    /// The player who asked.
    pub by: UserId,
    /// How many turns had been played when he asked.
    pub turns: usize,
}

/// A proposal of dead pieces in the counting phase (go, rule 10).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Counting {
    /// The proposed dead pieces as the record's agreement writes them: `dead c3 d4`, or
    /// `dead -` for none.
    pub proposal: String,
    /// The side that stands behind it (who proposed it, or accepted the engine's); `None`
    /// while it is the engine's estimate that opened counting, which nobody accepted yet.
    /// The proposal stands once the other side accepts it too.
    #[serde(with = "color_name")]
    pub by: Option<Color>,
    /// The proposal a player stood behind that this one replaced, if any: the bot resumes
    /// play rather than propose again what was just turned down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaced: Option<String>,
}

/// A conditional line (`/conditional`): turns a player expects and his answers to them,
/// `THEIRS MINE THEIRS MINE ...`, played the moment the expected turn comes.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Conditional {
    /// The player who stored it.
    pub owner: UserId,
    /// The turns still to come, as the game prints them: the opponent's expected turn
    /// first, then the answer, and so on.
    pub turns: Vec<String>,
    /// The number of turns in the record when its first turn is expected: a line waits
    /// for that turn only, so anything that changes the record otherwise (a takeback)
    /// leaves it behind.
    pub at: usize,
}

/// Whether no draw offer was recorded (the field is then left out of the JSON).
fn no_offers(offers: &[Option<u32>; 2]) -> bool {
    offers.iter().all(Option::is_none)
}

impl Phase {
    /// The byte of its entries in the player index; declined, withdrawn and expired
    /// challenges have none (they are kept, but nobody lists them).
    #[must_use]
    pub fn index_byte(self) -> Option<u8> {
        match self {
            Phase::Challenge => Some(b'c'),
            Phase::Playing => Some(b'a'),
            Phase::Finished => Some(b'f'),
            Phase::Declined | Phase::Withdrawn | Phase::Expired => None,
        }
    }

    /// The phase of a player-index entry.
    #[must_use]
    pub fn from_index_byte(byte: u8) -> Option<Phase> {
        [Phase::Challenge, Phase::Playing, Phase::Finished].into_iter().find(|p| p.index_byte() == Some(byte))
    }
}

impl GameRecord {
    /// Ends the game with `ending`: no clock runs, and no draw offer, proposal or conditional
    /// line stands any more.
    pub fn finish(&mut self, finish: Finish) {
        self.phase = Phase::Finished;
        self.clock = None;
        self.draw_offer = None;
        self.counting = None;
        self.conditionals.clear();
        self.result = Some(finish);
    }

    /// Whether the players' indices list it (see [`Phase::index_byte`]).
    #[must_use]
    pub fn listed(&self) -> bool {
        self.phase.index_byte().is_some()
    }

    /// When the deadline index must wake the service for this record.
    #[must_use]
    pub fn next_event(&self) -> Option<Timestamp> {
        match self.phase {
            Phase::Challenge => Some(self.expires),
            Phase::Playing => self.clock.and_then(|clock| clock.next_event()),
            _ => None,
        }
    }

    /// The user playing `side`.
    #[must_use]
    pub fn player(&self, side: Color) -> Option<UserId> {
        self.players.map(|[white, black]| if side == Color::White { white } else { black })
    }

    /// The side `user` plays, if he plays.
    #[must_use]
    pub fn side_of(&self, user: UserId) -> Option<Color> {
        let [white, black] = self.players?;
        if user == white {
            Some(Color::White)
        } else if user == black {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The shown name of `user` (one of the two).
    #[must_use]
    pub fn name_of(&self, user: UserId) -> &str {
        if user == self.challenger { &self.names[0] } else { &self.names[1] }
    }

    /// Whether this is a game against Stonemate's own player (which ratings leave out).
    #[must_use]
    pub fn against_bot(&self) -> bool {
        self.level.is_some()
    }

    /// Whether both players have played a turn of their own. Every game of the engine
    /// gives the move to the other side after each turn, so that is two turns recorded.
    /// Until then a game whose time runs out is aborted, not lost, and no result of it
    /// is rated.
    #[must_use]
    pub fn both_played(&self) -> bool {
        self.turns.len() >= 2
    }

    /// Whether this is an open challenge nobody has accepted yet: anyone in its channel but
    /// the challenger may accept it, and becomes its opponent.
    #[must_use]
    pub fn is_open(&self) -> bool {
        self.opponent == NOBODY
    }

    /// Whether `user` is the challenger or the opponent.
    #[must_use]
    pub fn involves(&self, user: UserId) -> bool {
        user == self.challenger || user == self.opponent
    }

    /// The other one of the two.
    #[must_use]
    pub fn other(&self, user: UserId) -> UserId {
        if user == self.challenger { self.opponent } else { self.challenger }
    }
}

/// How a player is told that it is his turn (`/notify`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NotifyMode {
    /// A new message in the game's channel, mentioning him (the default).
    #[default]
    Channel,
    /// A direct message.
    Dm,
    /// No pings (results and timeouts still appear in the channel, without a mention).
    Off,
}

impl NotifyMode {
    /// Every mode, in the order `/notify` offers them.
    pub const ALL: [NotifyMode; 3] = [NotifyMode::Channel, NotifyMode::Dm, NotifyMode::Off];

    /// The mode's name as users type it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            NotifyMode::Channel => "channel",
            NotifyMode::Dm => "dm",
            NotifyMode::Off => "off",
        }
    }
}

impl std::str::FromStr for NotifyMode {
    type Err = ();

    /// A mode by its name, in any case, spaces around ignored.
    fn from_str(text: &str) -> Result<NotifyMode, ()> {
        let text = text.trim();
        NotifyMode::ALL.into_iter().find(|mode| mode.name().eq_ignore_ascii_case(text)).ok_or(())
    }
}

/// What a user set, and his latest name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserRecord {
    /// The record layout ([`FORMAT`]).
    pub format: u32,
    /// The user's Discord id.
    pub id: UserId,
    /// His latest shown name.
    pub name: String,
    /// How he is told it is his turn.
    pub notify: NotifyMode,
    /// The vacations he took (`/vacation`), oldest first; the last may still run.
    /// Missing in JSON (records from before vacations): none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vacations: Vec<Vacation>,
    /// Whether a typed `/move` or `/drop` first shows its preview, to be confirmed
    /// (`/settings confirm:on`). Missing in JSON (records from before the setting): off.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub confirm: bool,
}

impl UserRecord {
    /// A user with nothing set but his name.
    #[must_use]
    pub fn new(id: UserId, name: String) -> UserRecord {
        UserRecord { format: FORMAT, id, name, notify: NotifyMode::default(), vacations: Vec::new(), confirm: false }
    }

    /// The end of his vacation running at `now`, if one runs.
    #[must_use]
    pub fn away_until(&self, now: Timestamp) -> Option<Timestamp> {
        self.vacations.last().filter(|vacation| vacation.start <= now && now < vacation.end).map(|v| v.end)
    }
}

/// A time a player's clocks stood still (`/vacation`): from `start` to `end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Vacation {
    /// When it began.
    pub start: Timestamp,
    /// When it ends (exclusive): from then on his clocks run again.
    pub end: Timestamp,
}

/// A colour stored in lower case (`white`, `black`), as format 1 stored its sides.
mod color_name {
    use serde::{Deserialize, Deserializer, Serializer};
    use stonemate_engine::Color;

    #[derive(serde::Serialize, Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum Stored {
        White,
        Black,
    }

    pub fn serialize<S: Serializer>(color: &Option<Color>, serializer: S) -> Result<S::Ok, S::Error> {
        let stored = color.map(|color| if color == Color::White { Stored::White } else { Stored::Black });
        serde::Serialize::serialize(&stored, serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Color>, D::Error> {
        let stored = Option::<Stored>::deserialize(deserializer)?;
        Ok(stored.map(|stored| if matches!(stored, Stored::White) { Color::White } else { Color::Black }))
    }
}

/// A bot level stored by its name (`easy`, `medium`, `hard`).
mod level_name {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};
    use stonemate_ai::Level;

    // `serde(with)` hands the field by reference.
    #[allow(clippy::ref_option)]
    pub fn serialize<S: Serializer>(level: &Option<Level>, serializer: S) -> Result<S::Ok, S::Error> {
        match level {
            Some(level) => serializer.serialize_some(level.name()),
            None => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Level>, D::Error> {
        Option::<String>::deserialize(deserializer)?.map(|name| name.parse().map_err(D::Error::custom)).transpose()
    }
}

/// A game kind stored by its name (`go`, `chego`).
pub(super) mod kind_name {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};
    use stonemate_engine::GameKind;

    pub fn serialize<S: Serializer>(kind: &GameKind, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(kind.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<GameKind, D::Error> {
        String::deserialize(deserializer)?.parse().map_err(D::Error::custom)
    }
}

/// A rules' end reason stored by the engine's name for it (`two passes`, `checkmate`).
mod rule_name {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};
    use stonemate_engine::EndReason;

    /// The reasons the rules make (the others are the players' and have their own
    /// stored [`super::Reason`] variants).
    pub const RULES: [EndReason; 10] = [
        EndReason::TwoPasses,
        EndReason::Counted,
        EndReason::Checkmate,
        EndReason::NoLegalTurn,
        EndReason::Repetition,
        EndReason::PerpetualCheck,
        EndReason::RingDestroyed,
        EndReason::KingCaptured,
        EndReason::BothKingsCaptured,
        EndReason::NoCaptureFor50Turns,
    ];

    pub fn parse(text: &str) -> Option<EndReason> {
        RULES.into_iter().find(|reason| reason.to_string() == text)
    }

    pub fn serialize<S: Serializer>(reason: &EndReason, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(reason)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<EndReason, D::Error> {
        let text = String::deserialize(deserializer)?;
        parse(&text).ok_or_else(|| D::Error::custom(format!("unknown end reason `{text}`")))
    }
}

/// Rewrites a stored game record of an older format as this one reads it. Format 1 kept
/// the result as `{winner, finish, reason}` with `reason` the text players read; the
/// reason is read back into a [`Finish`] (an aborting player's name, which format 1
/// stored escaped for Discord, is unescaped).
pub fn upgrade(mut value: serde_json::Value) -> Result<serde_json::Value, String> {
    if value.get("format").and_then(serde_json::Value::as_u64) != Some(1) {
        return Ok(value);
    }
    if let Some(result) = value.get_mut("result").filter(|result| !result.is_null()) {
        let text = |key: &str| result.get(key).and_then(serde_json::Value::as_str).unwrap_or_default().to_owned();
        let (finish, reason) = (text("finish"), text("reason"));
        let reason = match finish.as_str() {
            "rules" => serde_json::json!({ "rules": reason }),
            "resignation" | "agreement" | "timeout" => serde_json::json!(finish),
            "aborted" => serde_json::json!({ "aborted": { "by": unescape(after(&reason, "aborted by ", "")?) } }),
            "admin-aborted" => {
                let by = after(&reason, "aborted by an administrator (", ")")?;
                serde_json::json!({ "admin-aborted": { "by": unescape(by) } })
            }
            other => return Err(format!("unknown finish `{other}`")),
        };
        *result = serde_json::json!({ "winner": result.get("winner").cloned(), "reason": reason });
    }
    value["format"] = serde_json::json!(FORMAT);
    Ok(value)
}

fn after<'a>(text: &'a str, prefix: &str, suffix: &str) -> Result<&'a str, String> {
    text.strip_prefix(prefix)
        .and_then(|rest| rest.strip_suffix(suffix))
        .ok_or_else(|| format!("unknown reason `{text}`"))
}

/// The name format 1 escaped with a backslash before each markup character.
fn unescape(escaped: &str) -> String {
    let mut name = String::with_capacity(escaped.len());
    let mut chars = escaped.chars();
    while let Some(ch) = chars.next() {
        name.push(if ch == '\\' { chars.next().unwrap_or(ch) } else { ch });
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upgraded(result: serde_json::Value) -> Result<Option<Finish>, String> {
        let record = serde_json::json!({ "format": 1, "result": result });
        let value = upgrade(record)?;
        assert_eq!(value["format"], serde_json::json!(FORMAT));
        serde_json::from_value(value["result"].clone()).map_err(|error| error.to_string())
    }

    #[test]
    fn format_1_results_are_read_back_as_data() {
        let rules = serde_json::json!({ "winner": "black", "finish": "rules", "reason": "two passes" });
        let ending =
            Finish::new(engine::Ending { outcome: Outcome::Winner(Color::Black), reason: EndReason::TwoPasses });
        assert_eq!(upgraded(rules), Ok(Some(ending)));
        let resigned = serde_json::json!({ "winner": "white", "finish": "resignation", "reason": "resignation" });
        assert_eq!(
            upgraded(resigned),
            Ok(Some(Finish::new(engine::Ending {
                outcome: Outcome::Winner(Color::White),
                reason: EndReason::Resignation
            })))
        );
        assert_eq!(upgraded(serde_json::Value::Null), Ok(None));
    }

    #[test]
    fn format_1_abort_names_are_unescaped() {
        let aborted = serde_json::json!({ "winner": null, "finish": "aborted", "reason": r"aborted by \*\*al\_ice" });
        let by = "**al_ice".to_owned();
        assert_eq!(upgraded(aborted), Ok(Some(Finish::called_off(CalledOff::Player(by)))));
        let text = r"aborted by an administrator (mod \(x\))";
        let admin = serde_json::json!({ "winner": null, "finish": "admin-aborted", "reason": text });
        let by = "mod (x)".to_owned();
        assert_eq!(upgraded(admin), Ok(Some(Finish::called_off(CalledOff::Admin(by)))));
    }

    fn clock(json: &str) -> TurnClock {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn old_clocks_keep_their_quarter_reminder_until_it_was_sent() {
        let waiting = clock(r#"{"started":0,"deadline":400,"reminded":false,"timeout_told":false}"#);
        assert_eq!((waiting.remind_at, waiting.next_event()), (Some(Timestamp(300)), Some(Timestamp(300))));
        let reminded = clock(r#"{"started":0,"deadline":400,"reminded":true,"timeout_told":false}"#);
        assert_eq!((reminded.remind_at, reminded.next_event()), (None, Some(Timestamp(400))));
        let told = clock(r#"{"started":0,"deadline":400,"reminded":true,"timeout_told":true}"#);
        assert_eq!(told.next_event(), None);
    }

    #[test]
    fn clocks_round_trip_without_the_old_field() {
        let new = TurnClock {
            remind_at: Some(Timestamp(100)),
            paused_until: Some(Timestamp(50)),
            ..TurnClock::new(Timestamp(0), Timestamp(400))
        };
        let json = serde_json::to_string(&new).unwrap();
        assert!(!json.contains("reminded"), "{json}");
        assert_eq!(clock(&json), new);
    }

    #[test]
    fn finish_times_are_optional_in_stored_results() {
        let old: Finish = serde_json::from_str(r#"{"winner":"white","reason":"resignation"}"#).unwrap();
        assert_eq!(old.finished, None);
        let dated = old.clone().at(Timestamp(7));
        assert_eq!(serde_json::from_str::<Finish>(&serde_json::to_string(&dated).unwrap()).unwrap(), dated);
    }

    #[test]
    fn unknown_format_1_reasons_are_refused() {
        let odd = serde_json::json!({ "winner": "white", "finish": "rules", "reason": "a coin toss" });
        assert!(upgraded(odd).is_err());
        let odd = serde_json::json!({ "winner": null, "finish": "aborted", "reason": "gone" });
        assert!(upgraded(odd).is_err());
    }
}
