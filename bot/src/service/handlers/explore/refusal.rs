//! Why `/explore` is refused.

use crate::service::types::GameId;

/// A refused exploration.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ExploreRefusal {
    /// A line with no turn in it; the text shows how the option is written.
    #[error("write the turns to try in the game's notation, like `{0}`")]
    EmptyLine(String),
    /// A Keep as conditional pressed after the game changed.
    #[error("{0} has changed since this line was explored: nothing was stored (explore it again)")]
    MovedOn(GameId),
}
