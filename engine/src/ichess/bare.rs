//! A bare iChess position for searches: board, hands and side to move, copied by value,
//! with its legal turns generated on bitboards and applied without any check or
//! bookkeeping. [`IChess`](crate::ichess::IChess) keeps the history, the endings and the
//! explanations of refused turns; an alpha-beta search visits millions of positions and
//! needs none of that, only the rules that make the turn list (the same generator).

use super::bitboard as bb;
use super::game::IChess;
use super::movegen::{self, Sink};
use super::notation;
use super::position::{Mv, Position, ROLES};
use super::repetition;
use crate::piece::{Hand, Piece, Role};
use crate::square::{Color, Square};
use crate::turn::Turn;

/// An iChess position without history: what the legal turns depend on. `Copy` (about a
/// hundred bytes), so a search plays a turn on a copy and throws it away.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bare(Position);

impl std::fmt::Debug for Bare {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Bare({})", self.0.fen())
    }
}

/// A turn of a [`Bare`] position in compact form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BareTurn(Mv);

impl BareTurn {
    /// The turn as the engine's [`Turn`].
    #[must_use]
    pub fn turn(self) -> Turn {
        notation::to_turn(self.0)
    }

    /// The compact form of an engine turn, if it can be an iChess turn at all.
    #[must_use]
    pub fn from_turn(turn: Turn) -> Option<BareTurn> {
        notation::from_turn(turn).map(BareTurn)
    }

    /// The square the turn moves or drops to.
    #[must_use]
    pub fn target(self) -> Square {
        bb::square(self.0.to())
    }

    /// The square the moving piece leaves; `None` for a drop.
    #[must_use]
    pub fn origin(self) -> Option<Square> {
        match self.0 {
            Mv::Move { from, .. } => Some(bb::square(from)),
            Mv::Drop { .. } => None,
        }
    }

    /// The role dropped, for a drop.
    #[must_use]
    pub fn dropped(self) -> Option<Role> {
        match self.0 {
            Mv::Drop { role, .. } => Some(role),
            Mv::Move { .. } => None,
        }
    }

    /// Whether the turn promotes a pawn to a ferz.
    #[must_use]
    pub fn promotes(self) -> bool {
        matches!(self.0, Mv::Move { promote: true, .. })
    }
}

impl Sink for Vec<BareTurn> {
    fn push(&mut self, mv: Mv) {
        Vec::push(self, BareTurn(mv));
    }

    fn moves(&mut self, from: u8, targets: bb::Bitboard) {
        self.extend(bb::squares(targets).map(|to| BareTurn(Mv::Move { from, to, promote: false })));
    }

    fn drops(&mut self, role: Role, targets: bb::Bitboard) {
        self.extend(bb::squares(targets).map(|to| BareTurn(Mv::Drop { role, to })));
    }
}

impl Bare {
    /// The bare position of a game: where a caller asks about the position itself (is
    /// the side to move in check, is the deployment still on), rather than the game.
    #[must_use]
    pub fn of(game: &IChess) -> Bare {
        Bare(*game.position())
    }

    /// Appends every legal turn of the side to move to `out` (the engine's generator: the
    /// same list as [`IChess`](crate::ichess::IChess)'s, repetition aside).
    pub fn legal_turns(&self, out: &mut Vec<BareTurn>) {
        movegen::generate(&self.0, out);
    }

    /// How many legal turns the side to move has.
    #[must_use]
    pub fn count_legal(&self) -> u64 {
        movegen::count_legal(&self.0)
    }

    /// Plays a turn, which must be legal here; returns the piece it captured.
    pub fn play(&mut self, turn: BareTurn) -> Option<Piece> {
        self.0.play(turn.0)
    }

    /// Hands the turn to the other side without playing: not an iChess turn (the rules
    /// have no pass), but what a search's null-move pruning asks ("if I could pass, would I
    /// still be doing well?"). Meaningless when the side to move is in check.
    pub fn pass_turn(&mut self) {
        self.0.pass_turn();
    }

    /// The side to move.
    #[must_use]
    pub fn to_move(&self) -> Color {
        self.0.turn()
    }

    /// Whether the side to move is in check.
    #[must_use]
    pub fn in_check(&self) -> bool {
        self.0.in_check()
    }

    /// Whether the deployment phase is still on (rule 3: a king is in hand).
    #[must_use]
    pub fn deploying(&self) -> bool {
        self.0.deploying()
    }

    /// The piece on a square.
    #[must_use]
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        bb::index(square).and_then(|index| self.0.piece_at(index))
    }

    /// A side's hand.
    #[must_use]
    pub fn hand(&self, color: Color) -> Hand {
        *self.0.hand(color)
    }

    /// The position's Zobrist key (the one ruling I3's repetitions are found by).
    #[must_use]
    pub fn key(&self) -> u64 {
        repetition::key(&self.0)
    }

    /// Every piece on the board with its square, by role in the engine's order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Color::BOTH.into_iter().flat_map(move |color| {
            ROLES.into_iter().flat_map(move |role| {
                bb::squares(self.0.pieces(color, role)).map(move |index| (bb::square(index), Piece::new(color, role)))
            })
        })
    }

    /// How many squares `color`'s pieces on the board attack or may move to, not counting
    /// squares of its own pieces (pseudo-mobility: pins and checks ignored), and how many
    /// of the squares next to the other side's king they attack.
    #[must_use]
    pub fn mobility(&self, color: Color) -> (u32, u32) {
        let occupied = self.0.occupied();
        let own = self.0.color(color);
        let near_king = self.0.king(color.other()).map_or(0, |king| bb::KING[usize::from(king)]);
        let (mut mobility, mut pressure) = (0, 0);
        for role in ROLES {
            for index in bb::squares(self.0.pieces(color, role)) {
                let targets = Position::attacks(role, color, index, occupied) & !own;
                mobility += targets.count_ones();
                pressure += (targets & near_king).count_ones();
            }
        }
        (mobility, pressure)
    }

    /// Whether a piece of `by` attacks the square.
    #[must_use]
    pub fn attacked(&self, square: Square, by: Color) -> bool {
        bb::index(square).is_some_and(|index| self.0.attackers(index, by, self.0.occupied()) != 0)
    }
}

/// The keys ([`Bare::key`]) of every position of the game so far, oldest first, the
/// current one last: what a search needs to see repetitions (ruling I3) coming.
#[must_use]
pub fn history_keys(game: &IChess) -> Vec<u64> {
    game.history().iter().map(|entry| entry.key).collect()
}

/// Whether the side to move was in check in each position of the game so far (the turn
/// that made it gave check), in the order of [`history_keys`]: ruling I3 makes a player
/// who checked with every turn of a repetition lose it, so a search needs these too.
#[must_use]
pub fn history_checks(game: &IChess) -> Vec<bool> {
    game.history().iter().map(|entry| entry.check).collect()
}
