//! Why `/takeback` or a takeback button is refused.

use crate::service::types::GameId;

/// A refused takeback.
#[derive(Debug, Clone, thiserror::Error)]
pub enum TakebackRefusal {
    /// `/takeback` by a player who has played no turn yet.
    #[error("you have played no turn to take back in {0}")]
    NoTurn(GameId),
    /// `/takeback` while the opponent's request waits for the caller's answer (his own
    /// standing request is the one rule for requests).
    #[error("a takeback is already waiting for an answer in {0}")]
    Pending(GameId),
    /// A takeback button pressed with no request standing for the caller to answer (none
    /// made, answered already, his own, or a turn played since).
    #[error("there is no takeback to answer in {0}")]
    NoRequest(GameId),
    /// Stonemate declines takebacks in rated games.
    #[error("Stonemate declines takebacks in rated games ({0})")]
    Declined(GameId),
}
