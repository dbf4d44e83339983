//! A tournament as the store keeps it ([`TournamentRecord`]): who made it where, on what
//! terms, who joined, and once started the pure [`Tournament`] state with the map from its
//! games to ours. JSON, like the game records; fields added later read as their default.

use serde::{Deserialize, Serialize};
use stonemate_engine::GameKind;
use stonemate_tournament::{Entrant, Format, GameRef, PlayerId, Tournament};

use crate::clock::Timestamp;
use crate::ids::{ChannelId, GameId, GuildId, TournamentId, UserId};
use crate::store::record::kind_name;

/// Where a tournament stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TournamentStatus {
    /// Taking entrants.
    Open,
    /// Started: its games are being played.
    Running,
    /// Every game played (or a Swiss round could not be paired).
    Finished,
    /// Removed before the start, or ended by its organisers.
    Cancelled,
}

impl TournamentStatus {
    /// Every status, in the order `/tournament list` shows them.
    pub const ALL: [TournamentStatus; 4] =
        [TournamentStatus::Open, TournamentStatus::Running, TournamentStatus::Finished, TournamentStatus::Cancelled];

    /// The status as users read and type it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            TournamentStatus::Open => "open",
            TournamentStatus::Running => "running",
            TournamentStatus::Finished => "finished",
            TournamentStatus::Cancelled => "cancelled",
        }
    }

    /// The byte of its entry in the per-server index.
    #[must_use]
    pub fn byte(self) -> u8 {
        self.name().as_bytes()[0]
    }

    /// The status of an index entry's byte.
    #[must_use]
    pub fn from_byte(byte: u8) -> Option<TournamentStatus> {
        TournamentStatus::ALL.into_iter().find(|status| status.byte() == byte)
    }
}

/// One entrant as he joined: the user and the name he was shown with.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Joined {
    /// The user.
    pub user: UserId,
    /// His shown name when he joined.
    pub name: String,
}

/// One tournament: its terms, its entrants in joining order and, once started, its state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentRecord {
    /// Its number in this database (`T1`).
    pub id: TournamentId,
    /// Bumped by every write.
    pub version: u64,
    /// The server it belongs to.
    pub guild: GuildId,
    /// The channel it was created in: its news and its games go there.
    pub channel: ChannelId,
    /// Who created it.
    pub creator: UserId,
    /// Its name as shown (already checked and cut).
    pub name: String,
    /// The game its games are of.
    #[serde(rename = "game", with = "kind_name")]
    pub kind: GameKind,
    /// The game's options, as the game prints them.
    pub options: Vec<(String, String)>,
    /// Days per move of its games (always at least 1).
    pub days: u8,
    /// Round robin or Swiss, with their settings.
    pub format: Format,
    /// Whether its results are rated.
    pub rated: bool,
    /// The most entrants it takes.
    pub max: u32,
    /// When it starts by itself (if it has two entrants then).
    #[serde(default)]
    pub starts_at: Option<Timestamp>,
    /// When it was created.
    pub created: Timestamp,
    /// Where it stands.
    pub status: TournamentStatus,
    /// Who joined, in joining order.
    pub entrants: Vec<Joined>,
    /// The pure state, once started.
    #[serde(default)]
    pub state: Option<Tournament>,
    /// Our game of each of its games, indexed by [`GameRef`].
    #[serde(default)]
    pub games: Vec<GameId>,
    /// The message showing the standings, to edit after each result (Discord's id).
    #[serde(default)]
    pub standings_message: Option<u64>,
}

impl TournamentRecord {
    /// Our game of its game `game`.
    #[must_use]
    pub fn game_id(&self, game: GameRef) -> Option<GameId> {
        self.games.get(game.index()).copied()
    }

    /// Its game that is our game `id`.
    #[must_use]
    pub fn game_ref(&self, id: GameId) -> Option<GameRef> {
        self.games.iter().position(|game| *game == id).map(|index| GameRef(index as u32))
    }

    /// Whether `user` joined it.
    #[must_use]
    pub fn has_entrant(&self, user: UserId) -> bool {
        self.entrants.iter().any(|joined| joined.user == user)
    }

    /// The shown name of entrant `user` (`?` for a stranger).
    #[must_use]
    pub fn name_of(&self, user: UserId) -> &str {
        self.entrants.iter().find(|joined| joined.user == user).map_or("?", |joined| joined.name.as_str())
    }

    /// The entrants as the pure domain takes them, with their ratings (`rating_of`).
    pub fn entrants_rated(&self, rating_of: impl Fn(UserId) -> Option<i32>) -> Vec<Entrant> {
        self.entrants
            .iter()
            .map(|joined| Entrant { id: PlayerId(joined.user.0), rating: rating_of(joined.user) })
            .collect()
    }
}
