//! The game of Go with chess pieces: drops and moves checked against rules 1-6, passes
//! ending the game (7) or opening counting (10), and the score (8, 9).

use super::counting::DeadPieces;
use super::error::GoError;
use super::options::{GoOptions, Squares};
use super::rules::{controlled, dead_pieces};
use crate::board::Board;
use crate::game::{BoardView, EndReason, Ending, Game, GameKind, HalfPoints, Look, OwnerMap, Score, Status};
use crate::notation::{self, NotationError};
use crate::piece::{Piece, Role};
use crate::square::{Color, Shape, Square, SquareSet};
use crate::turn::Turn;

/// A game of Go with chess pieces.
#[derive(Clone, Debug)]
pub struct Go {
    options: GoOptions,
    board: Board,
    to_move: Color,
    /// The board before the last turn: a turn may not recreate it (ko, rule 6).
    before_last_turn: Board,
    prisoners: [u32; 2],
    passes_in_a_row: u8,
    turns_played: u32,
    last_turn: Vec<Square>,
    captured: Vec<(Square, Piece)>,
    /// In the counting phase of rule 10: two passes were played with `counting=on`, and
    /// the players agree on dead pieces or resume play.
    counting: bool,
    /// The dead pieces agreed at the end of counting (rule 10), once agreed.
    agreed_dead: Option<DeadPieces>,
    ending: Option<Ending>,
}

impl Go {
    /// The pieces on the board now, with its shape.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Prisoners taken so far, `[by white, by black]`.
    #[must_use]
    pub fn prisoners(&self) -> [u32; 2] {
        self.prisoners
    }

    /// The board as it was before the last turn: a turn may not bring it back (ko, rule 6).
    /// Playout boards outside the engine read it to know which recapture is forbidden.
    #[must_use]
    pub fn board_before_last_turn(&self) -> &Board {
        &self.before_last_turn
    }

    /// Passes played in a row just now (0, 1, or 2 once the game has ended by them).
    #[must_use]
    pub fn passes_in_a_row(&self) -> u8 {
        self.passes_in_a_row
    }

    fn check_drop(&self, role: Role, to: Square) -> Result<(), GoError> {
        if !self.options.pieces.contains(&role) {
            let set: String = self.options.pieces.iter().map(|r| r.letter()).collect();
            return Err(GoError::NotInSet { role, set });
        }
        self.check_target(to)
    }

    fn check_target(&self, to: Square) -> Result<(), GoError> {
        if !self.board.shape().contains(to) {
            return Err(GoError::NoSuchSquare { square: to });
        }
        match self.board.get(to) {
            Some(piece) => Err(GoError::Occupied { square: to, piece: piece.describe() }),
            None => Ok(()),
        }
    }

    fn check_move(&self, from: Square, to: Square) -> Result<Role, GoError> {
        if !self.options.moving {
            return Err(GoError::MovingOff);
        }
        let piece = self.board.get(from).filter(|piece| piece.color == self.to_move);
        let piece = piece.ok_or(GoError::NoOwnPiece { square: from })?;
        self.check_target(to)?;
        let mut reachable = false;
        self.board.for_each_move(from, |square| reachable |= square == to);
        if !reachable {
            return Err(GoError::Unreachable { role: piece.role, from, to });
        }
        Ok(piece.role)
    }

    /// The board after placing the piece (and emptying `from` for a move) and capturing,
    /// with the captured squares; or the rule (5, 6) the turn breaks. Changes nothing.
    fn resolve(&self, from: Option<Square>, role: Role, to: Square) -> Result<(Board, SquareSet), GoError> {
        let mover = self.to_move;
        let mut after = self.board.clone();
        if let Some(from) = from {
            after.remove(from);
        }
        after.set(to, Piece::new(mover, role));
        let dead = dead_pieces(&after, mover.other());
        for square in dead.iter() {
            after.remove(square);
        }
        let own_dead = dead_pieces(&after, mover);
        if !own_dead.is_empty() {
            return Err(GoError::Suicide { squares: own_dead.iter().collect() });
        }
        if after == self.before_last_turn {
            return Err(GoError::Ko);
        }
        Ok((after, dead))
    }

    /// Checks a drop or move without playing it: the resulting board and captures.
    fn check(&self, turn: Turn) -> Result<(Option<Square>, Square, Board, SquareSet), GoError> {
        let (from, role, to) = match turn {
            Turn::Drop { role, to } => {
                self.check_drop(role, to)?;
                (None, role, to)
            }
            Turn::Move { from, to, promotion: None } => (Some(from), self.check_move(from, to)?, to),
            _ => return Err(GoError::WrongKind),
        };
        let (after, dead) = self.resolve(from, role, to)?;
        Ok((from, to, after, dead))
    }

