//! Why a tournament command is refused. Refusals are private and change nothing.

use crate::ids::{GameId, TournamentId};

/// A refused tournament command.
#[derive(Debug, Clone, thiserror::Error)]
pub enum TournamentRefusal {
    /// A tournament command in a direct message.
    #[error("tournaments belong to a server: use this command in one")]
    ServerOnly,
    /// `/tournament create` without Manage Server.
    #[error("creating a tournament needs the Manage Server permission in this server")]
    NeedsManageServer,
    /// Starting or cancelling someone else's tournament without Manage Server.
    #[error("only the creator of {0} or a member with Manage Server may do that")]
    NotOrganiser(TournamentId),
    /// A tournament id that is not one (the start of what was typed).
    #[error("`{0}` is not a tournament id: write it like T1")]
    BadId(String),
    /// A `starts` that is not a duration (the start of what was typed).
    #[error("`{0}` is not a duration: write it like 2d or 12h (at most 60 days)")]
    BadDuration(String),
    /// A `format` that is neither (the start of what was typed).
    #[error("`{0}` is not a tournament format: use round-robin or swiss")]
    BadFormat(String),
    /// An option of the other format.
    #[error("`{option}` is for {format} tournaments")]
    OtherFormat {
        /// The option given.
        option: &'static str,
        /// The format it belongs to.
        format: &'static str,
    },
    /// No tournament of this server has this id.
    #[error("there is no tournament {0} in this server")]
    NoSuch(TournamentId),
    /// No tournament fits a command that named none.
    #[error("there is no {0} tournament in this server")]
    NoneFits(&'static str),
    /// Several fit: which one?
    #[error("which tournament? Name it with `tournament:` — {0}")]
    WhichOne(String),
    /// Joining or starting a tournament that is not open.
    #[error("{id} is {status}: only an open tournament can be {done}")]
    NotOpen {
        /// The tournament.
        id: TournamentId,
        /// Its status.
        status: &'static str,
        /// What was asked: `joined`, `started`, `left`.
        done: &'static str,
    },
    /// Joining twice.
    #[error("you are already in {0}")]
    AlreadyIn(TournamentId),
    /// Joining a full tournament.
    #[error("{id} is full: it takes {max} players")]
    Full {
        /// The tournament.
        id: TournamentId,
        /// Its most players.
        max: u32,
    },
    /// Leaving a tournament one is not in (or withdrew from).
    #[error("you are not playing in {0}")]
    NotIn(TournamentId),
    /// Stonemate's own player asked to join.
    #[error(
        "Stonemate's own player does not play in tournaments: its games would be rated against people who never chose it"
    )]
    BotMayNotJoin,
    /// Starting with fewer than two players.
    #[error("{id} needs at least 2 players to start; it has {players}")]
    TooFew {
        /// The tournament.
        id: TournamentId,
        /// Its entrants.
        players: usize,
    },
    /// Cancelling a tournament that is over.
    #[error("{id} is {status}: there is nothing to cancel")]
    Over {
        /// The tournament.
        id: TournamentId,
        /// Its status.
        status: &'static str,
    },
    /// A page of standings past the last.
    #[error("{id}'s standings fill {}", crate::service::text::counted(*pages as usize, "page", "pages"))]
    NoPage {
        /// The tournament.
        id: TournamentId,
        /// How many pages there are.
        pages: u32,
    },
    /// A command tournament games refuse (`/takeback`, `/abort`, `/extratime`, Rematch).
    #[error("{what} is not allowed in tournament games: {game} is a game of {tournament}")]
    NotInTournaments {
        /// The command, as users write it.
        what: &'static str,
        /// The game.
        game: GameId,
        /// Its tournament.
        tournament: TournamentId,
    },
}
