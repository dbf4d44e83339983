//! An iChess position (board, both hands, side to move) on bitboards, the turns applied
//! to it unchecked, attack queries, and the text form used by tests and the oracle:
//! `board[hands] w`, as Fairy-Stockfish writes it (a ferz may be written `F` or `+P`).

use super::bitboard::{self as bb, Bitboard};
use crate::piece::{Hand, Piece, Role};
use crate::square::{Color, Square};

/// The roles of iChess, in hand order; their position here is their index in [`Position`].
pub(crate) const ROLES: [Role; 7] =
    [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn, Role::Ferz];

/// The most pieces of one kind a hand may hold in a set-up (there are 16 pawns in all).
const MAX_IN_HAND: u8 = 16;

/// A turn in the engine's own compact form: squares are bit indices (see [`bb`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Mv {
    Drop { role: Role, to: u8 },
    Move { from: u8, to: u8, promote: bool },
}

impl Mv {
    pub(crate) fn to(self) -> u8 {
        match self {
            Mv::Drop { to, .. } | Mv::Move { to, .. } => to,
        }
    }
}

/// Board, hands and side to move: everything the legal turns depend on.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Position {
    colors: [Bitboard; 2],
    roles: [Bitboard; 7],
    hands: [Hand; 2],
    turn: Color,
}

/// A set-up text that is not a reachable-looking iChess position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The text does not follow the set-up syntax.
    #[error("`{text}` is not an iChess position: {expected}")]
    Syntax {
        /// The part that could not be read.
        text: String,
        /// What was expected there.
        expected: &'static str,
    },
    /// A side with no king or with more than one, counting the hand.
    #[error("{color} must have exactly one king, on the board or in hand")]
    Kings {
        /// The side concerned.
        color: Color,
    },
    /// A pawn on its last rank, where it would have had to promote (rule 7).
    #[error("a {color} pawn cannot stand on {square}, its last rank (rule 7)")]
    PawnOnLastRank {
        /// The pawn's side.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// More pieces of one kind in hand than a side starts with.
    #[error("{color} holds more than {MAX_IN_HAND} of one piece in hand")]
    FullHand {
        /// The side concerned.
        color: Color,
    },
    /// A deployment no game reaches: while deploying, the side to move still holds its king, which is
    /// dropped last (rule 3).
    #[error("deployment out of order: the side to move must still hold its king, and kings are dropped last (rule 3)")]
    DeploymentOrder,
    /// The side that just moved is in check, which no legal turn allows.
    #[error("{color} is in check but it is not {color}'s turn")]
    OpponentInCheck {
        /// The side in check.
        color: Color,
    },
}

fn role_index(role: Role) -> usize {
    role.index()
}

impl Position {
    /// Rule 1: pawns on ranks 3 and 6, everything else in hand, White to move.
    pub(crate) fn start() -> Position {
        let mut hand = Hand::default();
        for (role, count) in [(Role::King, 1), (Role::Queen, 1), (Role::Rook, 2), (Role::Bishop, 2), (Role::Knight, 2)]
        {
            hand.set(role, count);
        }
        let mut roles = [0; 7];
        roles[role_index(Role::Pawn)] = (bb::RANK_1 << 16) | (bb::RANK_1 << 40);
        Position { colors: [bb::RANK_1 << 16, bb::RANK_1 << 40], roles, hands: [hand; 2], turn: Color::White }
    }

    pub(crate) fn turn(&self) -> Color {
        self.turn
    }

    /// Hands the turn to the other side without a turn (a search's null move).
    pub(crate) fn pass_turn(&mut self) {
        self.turn = self.turn.other();
    }

    pub(crate) fn hand(&self, color: Color) -> &Hand {
        &self.hands[color.index()]
    }

    pub(crate) fn hands(&self) -> [Hand; 2] {
        self.hands
    }

    pub(crate) fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    pub(crate) fn color(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    #[inline]
    pub(crate) fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.roles[role_index(role)] & self.colors[color.index()]
    }

