//! Checking a Chogo turn against rules 3-8 in a [`Position`], applying a checked turn, and
//! listing every legal turn of the side to move.

use crate::board::Board;
use crate::piece::{Hand, Piece, Role};
use crate::square::{Color, Square};
use crate::turn::{Rect, Turn};

use super::error::ChogoError;
use super::rules::{self, Direction};

/// Rule 3: the ranks (from 0) a king may be dropped on, and how they are written.
fn own_half(side: Color) -> (std::ops::RangeInclusive<u8>, &'static str) {
    match side {
        Color::White => (0..=3, "1-4"),
        Color::Black => (3..=6, "4-7"),
    }
}

/// What the turn rules read and change: the board, the hands and the side to move. The
/// game ([`Chogo`](super::Chogo)) keeps the rest: captures, counters and the ending.
#[derive(Clone, Debug)]
pub(super) struct Position {
    pub(super) board: Board,
    /// `[white, black]`: the king until it is dropped (rule 3).
    pub(super) hands: [Hand; 2],
    pub(super) to_move: Color,
}

impl Position {
    /// Checks a turn in this position, changing nothing.
    pub(super) fn check(&self, turn: Turn) -> Result<(), ChogoError> {
        let side = self.to_move;
        let king_in_hand = self.hands[side.index()].contains(Role::King);
        match turn {
            Turn::Pass => Err(ChogoError::NoPassing),
            Turn::Drop { role, to } => self.check_king_drop(role, to),
            _ if king_in_hand => Err(ChogoError::KingDropFirst { side }),
            Turn::Move { promotion: Some(_), .. } => Err(ChogoError::NoPromotion),
            Turn::Move { from, to, promotion: None } => self.check_move(from, to),
            Turn::Tandem { from, to } => self.check_tandem(from, to).map(|_| ()),
            Turn::Relocate { from, to } => self.check_mole_drop(from, to),
        }
    }

    fn check_king_drop(&self, role: Role, to: Square) -> Result<(), ChogoError> {
        let side = self.to_move;
        if role != Role::King {
            return Err(ChogoError::OnlyKingDrops { role });
        }
        if !self.hands[side.index()].contains(Role::King) {
            return Err(ChogoError::KingAlreadyDropped { side });
        }
        self.check_empty(to)?;
        let (half, ranks) = own_half(side);
        if !half.contains(&to.rank()) {
            return Err(ChogoError::BeyondHalfway { side, square: to, ranks });
        }
        Ok(())
    }

    fn check_empty(&self, square: Square) -> Result<(), ChogoError> {
        if !self.board.shape().contains(square) {
            return Err(ChogoError::NoSuchCell { square });
        }
        match self.board.get(square) {
            Some(_) => Err(ChogoError::Occupied { square }),
            None => Ok(()),
        }
    }

    fn own_piece(&self, square: Square) -> Result<Piece, ChogoError> {
        let side = self.to_move;
        self.board.get(square).filter(|piece| piece.color == side).ok_or(ChogoError::NoOwnPiece { side, square })
    }

    /// Rules 5 and 6: a single piece slides (a king steps) to an empty cell, unless trapped.
    fn check_move(&self, from: Square, to: Square) -> Result<(), ChogoError> {
        let piece = self.own_piece(from)?;
        self.check_empty(to)?;
        let (dir, distance) = rules::line(from, to).ok_or(ChogoError::NotOrthogonal { from, to })?;
        if piece.role == Role::King && distance > 1 {
            return Err(ChogoError::KingStepsOne { from, to });
        }
        if let Some(by) = rules::trap(&self.board, from) {
            return Err(ChogoError::Trapped { square: from, by });
        }
        let (df, dr) = dir.delta();
        let path = (1..i32::from(distance)).filter_map(|k| from.offset(df * k, dr * k));
        match path.into_iter().find(|&cell| !self.board.is_empty_square(cell)) {
            Some(at) => Err(ChogoError::Blocked { from, to, at }),
            None => Ok(()),
        }
    }

    /// Rule 7 and the notation's canonical target; returns the direction and distance.
    pub(super) fn check_tandem(&self, rect: Rect, to: Square) -> Result<(Direction, u8), ChogoError> {
        if u32::from(rect.width()) * u32::from(rect.height()) < 2 {
            return Err(ChogoError::TandemTooSmall { rect });
        }
        if let Some(at) = rect.cells().find(|&cell| self.own_piece(cell).is_err()) {
            return Err(ChogoError::TandemNotSolid { rect, at });
        }
        let (dir, distance) = rules::tandem_motion(rect, to).ok_or(ChogoError::TandemTargetOffLine { rect, to })?;
        let canonical =
            rules::canonical_target(rect, dir, distance).ok_or(ChogoError::TandemTargetOffLine { rect, to })?;
        if canonical != to {
            return Err(ChogoError::TandemNotCanonical { rect, canonical });
        }
        if rect.cells().all(|cell| rules::is_trapped(&self.board, cell)) {
            return Err(ChogoError::TandemAllTrapped { rect });
        }
        match rules::tandem_block(&self.board, rect, dir, distance) {
            Some(at) => Err(ChogoError::TandemBlocked { rect, to, at }),
            None => Ok((dir, distance)),
        }
    }

