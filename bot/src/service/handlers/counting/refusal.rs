//! Why `/dead` or a counting button is refused, and why counting leaves no room for some
//! commands (go, rule 10).

use crate::service::types::GameId;

/// A refusal about the counting phase.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CountingRefusal {
    /// `/dead` or a counting button outside the counting phase.
    #[error("{0} is not counting dead pieces: that comes after two passes in a go game with counting=on")]
    NotCounting(GameId),
    /// A command that counting leaves no room for (a claim, a conditional line).
    #[error("{0} is counting dead pieces: accept the proposal, resume play, or propose others with `/dead`")]
    Counting(GameId),
    /// The caller proposed or accepted the standing proposal already.
    #[error("you already accepted the proposal in {id}: {name} is to answer it")]
    AlreadyAccepted {
        /// The game.
        id: GameId,
        /// The display name of the player who is to answer.
        name: String,
    },
    /// A counting button pressed after the proposal it showed was replaced.
    #[error("the proposal in {0} changed since this button was shown: `/dead` shows the one standing")]
    ProposalChanged(GameId),
}