    pub(crate) fn piece_at(&self, index: u8) -> Option<Piece> {
        let mask = bb::bit(index);
        let color = if self.colors[0] & mask != 0 {
            Color::White
        } else if self.colors[1] & mask != 0 {
            Color::Black
        } else {
            return None;
        };
        let role = ROLES.into_iter().find(|&role| self.roles[role_index(role)] & mask != 0)?;
        Some(Piece::new(color, role))
    }

    /// The deployment phase lasts while a king is still in hand (kings are dropped last, and
    /// never return to a hand: the game ends at mate).
    pub(crate) fn deploying(&self) -> bool {
        self.hands.iter().any(|hand| hand.contains(Role::King))
    }

    pub(crate) fn king(&self, color: Color) -> Option<u8> {
        let kings = self.pieces(color, Role::King);
        (kings != 0).then(|| kings.trailing_zeros() as u8)
    }

    /// The pieces of `by` that attack the square, with `occupied` blocking the sliders.
    #[inline]
    pub(crate) fn attackers(&self, index: u8, by: Color, occupied: Bitboard) -> Bitboard {
        let i = usize::from(index);
        let theirs = |role| self.pieces(by, role);
        let queens = theirs(Role::Queen);
        (bb::KNIGHT[i] & theirs(Role::Knight))
            | (bb::KING[i] & theirs(Role::King))
            | (bb::FERZ[i] & theirs(Role::Ferz))
            | (bb::PAWN[by.other().index()][i] & theirs(Role::Pawn))
            | (bb::rook_attacks(index, occupied) & (theirs(Role::Rook) | queens))
            | (bb::bishop_attacks(index, occupied) & (theirs(Role::Bishop) | queens))
    }

    /// The pieces giving check to the side to move (none while its king is in hand).
    pub(crate) fn checkers(&self) -> Bitboard {
        match self.king(self.turn) {
            Some(king) => self.attackers(king, self.turn.other(), self.occupied()),
            None => 0,
        }
    }

    pub(crate) fn in_check(&self) -> bool {
        self.checkers() != 0
    }

    /// Whether `color`'s king stands attacked.
    pub(crate) fn king_attacked(&self, color: Color) -> bool {
        self.king(color).is_some_and(|king| self.attackers(king, color.other(), self.occupied()) != 0)
    }

    /// The squares `role` (of `color`, on `index`) moves to or captures on.
    #[inline]
    pub(crate) fn attacks(role: Role, color: Color, index: u8, occupied: Bitboard) -> Bitboard {
        let i = usize::from(index);
        match role {
            Role::King => bb::KING[i],
            Role::Queen => bb::rook_attacks(index, occupied) | bb::bishop_attacks(index, occupied),
            Role::Rook => bb::rook_attacks(index, occupied),
            Role::Bishop => bb::bishop_attacks(index, occupied),
            Role::Knight => bb::KNIGHT[i],
            Role::Pawn => bb::PAWN[color.index()][i],
            Role::Ferz => bb::FERZ[i],
            _ => 0,
        }
    }

    fn put(&mut self, color: Color, role: Role, index: u8) {
        self.colors[color.index()] |= bb::bit(index);
        self.roles[role_index(role)] |= bb::bit(index);
    }

    fn clear(&mut self, index: u8) {
        let keep = !bb::bit(index);
        self.colors[0] &= keep;
        self.colors[1] &= keep;
        for board in &mut self.roles {
            *board &= keep;
        }
    }

