//! Why an ending command (`/resign`, `/draw`, `/abort`, `/claim`, `/extratime`,
//! `/admin-abort`) is refused.

use crate::service::types::GameId;

/// A refused ending command.
#[derive(Debug, Clone, thiserror::Error)]
pub enum EndingRefusal {
    /// `/admin-abort` by someone without the Manage Server permission, or outside a server.
    #[error("only members with the Manage Server permission may use /admin-abort, in their server")]
    NotAdmin,
    /// `/admin-abort` of a game the administrator plays in himself.
    #[error("{0} is your own game: an administrator cannot abort it (`/abort` before any turn, or `/resign`)")]
    AdminOwnGame(GameId),
    /// An abort after turns have been played.
    #[error("{0} cannot be aborted: turns have been played (resign instead)")]
    AbortTooLate(GameId),
    /// An answer to a draw offer that no one made.
    #[error("there is no draw offer to answer in {0}")]
    NoDrawOffer(GameId),
    /// A clock command for a game without a clock.
    #[error("{0} has no clock (0 days per move)")]
    NoClock(GameId),
    /// A claim on time while the player to move still has time left.
    #[error("{id}: {name}'s time for this turn runs out {due}")]
    TimeLeft {
        /// The game.
        id: GameId,
        /// The display name of the player to move.
        name: String,
        /// When their time runs out, written for the caller.
        due: String,
    },
    /// A command only the waiting player may use, used by the player to move; the text
    /// names what they tried.
    #[error("it is your turn in {0}: only the waiting player can {1}")]
    OwnTurn(GameId, &'static str),
}
