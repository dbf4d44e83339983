//! Why a challenge command (`/challenge`, `/accept`, `/decline`, `/withdraw`) is refused,
//! and why a challenge is not a game one can act in yet.

use crate::service::text::counted;
use crate::service::types::GameId;

/// A refused challenge command.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ChallengeRefusal {
    /// The caller has no challenge waiting in this channel; the text adds a hint (may be
    /// empty).
    #[error("you have no challenge waiting here{0}")]
    NoneHere(String),
    /// The id names a challenge, not a game being played.
    #[error("{0} is a challenge that has not been accepted yet")]
    NotStarted(GameId),
    /// A challenge that was declined, withdrawn or expired, so there is nothing to act on.
    #[error("{id} is not a challenge waiting for an answer: it {state}")]
    NotPending {
        /// The game or challenge.
        id: GameId,
        /// What became of it, as a verb phrase ("was declined").
        state: &'static str,
    },
    /// The challenge waited too long for an answer.
    #[error("challenge {id} has expired (challenges wait {wait})")]
    Expired {
        /// The challenge.
        id: GameId,
        /// How long challenges wait, written for the caller.
        wait: String,
    },
    /// The challenge is addressed to another user.
    #[error("challenge {0} is addressed to someone else")]
    NotForYou(GameId),
    /// Only the challenger may withdraw a challenge.
    #[error("challenge {0} was sent by someone else: only its challenger can withdraw it")]
    NotYours(GameId),
    /// A challenge addressed to its own sender.
    #[error("you cannot challenge yourself")]
    Yourself,
    /// The challenger tried to accept their own open challenge.
    #[error("challenge {0} is your own open challenge: anyone else here may accept it (take it back with /withdraw)")]
    OwnOpen(GameId),
    /// An open challenge accepted from another channel than the one it was made in.
    #[error("challenge {0} is open to the members of the channel it was made in: accept it there")]
    OpenElsewhere(GameId),
    /// Someone else accepted the open challenge first.
    #[error("challenge {id} was already accepted by {name}")]
    Taken {
        /// The challenge.
        id: GameId,
        /// The display name of the player who accepted it.
        name: String,
    },
    /// An open challenge cannot be declined.
    #[error("challenge {0} is open to anyone: accept it, or leave it to expire (only its challenger can withdraw it)")]
    OpenNotDeclined(GameId),
    /// The challenger already has the most challenges allowed waiting.
    #[error(
        "you already have {} waiting for an answer: withdraw some, or wait for answers",
        counted(*.limit, "challenge", "challenges")
    )]
    TooMany {
        /// The most challenges a user may have waiting.
        limit: usize,
    },
    /// The challenger already has the most challenges allowed waiting for this opponent.
    #[error("you already have {} waiting for {name}'s answer: wait for an answer first", counted(*.limit, "challenge", "challenges"))]
    TooManyTo {
        /// The opponent's display name.
        name: String,
        /// The most challenges a user may have waiting for one opponent.
        limit: usize,
    },
    /// The opponent declined a challenge of the caller's lately, in this server.
    #[error("{name} declined your challenge within the hour: you may challenge {name} again in {wait}")]
    Declined {
        /// The opponent's display name.
        name: String,
        /// How long the caller still waits, written for him (`42 minutes`).
        wait: String,
    },
    /// The caller withdrew too many challenges to this opponent lately, in this server.
    #[error("you withdrew {count} challenges to {name} within the hour: you may challenge {name} again in {wait}")]
    Withdrawn {
        /// The opponent's display name.
        name: String,
        /// The withdrawals that make him wait.
        count: usize,
        /// How long the caller still waits, written for him (`42 minutes`).
        wait: String,
    },
    /// A player already has the most games allowed going.
    #[error("{who} already {has} {} going: finish some first", counted(*.limit, "game", "games"))]
    TooManyGames {
        /// Who: "you" or a display name.
        who: String,
        /// The verb agreeing with `who` ("have" or "has").
        has: &'static str,
        /// The most games a user may have going.
        limit: usize,
    },
}