    /// Rule 8 and ruling H4: an untrapped own piece goes to an empty cell of a city.
    fn check_mole_drop(&self, from: Square, to: Square) -> Result<(), ChogoError> {
        self.own_piece(from)?;
        self.check_empty(to)?;
        if let Some(by) = rules::trap(&self.board, from) {
            return Err(ChogoError::MoleTrapped { square: from, by });
        }
        if !rules::city_cells(&self.board, self.to_move).contains(to) {
            return Err(ChogoError::NotInCity { square: to, opponent: self.to_move.other() });
        }
        Ok(())
    }

    /// Moves the pieces of a checked turn; returns every cell it touched.
    pub(super) fn apply(&mut self, turn: Turn) -> Vec<Square> {
        let side = self.to_move;
        match turn {
            Turn::Drop { role, to } => {
                self.hands[side.index()].take(role);
                self.board.set(to, Piece::new(side, role));
                vec![to]
            }
            Turn::Move { from, to, .. } | Turn::Relocate { from, to } => {
                if let Some(piece) = self.board.remove(from) {
                    self.board.set(to, piece);
                }
                vec![from, to]
            }
            Turn::Tandem { from, to } => self.shift(from, to),
            Turn::Pass => Vec::new(),
        }
    }

    /// Lifts every piece of the rectangle first, then sets them down shifted, so pieces
    /// landing on cells the unit just left do not collide.
    fn shift(&mut self, rect: Rect, to: Square) -> Vec<Square> {
        let Some((dir, distance)) = rules::tandem_motion(rect, to) else { return Vec::new() };
        let (df, dr) = dir.delta();
        let n = i32::from(distance);
        let lifted: Vec<(Square, Piece)> = rect.cells().filter_map(|s| Some((s, self.board.remove(s)?))).collect();
        let mut touched: Vec<Square> = lifted.iter().map(|&(square, _)| square).collect();
        for (square, piece) in lifted {
            if let Some(target) = square.offset(df * n, dr * n) {
                self.board.set(target, piece);
                touched.push(target);
            }
        }
        touched.sort_unstable();
        touched.dedup();
        touched
    }

    /// Every legal turn of the side to move (the game's end is not looked at).
    pub(super) fn generate(&self) -> Vec<Turn> {
        if self.hands[self.to_move.index()].contains(Role::King) {
            return self.king_drops();
        }
        let mut turns = self.single_moves();
        turns.extend(self.tandems());
        turns.extend(self.mole_drops());
        turns
    }

    fn king_drops(&self) -> Vec<Turn> {
        let drops = self.board.shape().squares().map(|to| Turn::Drop { role: Role::King, to });
        drops.filter(|&turn| self.check(turn).is_ok()).collect()
    }

    fn untrapped(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let side = self.to_move;
        self.board
            .pieces()
            .filter(move |&(square, piece)| piece.color == side && !rules::is_trapped(&self.board, square))
    }

    fn single_moves(&self) -> Vec<Turn> {
        let mut turns = Vec::new();
        for (from, piece) in self.untrapped() {
            turns.extend(rules::slides(&self.board, from, piece.role).into_iter().map(|to| Turn::movement(from, to)));
        }
        turns
    }

    fn tandems(&self) -> Vec<Turn> {
        let mut turns = Vec::new();
        for rect in rules::solid_rects(&self.board, self.to_move) {
            if rect.cells().all(|cell| rules::is_trapped(&self.board, cell)) {
                continue;
            }
            for dir in Direction::ALL {
                for distance in 1..=rules::tandem_reach(&self.board, rect, dir) {
                    if let Some(to) = rules::canonical_target(rect, dir, distance) {
                        turns.push(Turn::Tandem { from: rect, to });
                    }
                }
            }
        }
        turns
    }

    fn mole_drops(&self) -> Vec<Turn> {
        let cities = rules::city_cells(&self.board, self.to_move);
        if cities.is_empty() {
            return Vec::new();
        }
        let froms: Vec<Square> = self.untrapped().map(|(square, _)| square).collect();
        froms.into_iter().flat_map(|from| cities.iter().map(move |to| Turn::Relocate { from, to })).collect()
    }
}
