//! Decisions the bot takes from a search's value: answering a draw offer, resigning.
//!
//! The value is the side to move's expected score (0 lost, 0.5 even, 1 won).

use crate::search::{Proof, SearchResult};

/// The bot accepts a draw when its expected score is at most this: even or worse.
pub const DRAW_ACCEPT_AT_MOST: f64 = 0.5;
/// The bot resigns only below this expected score...
pub const RESIGN_BELOW: f64 = 0.03;
/// ...and only after a search of at least this many nodes, so that a tiny search's
/// noise never gives up a game.
pub const RESIGN_MIN_NODES: u64 = 500;

/// Whether the bot, to move after this search, accepts a draw offer: only when the
/// position is even or worse for it, never when it has proven a win.
#[must_use]
pub fn accepts_draw(result: &SearchResult) -> bool {
    result.proven != Some(Proof::Win) && result.value <= DRAW_ACCEPT_AT_MOST
}

/// Whether the bot resigns instead of playing: only a proven loss, or a hopeless value
/// from a search big enough to trust.
#[must_use]
pub fn resigns(result: &SearchResult) -> bool {
    result.proven == Some(Proof::Loss) || (result.value < RESIGN_BELOW && result.nodes >= RESIGN_MIN_NODES)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use stonemate_engine::Turn;

    use super::*;

    fn result(value: f64, nodes: u64, proven: Option<Proof>) -> SearchResult {
        SearchResult { turn: Turn::Pass, value, nodes, elapsed: Duration::ZERO, proven, root: Vec::new() }
    }

    #[test]
    fn a_draw_is_accepted_only_when_even_or_worse() {
        assert!(accepts_draw(&result(0.5, 1000, None)));
        assert!(accepts_draw(&result(0.2, 1000, None)));
        assert!(!accepts_draw(&result(0.51, 1000, None)));
        assert!(!accepts_draw(&result(0.4, 1000, Some(Proof::Win))));
    }

    #[test]
    fn only_hopeless_positions_are_resigned() {
        assert!(resigns(&result(0.01, 5000, None)));
        assert!(resigns(&result(0.3, 10, Some(Proof::Loss))));
        assert!(!resigns(&result(0.01, 100, None)), "too small a search to trust");
        assert!(!resigns(&result(0.05, 5000, None)));
    }
}
