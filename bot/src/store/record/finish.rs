//! How a finished game came out ([`Finish`]), and its stored layout: the engine's ending
//! written by a private mirror, so that the engine stays free of storage.

use serde::{Deserialize, Serialize};
use stonemate_engine::{self as engine, Color, EndReason, Outcome};

use super::names::color_name;
use crate::clock::Timestamp;

/// How a finished game came out, as its record keeps it: the engine's [`engine::Ending`]
/// (who won and why: the one result type the rules, pictures, exports and texts share),
/// plus what only the service knows: who called a game off without result, and when it
/// ended.
///
/// The engine stays free of storage, so the stored layout (format 2: `winner`, `reason`,
/// `finished`) is written and read by one private mirror, `StoredFinish`, here.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "StoredFinish", into = "StoredFinish")]
pub struct Finish {
    /// Who won (a game called off counts as [`Outcome::Draw`] here) and why.
    pub ending: engine::Ending,
    /// Who called the game off; `Some` exactly when the ending's reason is
    /// [`EndReason::Aborted`].
    pub called_off: Option<CalledOff>,
    /// When the game ended; `None` in records from before it was stored.
    pub finished: Option<Timestamp>,
}

/// Who ended a game without result.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum CalledOff {
    /// A player, before any turn; his shown name.
    Player(String),
    /// A server administrator; his shown name.
    Admin(String),
    /// Nobody: the time of the player to move ran out while one of the players had not yet
    /// played a turn of his own (nobody loses, nor is rated for, a game he never began).
    Unstarted,
}

impl Finish {
    /// The game ended with `ending` (by the rules, a resignation, an agreement or time).
    #[must_use]
    pub fn new(ending: engine::Ending) -> Finish {
        Finish { ending, called_off: None, finished: None }
    }

    /// The game was called off without result.
    #[must_use]
    pub fn called_off(by: CalledOff) -> Finish {
        let ending = engine::Ending { outcome: Outcome::Draw, reason: EndReason::Aborted };
        Finish { ending, called_off: Some(by), finished: None }
    }

    /// The same finish, dated.
    #[must_use]
    pub fn at(self, finished: Timestamp) -> Finish {
        Finish { finished: Some(finished), ..self }
    }

    /// The side that won; `None` for a draw or a game called off.
    #[must_use]
    pub fn winner(&self) -> Option<Color> {
        match self.ending.outcome {
            Outcome::Winner(side) => Some(side),
            Outcome::Draw => None,
        }
    }

    /// Whether the game ended without result.
    #[must_use]
    pub fn aborted(&self) -> bool {
        self.ending.reason == EndReason::Aborted
    }

    /// Whether the game's own rules ended it (not the players, the clock or an admin).
    #[must_use]
    pub fn by_rules(&self) -> bool {
        rule_name::RULES.contains(&self.ending.reason)
    }

    /// `white`, `black`, `draw`, or `none` for an aborted game.
    #[must_use]
    pub fn outcome_name(&self) -> &'static str {
        if self.aborted() { "none" } else { self.ending.outcome.name() }
    }
}

/// The stored layout of a [`Finish`] (format 2).
#[derive(Clone, Serialize, Deserialize)]
struct StoredFinish {
    #[serde(with = "color_name")]
    winner: Option<Color>,
    reason: Reason,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    finished: Option<Timestamp>,
}

/// Why a game ended, as stored: the rules' own reason, or what the players (or an
/// administrator) did.
#[derive(Clone, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Reason {
    Rules(#[serde(with = "rule_name")] EndReason),
    Resignation,
    Agreement,
    Timeout,
    Forfeit,
    Aborted { by: String },
    AdminAborted { by: String },
    Unstarted,
}

impl From<StoredFinish> for Finish {
    fn from(stored: StoredFinish) -> Finish {
        let outcome = stored.winner.map_or(Outcome::Draw, Outcome::Winner);
        let finish = match stored.reason {
            Reason::Rules(reason) => Finish::new(engine::Ending { outcome, reason }),
            Reason::Resignation => Finish::new(engine::Ending { outcome, reason: EndReason::Resignation }),
            Reason::Agreement => Finish::new(engine::Ending { outcome, reason: EndReason::Agreement }),
            Reason::Timeout => Finish::new(engine::Ending { outcome, reason: EndReason::Timeout }),
            Reason::Forfeit => Finish::new(engine::Ending { outcome, reason: EndReason::Forfeit }),
            Reason::Aborted { by } => Finish::called_off(CalledOff::Player(by)),
            Reason::AdminAborted { by } => Finish::called_off(CalledOff::Admin(by)),
            Reason::Unstarted => Finish::called_off(CalledOff::Unstarted),
        };
        Finish { finished: stored.finished, ..finish }
    }
}

impl From<Finish> for StoredFinish {
    fn from(finish: Finish) -> StoredFinish {
        let winner = if finish.aborted() { None } else { finish.winner() };
        let reason = match (finish.ending.reason, finish.called_off) {
            (EndReason::Resignation, _) => Reason::Resignation,
            (EndReason::Agreement, _) => Reason::Agreement,
            (EndReason::Timeout, _) => Reason::Timeout,
            (EndReason::Forfeit, _) => Reason::Forfeit,
            (EndReason::Aborted, Some(CalledOff::Player(by))) => Reason::Aborted { by },
            (EndReason::Aborted, Some(CalledOff::Admin(by))) => Reason::AdminAborted { by },
            // `Finish::called_off` is the only way to an abort; none without a caller.
            (EndReason::Aborted, Some(CalledOff::Unstarted) | None) => Reason::Unstarted,
            (rules, _) => Reason::Rules(rules),
        };
        StoredFinish { winner, reason, finished: finish.finished }
    }
}

/// A rules' end reason stored by the engine's name for it (`two passes`, `checkmate`).
mod rule_name {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};
    use stonemate_engine::EndReason;

    /// The reasons the rules make (the others are the players' and have their own
    /// stored [`super::Reason`] variants).
    pub const RULES: [EndReason; 10] = [
        EndReason::TwoPasses,
        EndReason::Counted,
        EndReason::Checkmate,
        EndReason::NoLegalTurn,
        EndReason::Repetition,
        EndReason::PerpetualCheck,
        EndReason::RingDestroyed,
        EndReason::KingCaptured,
        EndReason::BothKingsCaptured,
        EndReason::NoCaptureFor50Turns,
    ];

    pub fn parse(text: &str) -> Option<EndReason> {
        RULES.into_iter().find(|reason| reason.to_string() == text)
    }

    pub fn serialize<S: Serializer>(reason: &EndReason, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(reason)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<EndReason, D::Error> {
        let text = String::deserialize(deserializer)?;
        parse(&text).ok_or_else(|| D::Error::custom(format!("unknown end reason `{text}`")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finish_times_are_optional_in_stored_results() {
        let old: Finish = serde_json::from_str(r#"{"winner":"white","reason":"resignation"}"#).unwrap();
        assert_eq!(old.finished, None);
        let dated = old.clone().at(Timestamp(7));
        assert_eq!(serde_json::from_str::<Finish>(&serde_json::to_string(&dated).unwrap()).unwrap(), dated);
    }
}
