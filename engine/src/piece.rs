//! Piece kinds ([`Role`]), coloured pieces, and hands of pieces not on the board.

use std::fmt;

use crate::square::Color;

/// What a piece is. The catalogue of `docs/pieces.md` (K Q R B N P W F D A H G) plus the stone
/// of Gess and Chogo (`S`). The declaration order is the order hands are printed in:
/// K Q R B N P F, then the other letters alphabetically.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// `K`: one square in any direction; the royal piece of iChess and Chogo.
    King,
    /// `Q`: rays in the eight directions.
    Queen,
    /// `R`: rays along files and ranks; with rooks alone, Go with chess pieces is go.
    Rook,
    /// `B`: rays along diagonals.
    Bishop,
    /// `N`: the (1,2) leap.
    Knight,
    /// `P`: in the drop games, the two squares diagonally forward; in iChess, the chess pawn.
    Pawn,
    /// `F`: one square diagonally; iChess's pawns promote to it.
    Ferz,
    /// `A`: the (2,2) leap.
    Alfil,
    /// `D`: the (2,0) leap.
    Dabbaba,
    /// `G`: rays of repeated knight leaps.
    Nightrider,
    /// `H`: the xiangqi horse, a knight leap blocked by a piece on its first orthogonal step.
    Horse,
    /// `S`: a stone of Gess or a soldier of Chogo, which have no chess movement of their own.
    Stone,
    /// `W`: one square along a file or rank.
    Wazir,
}

impl Role {
    /// Every role, in hand order.
    pub const ALL: [Role; 13] = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
        Role::Ferz,
        Role::Alfil,
        Role::Dabbaba,
        Role::Nightrider,
        Role::Horse,
        Role::Stone,
        Role::Wazir,
    ];

    /// The twelve pieces of the catalogue in `docs/pieces.md`: every role but the stone, in
    /// the same order (taken from [`Role::ALL`], so that the two lists cannot drift apart).
    pub const CATALOGUE: [Role; 12] = {
        let mut roles = [Role::King; 12];
        let (mut from, mut to) = (0, 0);
        while from < Role::ALL.len() {
            if !matches!(Role::ALL[from], Role::Stone) {
                roles[to] = Role::ALL[from];
                to += 1;
            }
            from += 1;
        }
        roles
    };

    /// The upper-case letter of the role.
    #[must_use]
    pub fn letter(self) -> char {
        match self {
            Role::King => 'K',
            Role::Queen => 'Q',
            Role::Rook => 'R',
            Role::Bishop => 'B',
            Role::Knight => 'N',
            Role::Pawn => 'P',
            Role::Ferz => 'F',
            Role::Alfil => 'A',
            Role::Dabbaba => 'D',
            Role::Nightrider => 'G',
            Role::Horse => 'H',
            Role::Stone => 'S',
            Role::Wazir => 'W',
        }
    }

    /// The role with this letter, either case.
    #[must_use]
    pub fn from_letter(letter: char) -> Option<Role> {
        let upper = letter.to_ascii_uppercase();
        Role::ALL.into_iter().find(|role| role.letter() == upper)
    }

    /// The English name players read in messages (`knight`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Role::King => "king",
            Role::Queen => "queen",
            Role::Rook => "rook",
            Role::Bishop => "bishop",
            Role::Knight => "knight",
            Role::Pawn => "pawn",
            Role::Ferz => "ferz",
            Role::Alfil => "alfil",
            Role::Dabbaba => "dabbaba",
            Role::Nightrider => "nightrider",
            Role::Horse => "Chinese knight",
            Role::Stone => "stone",
            Role::Wazir => "wazir",
        }
    }

    /// An index into per-role arrays.
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece on the board: a role and its owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The side the piece belongs to.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// A piece of `role` for `color`.
    #[must_use]
    pub fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// The letter used in board strings: upper case for White, lower case for Black.
    #[must_use]
    pub fn char(self) -> char {
        match self.color {
            Color::White => self.role.letter(),
            Color::Black => self.role.letter().to_ascii_lowercase(),
        }
    }

    /// A description such as "white knight".
    #[must_use]
    pub fn describe(self) -> String {
        format!("{} {}", self.color, self.role)
    }
}

/// A multiset of roles: the pieces a player holds off the board.
///
/// A count of [`Hand::UNLIMITED`] means an endless supply (Chego's `unlimited` sets).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Hand([u8; Role::ALL.len()]);

impl Hand {
    /// The count that stands for an endless supply, which drops never use up.
    pub const UNLIMITED: u8 = u8::MAX;

    /// How many of `role` the hand holds ([`Hand::UNLIMITED`] for an endless supply).
    #[must_use]
    pub fn count(&self, role: Role) -> u8 {
        self.0[role.index()]
    }

    /// Whether at least one `role` can be dropped from the hand.
    #[must_use]
    pub fn contains(&self, role: Role) -> bool {
        self.count(role) > 0
    }

    /// Sets the count of a role (use [`Hand::UNLIMITED`] for an endless supply).
    pub fn set(&mut self, role: Role, count: u8) {
        self.0[role.index()] = count;
    }

    /// Adds one piece (an unlimited supply stays unlimited; counts saturate below it).
    pub fn add(&mut self, role: Role) {
        let count = &mut self.0[role.index()];
        if *count < Hand::UNLIMITED - 1 {
            *count += 1;
        }
    }

    /// Takes one piece out; returns false (and changes nothing) when there is none.
    pub fn take(&mut self, role: Role) -> bool {
        let count = &mut self.0[role.index()];
        match *count {
            0 => false,
            Hand::UNLIMITED => true,
            _ => {
                *count -= 1;
                true
            }
        }
    }

    /// Whether the hand holds nothing at all, so the player has no drop left.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&count| count == 0)
    }

    /// The number of pieces held (unlimited supplies count once).
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.iter().map(|&c| if c == Hand::UNLIMITED { 1 } else { usize::from(c) }).sum()
    }

    /// The roles held, in hand order, each once.
    pub fn roles(&self) -> impl Iterator<Item = Role> + '_ {
        Role::ALL.into_iter().filter(|&role| self.contains(role))
    }
}

/// Letters in hand order, each repeated by its count (`QRRB`); an unlimited supply is
/// written as its letter followed by `*` (`R*`).
impl fmt::Display for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for role in self.roles() {
            match self.count(role) {
                Hand::UNLIMITED => write!(f, "{}*", role.letter())?,
                count => {
                    for _ in 0..count {
                        write!(f, "{}", role.letter())?;
                    }
                }
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hand({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for role in Role::ALL {
            assert_eq!(Role::from_letter(role.letter()), Some(role));
            assert_eq!(Role::from_letter(role.letter().to_ascii_lowercase()), Some(role));
        }
        assert_eq!(Role::from_letter('x'), None);
    }

    #[test]
    fn hands_print_in_hand_order() {
        let mut hand = Hand::default();
        for letter in "WPRBQAKNRGHD".chars() {
            hand.add(Role::from_letter(letter).unwrap());
        }
        assert_eq!(hand.to_string(), "KQRRBNPADGHW");
    }

    #[test]
    fn unlimited_supply_never_runs_out() {
        let mut hand = Hand::default();
        hand.set(Role::Rook, Hand::UNLIMITED);
        for _ in 0..1000 {
            assert!(hand.take(Role::Rook));
        }
        hand.add(Role::Rook);
        assert_eq!(hand.to_string(), "R*");
        assert!(!hand.take(Role::Queen));
    }
}
