//! The clock of the current turn of a game with days per move ([`TurnClock`]), read from
//! every layout it was stored in.

use serde::{Deserialize, Serialize};

use crate::clock::{Span, Timestamp};

/// The clock of the current turn (games with days per move only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "StoredClock")]
pub struct TurnClock {
    /// When the turn began (or when extra time was last given), moved on by pauses.
    pub started: Timestamp,
    /// When the turn's time runs out (after the pauses it stood still for).
    pub deadline: Timestamp,
    /// When the next reminder is due; `None` once none is left for this turn. The service
    /// picks it from its reminder points, so the store can index it without them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remind_at: Option<Timestamp>,
    /// Whether the waiting player was told he may claim.
    pub timeout_told: bool,
    /// The end of the latest pause (a player's vacation) this clock stood still for; the
    /// times above have already been moved on by it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused_until: Option<Timestamp>,
}

impl TurnClock {
    /// A clock from `started` to `deadline`, without reminders yet (the service sets
    /// them: it knows its reminder points).
    #[must_use]
    pub fn new(started: Timestamp, deadline: Timestamp) -> TurnClock {
        TurnClock { started, deadline, remind_at: None, timeout_told: false, paused_until: None }
    }

    /// The next moment something must be sent for this turn.
    #[must_use]
    pub fn next_event(&self) -> Option<Timestamp> {
        match (self.remind_at, self.timeout_told) {
            (_, true) => None,
            (Some(remind), false) => Some(remind.min(self.deadline)),
            (None, false) => Some(self.deadline),
        }
    }

    /// The clock moved on by `span` (negative: back), as a pause moves it.
    #[must_use]
    pub fn shifted(self, span: Span) -> TurnClock {
        TurnClock {
            started: self.started + span,
            deadline: self.deadline + span,
            remind_at: self.remind_at.map(|at| at + span),
            ..self
        }
    }
}

/// A clock as stored by any format: before configurable reminders it held
/// `reminded: bool` for its one reminder, at a quarter of the time left.
#[derive(Deserialize)]
struct StoredClock {
    started: Timestamp,
    deadline: Timestamp,
    #[serde(default)]
    reminded: Option<bool>,
    #[serde(default)]
    remind_at: Option<Timestamp>,
    #[serde(default)]
    timeout_told: bool,
    #[serde(default)]
    paused_until: Option<Timestamp>,
}

impl From<StoredClock> for TurnClock {
    fn from(stored: StoredClock) -> TurnClock {
        // An old turn not yet reminded keeps its quarter-time reminder; a reminded one has
        // none left.
        let quarter = stored.deadline - Span((stored.deadline - stored.started).0 / 4);
        let remind_at = match stored.reminded {
            Some(false) => Some(quarter),
            Some(true) => None,
            None => stored.remind_at,
        };
        TurnClock {
            started: stored.started,
            deadline: stored.deadline,
            remind_at,
            timeout_told: stored.timeout_told,
            paused_until: stored.paused_until,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(json: &str) -> TurnClock {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn old_clocks_keep_their_quarter_reminder_until_it_was_sent() {
        let waiting = clock(r#"{"started":0,"deadline":400,"reminded":false,"timeout_told":false}"#);
        assert_eq!((waiting.remind_at, waiting.next_event()), (Some(Timestamp(300)), Some(Timestamp(300))));
        let reminded = clock(r#"{"started":0,"deadline":400,"reminded":true,"timeout_told":false}"#);
        assert_eq!((reminded.remind_at, reminded.next_event()), (None, Some(Timestamp(400))));
        let told = clock(r#"{"started":0,"deadline":400,"reminded":true,"timeout_told":true}"#);
        assert_eq!(told.next_event(), None);
    }

    #[test]
    fn clocks_round_trip_without_the_old_field() {
        let new = TurnClock {
            remind_at: Some(Timestamp(100)),
            paused_until: Some(Timestamp(50)),
            ..TurnClock::new(Timestamp(0), Timestamp(400))
        };
        let json = serde_json::to_string(&new).unwrap();
        assert!(!json.contains("reminded"), "{json}");
        assert_eq!(clock(&json), new);
    }
}
