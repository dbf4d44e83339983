//! What a turn would do, in words, for any game: the position after it compared with the
//! position before (pieces taken from each side, a promotion, check, the end of the game),
//! so that a player can confirm a turn he picked without reading notation.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::any::{AnyGame, TurnError};
use crate::game::{BoardView, Cell, EndReason, Outcome};
use crate::piece::Role;
use crate::square::Color;
use crate::turn::Turn;

/// A turn tried on a copy of the position: the position after it and what it does.
#[derive(Debug, Clone)]
pub struct Preview {
    /// The turn, as the game prints it.
    pub notation: String,
    /// The position after the turn (its view marks the turn and its captures).
    pub after: AnyGame,
    /// What the turn does, as a sentence: `Nxe5: captures a pawn.`
    pub words: String,
}

/// Tries `turn` on a copy of `game`; refused turns are refused as [`AnyGame::play`] does.
pub fn preview(game: &AnyGame, turn: Turn) -> Result<Preview, TurnError> {
    let notation = game.format_turn(turn);
    let mut after = game.clone();
    after.play(turn)?;
    let words = format!("{notation}: {}.", effects(&game.view(), &after.view(), turn).join(", "));
    Ok(Preview { notation, after, words })
}

/// What changed between the two views, in the order a player cares about.
fn effects(before: &BoardView, after: &BoardView, turn: Turn) -> Vec<String> {
    let mover = before.status.to_move().unwrap_or(Color::White);
    let name = |color: Color| before.side_names[color.index()];
    let mut said = Vec::new();
    let taken = lost(before, after, mover.other());
    if taken.is_empty() {
        said.push("captures nothing".to_owned());
    } else {
        said.push(format!("captures {}", list(&taken)));
    }
    let own = lost(before, after, mover);
    if !own.is_empty() && !matches!(turn, Turn::Relocate { .. } | Turn::Move { promotion: Some(_), .. }) {
        said.push(format!("gives up {} of {}'s own", list(&own), name(mover)));
    }
    if let Turn::Move { promotion: Some(role), .. } = turn {
        said.push(format!("promotes to a {}", role.name()));
    }
    if !after.checked.is_empty() && after.status.ending().is_none() {
        said.push("check".to_owned());
    }
    if let Some(ending) = after.status.ending() {
        let loser = match ending.outcome {
            Outcome::Winner(color) => Some(color.other()),
            Outcome::Draw => None,
        };
        said.push(match (ending.reason, loser) {
            (EndReason::RingDestroyed, Some(loser)) => format!("takes {}'s last ring", name(loser)),
            (EndReason::KingCaptured | EndReason::BothKingsCaptured, Some(loser)) => {
                format!("takes {}'s king", name(loser))
            }
            (EndReason::Checkmate, _) => "checkmate".to_owned(),
            (reason, Some(loser)) => format!("ends the game ({reason}): {} wins", name(loser.other())),
            (reason, None) => format!("ends the game in a draw ({reason})"),
        });
    }
    said
}

/// The pieces of `color` on the board before and not after, by role (a piece that only
/// moved is not lost; one that changed role, promoted, counts as its old role lost).
fn lost(before: &BoardView, after: &BoardView, color: Color) -> BTreeMap<Role, usize> {
    let count = |view: &BoardView| {
        let mut counts: BTreeMap<Role, usize> = BTreeMap::new();
        for cell in &view.cells {
            if let Cell::Piece(piece) = cell {
                if piece.color == color {
                    *counts.entry(piece.role).or_default() += 1;
                }
            }
        }
        counts
    };
    let (was, now) = (count(before), count(after));
    was.into_iter()
        .filter_map(|(role, had)| {
            let gone = had.saturating_sub(now.get(&role).copied().unwrap_or_default());
            (gone > 0).then_some((role, gone))
        })
        .collect()
}

/// `a knight and 3 stones`.
fn list(pieces: &BTreeMap<Role, usize>) -> String {
    let items: Vec<String> = pieces
        .iter()
        .map(|(role, &count)| {
            let name = role.name();
            match count {
                1 => format!("{} {name}", if name.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" }),
                _ if name.ends_with('z') => format!("{count} {name}es"),
                _ => format!("{count} {name}s"),
            }
        })
        .collect();
    let mut text = String::new();
    for (index, item) in items.iter().enumerate() {
        let gap = match index {
            0 => "",
            _ if index + 1 == items.len() => " and ",
            _ => ", ",
        };
        let _ = write!(text, "{gap}{item}");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameKind;

    #[test]
    fn a_gess_opening_says_what_it_takes() {
        let game = AnyGame::new(GameKind::Gess, &[]).unwrap();
        for turn in game.legal_turns() {
            let preview = preview(&game, turn).unwrap();
            assert!(preview.words.starts_with(&format!("{}: captures ", preview.notation)), "{}", preview.words);
        }
    }

    #[test]
    fn lists_read_as_english() {
        let pieces: BTreeMap<Role, usize> = [(Role::Knight, 1), (Role::Stone, 3), (Role::Ferz, 2)].into();
        assert_eq!(list(&pieces), "a knight, 2 ferzes and 3 stones");
    }
}