    /// Applies a turn without checking it; returns the captured piece (rule 8: it goes to
    /// the mover's hand, a ferz as a pawn).
    pub(crate) fn play(&mut self, mv: Mv) -> Option<Piece> {
        let us = self.turn;
        let mut captured = None;
        match mv {
            Mv::Drop { role, to } => {
                self.hands[us.index()].take(role);
                self.put(us, role, to);
            }
            Mv::Move { from, to, promote } => {
                let piece = self.piece_at(from)?;
                captured = self.piece_at(to);
                if let Some(taken) = captured {
                    let role = if taken.role == Role::Ferz { Role::Pawn } else { taken.role };
                    self.hands[us.index()].add(role);
                    self.clear(to);
                }
                self.clear(from);
                self.put(us, if promote { Role::Ferz } else { piece.role }, to);
            }
        }
        self.turn = us.other();
        captured
    }

    /// The board as rank strings, top rank first (`.` for an empty square).
    pub(crate) fn rows(&self) -> Vec<String> {
        (0..8u8)
            .rev()
            .map(|rank| (0..8u8).map(|file| self.piece_at(rank * 8 + file).map_or('.', Piece::char)).collect())
            .collect()
    }

    /// The set-up text: `board[hands] side`, hands as upper-case White then lower-case Black.
    pub(crate) fn fen(&self) -> String {
        let board: Vec<String> = self.rows().iter().map(|row| compress_row(row)).collect();
        let black_hand = self.hands[1].to_string().to_ascii_lowercase();
        let side = if self.turn == Color::White { 'w' } else { 'b' };
        format!("{}[{}{}] {side}", board.join("/"), self.hands[0], black_hand)
    }

    /// Reads a set-up text (see [`Position::fen`]; more fields after the side are ignored).
    pub(crate) fn from_fen(text: &str) -> Result<Position, SetupError> {
        let syntax = |expected| SetupError::Syntax { text: text.chars().take(120).collect(), expected };
        let mut fields = text.split_whitespace();
        let placement = fields.next().ok_or_else(|| syntax("it is empty"))?;
        let (board, hands) = match placement.split_once('[') {
            Some((board, rest)) => (board, rest.strip_suffix(']').ok_or_else(|| syntax("the hand lacks its `]`"))?),
            None => (placement, ""),
        };
        let mut position = Position { colors: [0; 2], roles: [0; 7], hands: [Hand::default(); 2], turn: Color::White };
        position.read_board(board).map_err(syntax)?;
        position.read_hands(hands).map_err(syntax)?;
        position.turn = match fields.next() {
            Some("w") | None => Color::White,
            Some("b") => Color::Black,
            Some(_) => return Err(syntax("the side to move is `w` or `b`")),
        };
        position.validate()?;
        Ok(position)
    }

    fn read_board(&mut self, board: &str) -> Result<(), &'static str> {
        const EXPECTED: &str = "the board is 8 ranks of 8 squares separated by `/`, top rank first";
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 8 {
            return Err(EXPECTED);
        }
        for (row, text) in ranks.iter().enumerate() {
            let rank = 7 - row as u8;
            let mut file = 0u8;
            let mut promoted = false;
            for ch in text.chars() {
                match ch {
                    '+' => promoted = true,
                    '1'..='8' => file += ch as u8 - b'0',
                    _ => {
                        let piece = read_piece(ch, promoted).ok_or("pieces are K Q R B N P F (+P for a ferz)")?;
                        if file >= 8 {
                            return Err(EXPECTED);
                        }
                        self.put(piece.color, piece.role, rank * 8 + file);
                        file += 1;
                        promoted = false;
                    }
                }
            }
            if file != 8 || promoted {
                return Err(EXPECTED);
            }
        }
        Ok(())
    }

    fn read_hands(&mut self, hands: &str) -> Result<(), &'static str> {
        for ch in hands.chars().filter(|&ch| ch != '-') {
            let piece = read_piece(ch, false).ok_or("hands hold K Q R B N P")?;
            if piece.role == Role::Ferz {
                return Err("a ferz is never in hand: it returns to a hand as a pawn");
            }
            self.hands[piece.color.index()].add(piece.role);
        }
        Ok(())
    }

    fn validate(&self) -> Result<(), SetupError> {
        for color in Color::BOTH {
            let kings = self.pieces(color, Role::King).count_ones() + u32::from(self.hand(color).count(Role::King));
            if kings != 1 {
                return Err(SetupError::Kings { color });
            }
            if ROLES.iter().any(|&role| self.hand(color).count(role) > MAX_IN_HAND) {
                return Err(SetupError::FullHand { color });
            }
            let stuck = self.pieces(color, Role::Pawn) & bb::last_rank(color);
            if stuck != 0 {
                let square = bb::square(stuck.trailing_zeros() as u8);
                return Err(SetupError::PawnOnLastRank { color, square });
            }
        }
        if self.deploying() && !self.deployment_in_order() {
            return Err(SetupError::DeploymentOrder);
        }
        let waiting = self.turn.other();
        if self.king_attacked(waiting) {
            return Err(SetupError::OpponentInCheck { color: waiting });
        }
        Ok(())
    }

    /// During deployment the side to move still holds its king, and a side whose king is
    /// down has dropped everything while the other holds only its king (rule 3).
    fn deployment_in_order(&self) -> bool {
        let king_only = |hand: &Hand| hand.len() == 1 && hand.contains(Role::King);
        self.hand(self.turn).contains(Role::King)
            && Color::BOTH.iter().all(|&color| {
                self.king(color).is_none() || (self.hand(color).is_empty() && king_only(self.hand(color.other())))
            })
    }
}