    fn commit(&mut self, from: Option<Square>, to: Square, after: Board, dead: SquareSet) {
        self.prisoners[self.to_move.index()] += dead.len() as u32;
        self.captured = dead.iter().filter_map(|square| self.board.get(square).map(|piece| (square, piece))).collect();
        self.before_last_turn = std::mem::replace(&mut self.board, after);
        self.last_turn = from.into_iter().chain([to]).collect();
        self.passes_in_a_row = 0;
    }

    fn pass(&mut self) {
        self.before_last_turn = self.board.clone();
        self.last_turn.clear();
        self.captured.clear();
        self.passes_in_a_row += 1;
        if self.passes_in_a_row >= 2 {
            if self.options.counting {
                // Rule 10: the passes open counting; a pass that resumes play counts afresh.
                self.counting = true;
                self.passes_in_a_row = 0;
            } else {
                let outcome = self.current_score().outcome();
                self.ending = Some(Ending { outcome, reason: EndReason::TwoPasses });
            }
        }
    }

    fn current_score(&self) -> Score {
        let owner = controlled(&self.board);
        let count = |color| owner.iter().filter(|(_, o)| *o == Some(color)).count() as i32;
        let points = |color: Color| HalfPoints::whole(count(color) + self.prisoners[color.index()] as i32);
        Score { white: points(Color::White) + self.options.komi, black: points(Color::Black) }
    }

    /// Played with rooks alone on every square, the game is go with other captures: it is
    /// drawn as a go board, stones on the lines.
    fn looks_like_go(&self) -> bool {
        self.options.pieces == [Role::Rook] && self.options.squares == Squares::All
    }

    fn drops(&self) -> impl Iterator<Item = Turn> + '_ {
        let empty: Vec<Square> = self.board.shape().squares().filter(|&s| self.board.get(s).is_none()).collect();
        self.options
            .pieces
            .iter()
            .flat_map(move |&role| empty.clone().into_iter().map(move |to| Turn::Drop { role, to }))
    }

    fn moves(&self) -> Vec<Turn> {
        if !self.options.moving {
            return Vec::new();
        }
        let mut turns = Vec::new();
        for from in self.board.squares_of(self.to_move).iter() {
            self.board.for_each_move(from, |to| {
                if self.board.get(to).is_none() {
                    turns.push(Turn::movement(from, to));
                }
            });
        }
        turns
    }
}

impl Go {
    /// Whether the game is in the counting phase of rule 10: two passes were played with
    /// `counting=on`. The player to move ([`crate::Game::to_move`]) may resume play with any
    /// turn; [`Go::agree_dead`] ends the game.
    #[must_use]
    pub fn is_counting(&self) -> bool {
        self.counting
    }

    /// Ends the game in the counting phase with the agreed dead pieces (rule 10): they are
    /// removed, counted as prisoners of their opponent, and rules 8-9 score the board.
    ///
    /// The removed pieces are the view's `captured` pieces, so a picture of the game after
    /// the agreement (or of a clone, to preview a proposal) marks them. Refused outside the
    /// counting phase, and when a square holds no piece; a refusal changes nothing.
    pub fn agree_dead(&mut self, dead: &DeadPieces) -> Result<(), GoError> {
        if self.ending.is_some() {
            return Err(GoError::GameOver);
        }
        if !self.counting {
            return Err(GoError::NotCounting);
        }
        let missing = dead.squares().find(|&square| self.board.get(square).is_none());
        if let Some(square) = missing {
            return Err(GoError::NoDeadPiece { square });
        }
        self.captured.clear();
        for square in dead.squares() {
            if let Some(piece) = self.board.remove(square) {
                self.prisoners[piece.color.other().index()] += 1;
                self.captured.push((square, piece));
            }
        }
        self.last_turn.clear();
        self.counting = false;
        self.agreed_dead = Some(dead.clone());
        let outcome = self.current_score().outcome();
        self.ending = Some(Ending { outcome, reason: EndReason::Counted });
        Ok(())
    }

    /// The game as counting would find it if both players passed now (rule 10): the board
    /// as it stands, in the counting phase. For an estimate of the result during play (the
    /// dead pieces guessed on it, then [`Go::score_with_dead`]); the game itself is not
    /// changed. A finished game is returned as it is.
    #[must_use]
    pub fn counting_now(&self) -> Go {
        let mut counted = self.clone();
        if counted.ending.is_none() {
            counted.counting = true;
            counted.passes_in_a_row = 0;
        }
        counted
    }

    /// The dead pieces the players agreed when counting ended the game, if it did.
    #[must_use]
    pub fn agreed_dead(&self) -> Option<&DeadPieces> {
        self.agreed_dead.as_ref()
    }

    /// The score the game would end with if these pieces were agreed dead now (a proposal's
    /// preview): the same checks as [`Go::agree_dead`], and the game is not changed.
    pub fn score_with_dead(&self, dead: &DeadPieces) -> Result<Score, GoError> {
        let mut counted = self.clone();
        counted.agree_dead(dead)?;
        Ok(counted.current_score())
    }
}

