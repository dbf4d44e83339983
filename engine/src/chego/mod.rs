//! Chego (Alfred Pfeiffer, 1998), per `docs/rules/chego.md`: chess material, go-like aim.
//!
//! The board starts empty; players drop pieces from hand or pass (rules 3, 6). A drop must
//! go to an empty, neutral square, and the new piece must attack an empty square and no
//! piece, without leaving another own piece attacking no empty square (rule 4 a-e, judged
//! before captures: ruling C1). Opponent pieces left attacking no empty square are captured
//! all at once (5). Two passes end the game (7); controlled empty squares plus captured
//! pieces score (8).
//!
//! `options.rs` reads the options, `attacks.rs` counts attacks and judges placements,
//! `error.rs` names the broken condition.

mod attacks;
mod error;
mod options;

pub use attacks::AttackMap;
pub use error::ChegoError;
pub use options::{ChegoOptions, MAX_COUNT, MAX_TOTAL, PieceSet, SIDES, parse_set};

use crate::board::Board;
use crate::game::{BoardView, EndReason, Ending, Game, GameKind, HalfPoints, Look, OwnerMap, Score, Status};
use crate::notation::{self, NotationError};
use crate::piece::{Hand, Piece, Role};
use crate::square::{Color, Square, SquareSet};
use crate::turn::Turn;

/// A game of Chego.
#[derive(Clone, Debug)]
pub struct Chego {
    options: ChegoOptions,
    board: Board,
    hands: [Hand; 2],
    to_move: Color,
    /// Opponent pieces captured so far, `[by white, by black]` (rule 5).
    captured: [u32; 2],
    passes_in_a_row: u8,
    turns_played: u32,
    /// The drop square of the last turn (empty after a pass).
    last_turn: Vec<Square>,
    /// Where the last turn captured.
    last_captured: Vec<(Square, Piece)>,
    ending: Option<Ending>,
}

impl Chego {
    /// The pieces on the board now, with its shape.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Opponent pieces captured so far, `[by white, by black]`.
    #[must_use]
    pub fn captured(&self) -> [u32; 2] {
        self.captured
    }

    /// What every piece attacks in the current position.
    #[must_use]
    pub fn attack_map(&self) -> AttackMap {
        AttackMap::of(&self.board)
    }

    /// Condition a: the square exists and is empty, and the mover has the piece in hand.
    fn check_square_and_hand(&self, role: Role, to: Square) -> Result<(), ChegoError> {
        if !self.board.shape().contains(to) {
            return Err(ChegoError::NoSuchSquare { square: to });
        }
        if let Some(piece) = self.board.get(to) {
            return Err(ChegoError::Occupied { square: to, piece });
        }
        let hand = self.hands[self.to_move.index()];
        if !hand.contains(role) {
            return Err(ChegoError::NotInHand { role, hand });
        }
        Ok(())
    }

    /// Checks the whole of rule 4 against a precomputed map of this position; returns the
    /// captures (rule 5).
    fn judge_drop(&self, map: &AttackMap, role: Role, to: Square) -> Result<SquareSet, ChegoError> {
        self.check_square_and_hand(role, to)?;
        attacks::judge_placement(&self.board, map, Piece::new(self.to_move, role), to)
    }

    fn play_drop(&mut self, role: Role, to: Square) -> Result<(), ChegoError> {
        let captures = self.judge_drop(&AttackMap::of(&self.board), role, to)?;
        let mover = self.to_move;
        self.hands[mover.index()].take(role);
        self.board.set(to, Piece::new(mover, role));
        self.last_captured.clear();
        for square in captures.iter() {
            if let Some(piece) = self.board.remove(square) {
                self.last_captured.push((square, piece));
            }
        }
        self.captured[mover.index()] += captures.len() as u32;
        self.last_turn = vec![to];
        self.passes_in_a_row = 0;
        Ok(())
    }

    fn pass(&mut self) {
        self.last_turn.clear();
        self.last_captured.clear();
        self.passes_in_a_row += 1;
        if self.passes_in_a_row >= 2 {
            let outcome = self.current_score().outcome();
            self.ending = Some(Ending { outcome, reason: EndReason::TwoPasses });
        }
    }

    fn controlled(&self) -> OwnerMap {
        attacks::owner_map(&self.board, &AttackMap::of(&self.board))
    }

