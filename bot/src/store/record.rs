//! What is stored: one [`GameRecord`] per challenge or game, one [`UserRecord`] per user
//! who set something. Records are JSON (readable with any tool, and serde keeps unknown
//! fields out of the way); `format` says which layout a record has, so later versions can
//! read old databases.
//!
//! A game record holds the options, the players and the turns as notation text, never a
//! position: the position is rebuilt by replaying the turns (style principle 5).

use serde::{Deserialize, Serialize};
use stonemate_engine::{Color, GameKind, Outcome};

use crate::clock::Timestamp;
use crate::service::{ChannelId, GameId, GuildId, NotifyMode, UserId};

/// The layout of records written by this build.
pub const FORMAT: u32 = 1;

/// A side, as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl Side {
    /// The opponent's side.
    #[must_use]
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    #[must_use]
    pub fn color(self) -> Color {
        match self {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }

    #[must_use]
    pub fn of(color: Color) -> Side {
        match color {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

/// The colour the challenger asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    White,
    Black,
    Random,
}

/// Where a record stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Waiting for the opponent to accept or decline.
    Challenge,
    Declined,
    Withdrawn,
    Expired,
    /// Accepted: turns are being played.
    Playing,
    /// Over; see [`GameRecord::result`].
    Finished,
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Finish {
    /// By the game's own rules (the engine's status after the last turn).
    Rules,
    Resignation,
    Agreement,
    /// Claimed by the waiting player after the opponent's time ran out.
    Timeout,
    /// Ended by a player before any turn, without result.
    Aborted,
    /// Ended by a server administrator, without result.
    AdminAborted,
}

/// How a finished game came out.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct GameResult {
    /// The winner; `None` for a draw or an aborted game.
    pub winner: Option<Side>,
    pub finish: Finish,
    /// The reason as players read it: `two passes`, `resignation`, `aborted`.
    pub reason: String,
}

impl GameResult {
    /// `white`, `black`, `draw`, or `none` for an aborted game.
    #[must_use]
    pub fn outcome_name(&self) -> &'static str {
        match (self.winner, self.finish) {
            (Some(Side::White), _) => "white",
            (Some(Side::Black), _) => "black",
            (None, Finish::Aborted | Finish::AdminAborted) => "none",
            (None, _) => "draw",
        }
    }

    #[must_use]
    pub fn from_outcome(outcome: Outcome, finish: Finish, reason: String) -> GameResult {
        let winner = match outcome {
            Outcome::Winner(color) => Some(Side::of(color)),
            Outcome::Draw => None,
        };
        GameResult { winner, finish, reason }
    }
}

/// The clock of the current turn (games with days per move only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TurnClock {
    /// When the turn began (or when extra time was last given).
    pub started: Timestamp,
    pub deadline: Timestamp,
    /// Whether the quarter-time reminder was sent.
    pub reminded: bool,
    /// Whether the waiting player was told he may claim.
    pub timeout_told: bool,
}

impl TurnClock {
    #[must_use]
    pub fn new(started: Timestamp, deadline: Timestamp) -> TurnClock {
        TurnClock { started, deadline, reminded: false, timeout_told: false }
    }

    /// When the reminder is due: a quarter of the time is left.
    #[must_use]
    pub fn reminder_at(&self) -> Timestamp {
        self.deadline - crate::clock::Span((self.deadline - self.started).0 / 4)
    }

    /// The next moment something must be sent for this turn.
    #[must_use]
    pub fn next_event(&self) -> Option<Timestamp> {
        match (self.reminded, self.timeout_told) {
            (false, _) => Some(self.reminder_at()),
            (true, false) => Some(self.deadline),
            (true, true) => None,
        }
    }
}

/// One challenge and, once accepted, the game it became.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The record layout ([`FORMAT`]).
    pub format: u32,
    pub id: GameId,
    /// Bumped by every write; a write expecting another version is refused, so two
    /// commands racing on one game apply at most one.
    pub version: u64,
    /// The game's name (`go`, `chego`).
    pub game: String,
    /// Every option with its value, as the game prints them.
    pub options: Vec<(String, String)>,
    pub challenger: UserId,
    pub opponent: UserId,
    /// Display names `[challenger, opponent]`, the latest seen.
    pub names: [String; 2],
    pub color: ColorChoice,
    /// `[white, black]`, fixed when the challenge is accepted.
    pub players: Option<[UserId; 2]>,
    /// Days per move; 0 means no clock.
    pub days: u8,
    pub channel: ChannelId,
    /// The server the record belongs to: only commands from there reach it. `None` for a
    /// record started in a direct message (possible before commands became server-only);
    /// its two players reach it from anywhere, nobody else does. Missing in JSON: `None`.
    #[serde(default)]
    pub guild: Option<GuildId>,
    pub created: Timestamp,
    /// When the challenge lapses if nobody answers it.
    pub expires: Timestamp,
    pub phase: Phase,
    /// The turns as the game prints them, in order.
    pub turns: Vec<String>,
    pub clock: Option<TurnClock>,
    /// The side that offered a draw, while the offer stands.
    pub draw_offer: Option<Side>,
    pub result: Option<GameResult>,
}

/// How a record appears in a player's index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Standing {
    /// A challenge waiting for an answer.
    Pending,
    /// A game being played.
    Active,
    /// A game that is over.
    Over,
}

impl Standing {
    #[must_use]
    pub fn byte(self) -> u8 {
        match self {
            Standing::Pending => b'c',
            Standing::Active => b'a',
            Standing::Over => b'f',
        }
    }

    #[must_use]
    pub fn from_byte(byte: u8) -> Option<Standing> {
        [Standing::Pending, Standing::Active, Standing::Over].into_iter().find(|s| s.byte() == byte)
    }
}

impl GameRecord {
    #[must_use]
    pub fn kind(&self) -> Option<GameKind> {
        self.game.parse().ok()
    }

    /// Its place in the players' indices; declined, withdrawn and expired challenges have
    /// none (they are kept, but nobody lists them).
    #[must_use]
    pub fn standing(&self) -> Option<Standing> {
        match self.phase {
            Phase::Challenge => Some(Standing::Pending),
            Phase::Playing => Some(Standing::Active),
            Phase::Finished => Some(Standing::Over),
            Phase::Declined | Phase::Withdrawn | Phase::Expired => None,
        }
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
    pub fn player(&self, side: Side) -> Option<UserId> {
        self.players.map(|[white, black]| if side == Side::White { white } else { black })
    }

    /// The side `user` plays, if he plays.
    #[must_use]
    pub fn side_of(&self, user: UserId) -> Option<Side> {
        let [white, black] = self.players?;
        if user == white {
            Some(Side::White)
        } else if user == black {
            Some(Side::Black)
        } else {
            None
        }
    }

    /// The shown name of `user` (one of the two).
    #[must_use]
    pub fn name_of(&self, user: UserId) -> &str {
        if user == self.challenger { &self.names[0] } else { &self.names[1] }
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

/// What a user set, and his latest name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserRecord {
    pub format: u32,
    pub id: UserId,
    pub name: String,
    pub notify: NotifyMode,
}