/// The star points of a go board of `shape`: on the third line (fourth from 13 up) near
/// each corner, the centre of an odd board, and the middles of the sides from 15 up;
/// none on boards too small to have them, or where a hole is.
fn star_points(shape: &Shape) -> Vec<Square> {
    let lines = |size: u8| -> Vec<u8> {
        let edge = match size {
            13.. => 3,
            7.. => 2,
            _ => return Vec::new(),
        };
        let mut lines = vec![edge, size - 1 - edge];
        if size % 2 == 1 {
            lines.push(size / 2);
        }
        lines
    };
    let (files, ranks) = (lines(shape.width()), lines(shape.height()));
    let centre_only_middles = shape.width().min(shape.height()) < 15;
    let middle = |line: u8, size: u8| size % 2 == 1 && line == size / 2;
    files
        .iter()
        .flat_map(|&file| ranks.iter().map(move |&rank| (file, rank)))
        .filter(|&(file, rank)| {
            let (on_middle_file, on_middle_rank) = (middle(file, shape.width()), middle(rank, shape.height()));
            !centre_only_middles || on_middle_file == on_middle_rank
        })
        .filter_map(|(file, rank)| Square::new(file, rank))
        .filter(|&square| shape.contains(square))
        .collect()
}

impl Game for Go {
    type Options = GoOptions;
    type Error = GoError;

    const KIND: GameKind = GameKind::Go;

    fn new(options: GoOptions) -> Go {
        let board = Board::empty(options.shape());
        Go {
            options,
            before_last_turn: board.clone(),
            board,
            to_move: Color::Black,
            prisoners: [0, 0],
            passes_in_a_row: 0,
            turns_played: 0,
            last_turn: Vec::new(),
            captured: Vec::new(),
            counting: false,
            agreed_dead: None,
            ending: None,
        }
    }

    fn options(&self) -> &GoOptions {
        &self.options
    }

    fn status(&self) -> Status {
        Status::new(self.ending, self.to_move)
    }

    fn legal_turns(&self) -> Vec<Turn> {
        if self.ending.is_some() {
            return Vec::new();
        }
        let candidates = self.drops().chain(self.moves());
        let mut turns: Vec<Turn> = candidates.filter(|&turn| self.check(turn).is_ok()).collect();
        turns.push(Turn::Pass);
        turns
    }

    fn play(&mut self, turn: Turn) -> Result<(), GoError> {
        if self.ending.is_some() {
            return Err(GoError::GameOver);
        }
        if turn == Turn::Pass {
            self.counting = false;
            self.pass();
        } else {
            let (from, to, after, dead) = self.check(turn)?;
            // Any turn in the counting phase resumes play (rule 10).
            self.counting = false;
            self.commit(from, to, after, dead);
        }
        self.turns_played += 1;
        self.to_move = self.to_move.other();
        Ok(())
    }

    fn parse_turn(&self, text: &str) -> Result<Turn, GoError> {
        let text = notation::clean(text)?;
        if notation::is_pass(text) {
            return Ok(Turn::Pass);
        }
        if let Some((from, to)) = notation::split_move(text) {
            return Ok(Turn::movement(from, to));
        }
        let unreadable = || NotationError::Unreadable {
            text: text.to_owned(),
            expected: "write a drop like R@d4 or Rd4, a move like d4-d7, or pass",
        };
        let (role, to) = notation::split_drop(text).ok_or_else(unreadable)?;
        let role = match (role, self.options.pieces.as_slice()) {
            (Some(role), _) => role,
            (None, [only]) => *only,
            (None, _) => {
                let expected = "this set has several pieces: name the piece, like R@d4";
                return Err(NotationError::Unreadable { text: text.to_owned(), expected }.into());
            }
        };
        Ok(Turn::Drop { role, to })
    }

    fn format_turn(&self, turn: Turn) -> String {
        turn.to_string()
    }

    fn view(&self) -> BoardView {
        BoardView {
            last_turn: self.last_turn.clone(),
            captured: self.captured.clone(),
            star_points: if self.looks_like_go() { star_points(self.board.shape()) } else { Vec::new() },
            stone_role: self.looks_like_go().then_some(Role::Rook),
            score: Some(self.current_score()),
            prisoners: Some(self.prisoners),
            owner: self.ending.map(|_| controlled(&self.board)),
            ..BoardView::plain(
                self.board.shape().width(),
                self.board.shape().height(),
                self.board.cells(),
                if self.looks_like_go() { Look::Intersections } else { Look::Checkered },
                self.status(),
                self.turns_played,
            )
        }
    }

    fn score(&self) -> Option<Score> {
        Some(self.current_score())
    }

    fn owner(&self) -> Option<OwnerMap> {
        Some(controlled(&self.board))
    }
}
