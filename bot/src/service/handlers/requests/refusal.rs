//! Why a request (a draw offer, a takeback request, a proposal of dead pieces) is refused
//! by the one rule for requests.

use crate::service::types::GameId;

/// A kind of request one player makes of the other, which pings him.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestKind {
    /// `/draw`.
    Draw,
    /// `/takeback`.
    Takeback,
    /// `/dead` in go's counting phase.
    DeadPieces,
}

impl RequestKind {
    /// `draw offer`: the request, as a noun.
    fn noun(self) -> &'static str {
        match self {
            RequestKind::Draw => "draw offer",
            RequestKind::Takeback => "takeback request",
            RequestKind::DeadPieces => "proposal of dead pieces",
        }
    }

    /// `offered a draw`: what the player did.
    fn did(self) -> &'static str {
        match self {
            RequestKind::Draw => "offered a draw",
            RequestKind::Takeback => "asked for a takeback",
            RequestKind::DeadPieces => "proposed dead pieces",
        }
    }

    /// `offer`: the verb of asking again.
    fn verb(self) -> &'static str {
        match self {
            RequestKind::Draw => "offer",
            RequestKind::Takeback => "ask",
            RequestKind::DeadPieces => "propose",
        }
    }
}

/// A request refused by the one rule for requests.
#[derive(Debug, Clone, thiserror::Error)]
pub enum RequestRefusal {
    /// One request of a kind stands at a time: the caller's last one waits for its answer.
    #[error("your {} in {id} is waiting for {name}'s answer: one request at a time", kind.noun())]
    Standing {
        /// The kind of request.
        kind: RequestKind,
        /// The game.
        id: GameId,
        /// The opponent's display name.
        name: String,
    },
    /// A request turned down is asked again only once the opponent has played turns since.
    #[error(
        "you {} in {id} already: you may {} again once {name} has played {turns} more {}",
        kind.did(), kind.verb(), if *.turns == 1 { "turn" } else { "turns" }
    )]
    TooSoon {
        /// The kind of request.
        kind: RequestKind,
        /// The game.
        id: GameId,
        /// The opponent's display name.
        name: String,
        /// How many more turns the opponent has to play first.
        turns: usize,
    },
}
