//! Ruling I3: fourfold repetition, and the perpetual checker losing.
//!
//! Every position of a game (board, both hands, side to move) is kept as a Zobrist key
//! together with whether the turn that made it gave check. Hands are part of the key, so a
//! position only repeats when the same pieces are in hand as well.

use super::bitboard as bb;
use super::position::{Position, ROLES};
use crate::game::{EndReason, Ending, Outcome};
use crate::square::Color;

/// How often a position must arise to end the game.
const REPETITIONS: usize = 4;

/// Hand counts up to this are hashed distinctly (set-ups allow at most 16 of a kind).
const HAND_COUNTS: usize = 17;

const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Pseudo-random keys: `[color][role][square]` for pieces, then `[color][role][count]` for
/// hands, then one for Black to move.
const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut keys = [0; N];
    let mut i = 0;
    while i < N {
        keys[i] = splitmix(seed.wrapping_add((i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)));
        i += 1;
    }
    keys
}

static PIECE_KEYS: [u64; 2 * 7 * 64] = keys(1 << 40);
static HAND_KEYS: [u64; 2 * 7 * HAND_COUNTS] = keys(2 << 40);
const BLACK_TO_MOVE: u64 = splitmix(3);

/// The Zobrist key of a position.
pub(crate) fn key(position: &Position) -> u64 {
    let mut key = if position.turn() == Color::Black { BLACK_TO_MOVE } else { 0 };
    for color in Color::BOTH {
        for (r, &role) in ROLES.iter().enumerate() {
            for square in bb::squares(position.pieces(color, role)) {
                key ^= PIECE_KEYS[(color.index() * 7 + r) * 64 + usize::from(square)];
            }
            let count = usize::from(position.hand(color).count(role)).min(HAND_COUNTS - 1);
            key ^= HAND_KEYS[(color.index() * 7 + r) * HAND_COUNTS + count];
        }
    }
    key
}

/// One position of the game so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Entry {
    pub key: u64,
    /// The turn that made this position gave check (the side to move is in check).
    pub check: bool,
}

/// The ending, if the last position arose for the fourth time. The turns since its first
/// occurrence decide: if every turn of one player gave check, that player loses; otherwise
/// (or if both did) the game is drawn.
pub(crate) fn verdict(history: &[Entry], last_mover: Color) -> Option<Ending> {
    let (&last, _) = history.split_last()?;
    let occurrences: Vec<usize> =
        history.iter().enumerate().filter(|(_, e)| e.key == last.key).map(|(i, _)| i).collect();
    if occurrences.len() < REPETITIONS {
        return None;
    }
    let first = occurrences[0];
    let span = &history[first + 1..];
    // span[span.len() - 1] is the last mover's turn; going back, the players alternate.
    let all_checks = |parity: usize| span.iter().rev().skip(parity).step_by(2).all(|entry| entry.check);
    let (last_checked, other_checked) = (all_checks(0), all_checks(1));
    let ending = match (last_checked, other_checked) {
        (true, false) => Ending { outcome: Outcome::Winner(last_mover.other()), reason: EndReason::PerpetualCheck },
        (false, true) => Ending { outcome: Outcome::Winner(last_mover), reason: EndReason::PerpetualCheck },
        _ => Ending { outcome: Outcome::Draw, reason: EndReason::Repetition },
    };
    Some(ending)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(pattern: &[(u64, bool)]) -> Vec<Entry> {
        pattern.iter().map(|&(key, check)| Entry { key, check }).collect()
    }

    #[test]
    fn three_occurrences_are_not_enough() {
        let history = entries(&[(1, false), (2, false), (1, false), (2, false), (1, false)]);
        assert_eq!(verdict(&history, Color::Black), None);
    }

    #[test]
    fn fourth_occurrence_draws() {
        let cycle = [(1, false), (2, false), (3, false), (4, false)];
        let mut pattern: Vec<(u64, bool)> = cycle.iter().cycle().take(12).copied().collect();
        pattern.push((1, false));
        let ending = verdict(&entries(&pattern), Color::Black).unwrap();
        assert_eq!((ending.outcome, ending.reason), (Outcome::Draw, EndReason::Repetition));
    }

    #[test]
    fn the_perpetual_checker_loses() {
        // White's turns (into even keys) all check; Black's do not.
        let cycle = [(1, false), (2, true), (3, false), (4, true)];
        let mut pattern: Vec<(u64, bool)> = cycle.iter().cycle().take(12).copied().collect();
        pattern.push((1, false));
        let ending = verdict(&entries(&pattern), Color::Black).unwrap();
        assert_eq!(ending.outcome, Outcome::Winner(Color::Black));
        assert_eq!(ending.reason, EndReason::PerpetualCheck);
    }

    #[test]
    fn keys_tell_hands_and_side_apart() {
        let start = Position::start();
        let mut other_side = start;
        other_side.play(super::super::position::Mv::Drop { role: crate::piece::Role::Queen, to: 0 });
        assert_ne!(key(&start), key(&other_side));
        let board = "6nk/8/8/8/8/8/8/KN6";
        let same_board = |hands: &str| key(&Position::from_fen(&format!("{board}[{hands}] w")).unwrap());
        assert_ne!(same_board("P"), same_board("p"), "hands are part of the position");
        assert_ne!(same_board("P"), same_board("PP"));
        assert_eq!(same_board("PN"), same_board("NP"));
    }
}
