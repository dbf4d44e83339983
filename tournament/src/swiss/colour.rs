//! Colours in a Swiss, after the Dutch system: each player's preference from his colour
//! history, the absolute rule (never a colour difference past ±2, never the same colour
//! three times running), and which of two paired players gets White.

use std::cmp::Ordering;

use crate::ids::Colour;
use crate::swiss::history::Past;

/// How much a player wants his preferred colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Strength {
    /// Evenly balanced: he would like to alternate.
    Mild,
    /// One colour more than the other.
    Strong,
    /// The other colour would break the absolute rule.
    Absolute,
}

/// A player's colour preference; `None` before his first played game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Preference {
    /// The colour he should get.
    pub colour: Colour,
    /// How much it matters.
    pub strength: Strength,
}

/// The preference that `past` gives: the colour he has had less often, else the other one
/// than in his last game; absolute when the other would make the difference 3 or give the
/// same colour three times running.
pub(crate) fn preference(past: &Past) -> Option<Preference> {
    let last = *past.colours.last()?;
    let difference = past.colour_difference();
    let twice = past.colours.len() >= 2 && past.colours[past.colours.len() - 2] == last;
    let (colour, strength) = match difference {
        d if d > 1 => (Colour::Black, Strength::Absolute),
        d if d < -1 => (Colour::White, Strength::Absolute),
        _ if twice => (last.other(), Strength::Absolute),
        1 => (Colour::Black, Strength::Strong),
        -1 => (Colour::White, Strength::Strong),
        _ => (last.other(), Strength::Mild),
    };
    Some(Preference { colour, strength })
}

/// Whether two players may meet without either breaking the absolute colour rule: not
/// when both must have the same colour.
pub(crate) fn compatible(a: Option<Preference>, b: Option<Preference>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => {
            !(a.strength == Strength::Absolute && b.strength == Strength::Absolute && a.colour == b.colour)
        }
        _ => true,
    }
}

/// Whether both players can have their preferred colours.
pub(crate) fn both_satisfied(a: Option<Preference>, b: Option<Preference>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.colour != b.colour,
        _ => true,
    }
}

/// The colour of `higher` (the better-ranked of the two) against `lower`. `board_white`
/// is his colour when neither has a preference (round 1: alternating by board).
///
/// Preferences that differ are both met; otherwise the stronger preference wins, then the
/// larger colour difference, then the colours alternate from the last game in which they
/// had different colours, then the higher-ranked player has his way.
pub(crate) fn allocate(higher: &Past, lower: &Past, board_white: bool) -> Colour {
    let (a, b) = (preference(higher), preference(lower));
    match (a, b) {
        (None, None) => {
            if board_white {
                Colour::White
            } else {
                Colour::Black
            }
        }
        (Some(a), None) => a.colour,
        (None, Some(b)) => b.colour.other(),
        (Some(a), Some(b)) if a.colour != b.colour => a.colour,
        (Some(a), Some(b)) => match a.strength.cmp(&b.strength) {
            Ordering::Greater => a.colour,
            Ordering::Less => a.colour.other(),
            Ordering::Equal => tied(higher, lower, a.colour),
        },
    }
}

/// Both want `wanted` equally: the larger imbalance, then alternation from their last
/// differing game, then the higher-ranked.
fn tied(higher: &Past, lower: &Past, wanted: Colour) -> Colour {
    let (dh, dl) = (higher.colour_difference().abs(), lower.colour_difference().abs());
    if dh != dl {
        return if dh > dl { wanted } else { wanted.other() };
    }
    let differing = higher.colours.iter().rev().zip(lower.colours.iter().rev()).find(|(h, l)| h != l);
    match differing {
        Some((&had, _)) => had.other(),
        None => wanted,
    }
}

#[cfg(test)]
mod tests {
    use super::{Strength, allocate, preference};
    use crate::ids::Colour::{self, Black, White};
    use crate::swiss::history::Past;

    fn past(colours: &[Colour]) -> Past {
        Past { colours: colours.to_vec(), ..Past::default() }
    }

    #[test]
    fn two_of_a_colour_running_make_the_other_absolute() {
        let preferred = preference(&past(&[Black, White, White])).unwrap();
        assert_eq!((preferred.colour, preferred.strength), (Black, Strength::Absolute));
        let preferred = preference(&past(&[White, Black, White])).unwrap();
        assert_eq!((preferred.colour, preferred.strength), (Black, Strength::Strong));
        let preferred = preference(&past(&[White, Black])).unwrap();
        assert_eq!((preferred.colour, preferred.strength), (White, Strength::Mild));
        assert_eq!(preference(&past(&[])), None);
    }

    #[test]
    fn the_stronger_preference_gets_its_colour() {
        // Both want White; the lower-ranked one absolutely, the higher one mildly.
        let (higher, lower) = (past(&[Black, White, Black]), past(&[White, Black, Black]));
        assert_eq!(allocate(&higher, &lower, true), Black);
        // Equal mild wishes: the colours alternate from the last game where they differed.
        // Three games back the higher had White and the lower Black: now the other way round.
        let (higher, lower) = (past(&[Black, White, White, Black]), past(&[White, Black, White, Black]));
        assert_eq!(allocate(&higher, &lower, true), Black);
    }
}
