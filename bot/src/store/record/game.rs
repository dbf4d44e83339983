//! A challenge and the game it became ([`GameRecord`]): what is played, by whom
//! ([`Seats`]), where and since when ([`Origin`]), how far it has come (its phase, turns
//! and clock), what waits between the players ([`Pending`]) and how it ended
//! ([`Finish`]). The position is never stored: it is rebuilt by replaying the turns
//! (style principle 5).

use serde::{Deserialize, Serialize};
use stonemate_ai::Level;
use stonemate_engine::GameKind;

use super::clock::TurnClock;
use super::finish::Finish;
use super::pending::Pending;
use super::seats::Seats;
use crate::clock::Timestamp;
use crate::ids::{ChannelId, GameId, GuildId, TournamentId, UserId};

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

/// Where and when a challenge was made, until when it waits, and what made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Origin {
    /// The channel the challenge was made in, where its notices go.
    pub channel: ChannelId,
    /// The server the record belongs to: only commands from there reach it. `None` for a
    /// record started in a direct message (possible before commands became server-only);
    /// its two players reach it from anywhere, nobody else does.
    pub guild: Option<GuildId>,
    /// When the challenge was made.
    pub created: Timestamp,
    /// When the challenge lapses if nobody answers it.
    pub expires: Timestamp,
    /// The finished game whose Rematch button made this challenge (or game against the
    /// bot), so that a second press, or the opponent's, finds it instead of making
    /// another.
    pub rematch_of: Option<GameId>,
    /// The tournament game this is, if it is one: tournament games refuse takebacks,
    /// aborts and extra time, offer no Rematch, and report their result to the tournament.
    pub tournament: Option<TournamentTag>,
    /// The game's thread, once its server's `threads:on` asked Discord for one.
    pub thread: Option<Thread>,
}

/// What became of the thread a game asked for (`/settings threads:on`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Thread {
    /// Opened: this channel id is the thread's, where the game's messages go.
    Open(ChannelId),
    /// Discord refused it (missing permission): the game goes on in its channel, and the
    /// thread is not asked for again.
    Refused,
}

/// Which tournament a game belongs to, and in which round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TournamentTag {
    /// The tournament.
    pub id: TournamentId,
    /// The round (a Swiss round, or the round of a round robin's schedule).
    pub round: u32,
}

/// One challenge and, once accepted, the game it became. Stored as JSON in one flat
/// layout (`super::stored` writes and reads it, with every earlier format).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's or challenge's number.
    pub id: GameId,
    /// Bumped by every write; a write expecting another version is refused, so two
    /// commands racing on one game apply at most one.
    pub version: u64,
    /// The game's kind.
    pub kind: GameKind,
    /// Every option with its value, as the game prints them.
    pub options: Vec<(String, String)>,
    /// Days per move; 0 means no clock.
    pub days: u8,
    /// Who plays, and which colours.
    pub seats: Seats,
    /// Where and when the challenge was made.
    pub origin: Origin,
    /// Where the record stands.
    pub phase: Phase,
    /// The turns as the game prints them, in order.
    pub turns: Vec<String>,
    /// The clock of the current turn; `None` without days per move or when no turn runs.
    pub clock: Option<TurnClock>,
    /// What waits between the players.
    pub pending: Pending,
    /// How the game ended; `None` until it is finished.
    pub result: Option<Finish>,
}

impl GameRecord {
    /// Ends the game with `finish`: no clock runs, and nothing stays pending
    /// ([`Pending::finished`]).
    pub fn finish(&mut self, finish: Finish) {
        self.phase = Phase::Finished;
        self.clock = None;
        self.pending.finished();
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
            Phase::Challenge => Some(self.origin.expires),
            Phase::Playing => self.clock.and_then(|clock| clock.next_event()),
            _ => None,
        }
    }

    /// The user who made the challenge.
    #[must_use]
    pub fn challenger(&self) -> UserId {
        self.seats.challenger.user
    }

    /// The user the challenge is addressed to (`NOBODY` while an open challenge
    /// waits).
    #[must_use]
    pub fn opponent(&self) -> UserId {
        self.seats.opponent.user
    }

    /// The shown name of `user` (one of the two).
    #[must_use]
    pub fn name_of(&self, user: UserId) -> &str {
        &self.seats.seat_of(user).name
    }

    /// The channel the challenge was made in, where its notices go.
    #[must_use]
    pub fn channel(&self) -> ChannelId {
        self.origin.channel
    }

    /// The game's open thread, if it has one: where its messages go instead of
    /// [`GameRecord::channel`].
    #[must_use]
    pub fn thread(&self) -> Option<ChannelId> {
        match self.origin.thread {
            Some(Thread::Open(thread)) => Some(thread),
            _ => None,
        }
    }

    /// Whether `channel` is the game's: its channel, or its thread.
    #[must_use]
    pub fn is_in(&self, channel: ChannelId) -> bool {
        channel == self.origin.channel || self.thread() == Some(channel)
    }

    /// The server the record belongs to (`None`: a record from a direct message).
    #[must_use]
    pub fn guild(&self) -> Option<GuildId> {
        self.origin.guild
    }

    /// The level of Stonemate's own player in a game against the bot.
    #[must_use]
    pub fn level(&self) -> Option<Level> {
        self.seats.bot
    }

    /// Whether this is a game against Stonemate's own player (which ratings leave out).
    #[must_use]
    pub fn against_bot(&self) -> bool {
        self.seats.bot.is_some()
    }

    /// Whether both players have played a turn of their own. Every game of the engine
    /// gives the move to the other side after each turn, so that is two turns recorded.
    /// Until then a game whose time runs out is aborted, not lost, and no result of it
    /// is rated.
    #[must_use]
    pub fn both_played(&self) -> bool {
        self.turns.len() >= 2
    }
}
