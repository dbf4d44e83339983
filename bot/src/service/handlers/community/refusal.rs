//! Why a community command (a rematch, `/ratings`, `/stats`) is refused.

use crate::service::types::GameId;

/// A refused community command.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CommunityRefusal {
    /// A rematch asked for a game still being played.
    #[error("{0} is not over yet: a rematch is offered once it ends")]
    NotOver(GameId),
    /// A Rematch press when the rematch is already asked for (and waits for the
    /// opponent's answer) or being played.
    #[error("the rematch of {id} is {rematch}{}", if *.waiting { ", waiting for your opponent's answer" } else { ", being played" })]
    RematchMade {
        /// The finished game.
        id: GameId,
        /// Its rematch.
        rematch: GameId,
        /// Whether the rematch is a challenge waiting for an answer.
        waiting: bool,
    },
    /// A server's command (ratings, stats) used in a direct message.
    #[error("ratings and stats belong to a server: use this command in one")]
    ServerOnly,
}
