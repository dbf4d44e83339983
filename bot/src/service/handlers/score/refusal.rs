//! Why `/score` is refused.

use stonemate_engine::GameKind;

use crate::service::types::GameId;

/// A refused estimate.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ScoreRefusal {
    /// A game that is not scored by points (only go and Chego are).
    #[error("{id} is {}: `/score` estimates go and Chego games, which are scored by points", .kind.title())]
    NotScored {
        /// The game.
        id: GameId,
        /// Its kind.
        kind: GameKind,
    },
    /// The game's options forbid estimates during play.
    #[error("{0} was started with analysis=off: no estimate is given while it is played")]
    AnalysisOff(GameId),
    /// Tournament games are played without estimates.
    #[error("{0} is a tournament game: no estimate is given while it is played")]
    Tournament(GameId),
}