fn read_piece(ch: char, promoted: bool) -> Option<Piece> {
    let role = Role::from_letter(ch).filter(|role| ROLES.contains(role))?;
    let color = if ch.is_ascii_uppercase() { Color::White } else { Color::Black };
    match (promoted, role) {
        (false, role) => Some(Piece::new(color, role)),
        (true, Role::Pawn) => Some(Piece::new(color, Role::Ferz)),
        (true, _) => None,
    }
}

/// `..P.....` becomes `2P5`.
fn compress_row(row: &str) -> String {
    let mut out = String::new();
    let mut empty = 0;
    for ch in row.chars() {
        if ch == '.' {
            empty += 1;
            continue;
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
            empty = 0;
        }
        out.push(ch);
    }
    if empty > 0 {
        out.push_str(&empty.to_string());
    }
    out
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_text() {
        assert_eq!(Position::start().fen(), "8/8/pppppppp/8/8/PPPPPPPP/8/8[KQRRBBNNkqrrbbnn] w");
        assert_eq!(Position::from_fen(&Position::start().fen()), Ok(Position::start()));
    }

    #[test]
    fn ferz_as_promoted_pawn() {
        let position = Position::from_fen("4k3/1+P6/8/8/8/8/8/4K3[Pp] b - - 0 1").unwrap();
        assert_eq!(position.fen(), "4k3/1F6/8/8/8/8/8/4K3[Pp] b");
    }

    #[test]
    fn bad_setups_are_refused() {
        for text in ["", "8/8/8/8/8/8/8/8 w", "4k3/8/8/8/8/8/8/4K2 w", "4k3/8/8/8/8/8/8/4K3[F] w", "4k3/8/8 w"] {
            assert!(Position::from_fen(text).is_err(), "{text}");
        }
        assert!(matches!(Position::from_fen("1P2k3/8/8/8/8/8/8/4K3 w"), Err(SetupError::PawnOnLastRank { .. })));
        assert!(matches!(Position::from_fen("4k3/8/8/8/8/8/8/4K2r b"), Err(SetupError::OpponentInCheck { .. })));
        assert!(matches!(Position::from_fen("8/8/8/8/8/8/8/4K3[k] w"), Err(SetupError::DeploymentOrder)));
        assert!(matches!(Position::from_fen("8/8/8/8/8/8/8/4K3[Qkq] b"), Err(SetupError::DeploymentOrder)));
        assert!(Position::from_fen("8/8/8/8/8/8/8/4K3[k] b").is_ok());
    }
}