    /// Rule 8: controlled empty squares plus opponent pieces captured.
    fn current_score(&self) -> Score {
        let owner = self.controlled();
        let points = |color: Color| {
            let squares = owner.iter().filter(|(_, owner)| *owner == Some(color)).count() as i32;
            HalfPoints::whole(squares + self.captured[color.index()] as i32)
        };
        Score { white: points(Color::White), black: points(Color::Black) }
    }

    fn unreadable(text: &str, expected: &'static str) -> ChegoError {
        NotationError::Unreadable { text: text.to_owned(), expected }.into()
    }
}

impl Game for Chego {
    type Options = ChegoOptions;
    type Error = ChegoError;

    const KIND: GameKind = GameKind::Chego;

    fn new(options: ChegoOptions) -> Chego {
        let hand = options.set.hand();
        Chego {
            board: Board::empty(options.board),
            options,
            hands: [hand, hand],
            to_move: Color::White,
            captured: [0, 0],
            passes_in_a_row: 0,
            turns_played: 0,
            last_turn: Vec::new(),
            last_captured: Vec::new(),
            ending: None,
        }
    }

    fn options(&self) -> &ChegoOptions {
        &self.options
    }

    fn status(&self) -> Status {
        Status::new(self.ending, self.to_move)
    }

    /// Drops by role (hand order), then square; `pass` last (rule 6: always legal).
    fn legal_turns(&self) -> Vec<Turn> {
        if self.ending.is_some() {
            return Vec::new();
        }
        let map = AttackMap::of(&self.board);
        let hand = self.hands[self.to_move.index()];
        let empty: Vec<Square> = self.board.shape().squares().filter(|&s| self.board.get(s).is_none()).collect();
        let mut turns = Vec::new();
        for role in hand.roles() {
            let legal = empty.iter().filter(|&&to| self.judge_drop(&map, role, to).is_ok());
            turns.extend(legal.map(|&to| Turn::Drop { role, to }));
        }
        turns.push(Turn::Pass);
        turns
    }

    fn play(&mut self, turn: Turn) -> Result<(), ChegoError> {
        if self.ending.is_some() {
            return Err(ChegoError::GameOver);
        }
        match turn {
            Turn::Pass => self.pass(),
            Turn::Drop { role, to } => self.play_drop(role, to)?,
            _ => return Err(ChegoError::WrongKind),
        }
        self.turns_played += 1;
        self.to_move = self.to_move.other();
        Ok(())
    }

    /// `Ne4`, `N@e4`, `N=e4` or `pass`. The piece must be named: the source's records write
    /// only the square, but with several pieces in hand that does not say which.
    fn parse_turn(&self, text: &str) -> Result<Turn, ChegoError> {
        let text = notation::clean(text)?;
        if notation::is_pass(text) {
            return Ok(Turn::Pass);
        }
        match notation::split_drop(text) {
            Some((Some(role), to)) => Ok(Turn::Drop { role, to }),
            Some((None, _)) => {
                Err(Chego::unreadable(text, "name the piece you drop, like Nb4 (Bb4 is a bishop to b4)"))
            }
            None => Err(Chego::unreadable(text, "write a drop like Ne4 (also N@e4 or N=e4), or pass")),
        }
    }

    fn format_turn(&self, turn: Turn) -> String {
        match turn {
            Turn::Drop { role, to } => format!("{}{to}", role.letter()),
            other => other.to_string(),
        }
    }

    fn view(&self) -> BoardView {
        BoardView {
            last_turn: self.last_turn.clone(),
            captured: self.last_captured.clone(),
            hands: Some(self.hands),
            score: Some(self.current_score()),
            prisoners: Some(self.captured),
            owner: self.ending.map(|_| self.controlled()),
            ..BoardView::plain(
                self.board.shape().width(),
                self.board.shape().height(),
                self.board.cells(),
                Look::Checkered,
                self.status(),
                self.turns_played,
            )
        }
    }

    fn score(&self) -> Option<Score> {
        Some(self.current_score())
    }

    fn owner(&self) -> Option<OwnerMap> {
        Some(self.controlled())
    }

    fn hands(&self) -> Option<[Hand; 2]> {
        Some(self.hands)
    }
}
