//! The game of Chogo: a [`Position`] the turn rules check and change (`turns.rs`), plus
//! what the game keeps around it: captures by enclosure (rule 9), the counters and the
//! endings (rules 10-11, rulings H2-H4).

use super::error::{ChogoError, side_name};
use super::notation;
use super::rules;
use super::setup::{self, ChogoOptions, SetupError};
use super::turns::Position;
use crate::board::Board;
use crate::game::{BoardView, EndReason, Ending, Game, GameKind, Look, Outcome, Status};
use crate::piece::{Hand, Piece, Role};
use crate::square::{Color, Square, SquareSet};
use crate::turn::Turn;

/// Ruling H3: this many turns in a row without a capture draw the game.
pub const QUIET_TURNS_FOR_DRAW: u32 = 50;

/// A game of Chogo.
#[derive(Clone, Debug)]
pub struct Chogo {
    options: ChogoOptions,
    /// The board, the hands and the side to move: what the turn rules read and change.
    position: Position,
    turns_played: u32,
    /// Turns since the last capture, counting both sides and the king drops (ruling H3).
    quiet_turns: u32,
    last_turn: Vec<Square>,
    captured: Vec<(Square, Piece)>,
    ending: Option<Ending>,
}

impl Chogo {
    /// A position from board strings (top rank first, one character per cell: `S`/`s`
    /// soldiers, `K`/`k` kings, `.` empty, `-` missing) with `to_move` to play. A side
    /// without a king on the board holds it in hand and must drop it first.
    ///
    /// Meant for tests and tools: such positions need not be reachable by play. The turn
    /// and capture counters start at zero; a side to move without a legal turn has lost.
    pub fn from_setup(rows: &[&str], to_move: Color) -> Result<Chogo, SetupError> {
        let (board, hands) = setup::read_rows(rows)?;
        let mut game = Chogo { position: Position { board, hands, to_move }, ..Chogo::new(ChogoOptions::default()) };
        game.ending = game.stalemate();
        Ok(game)
    }

    /// The pieces on the board now, with its shape.
    #[must_use]
    pub fn board(&self) -> &Board {
        &self.position.board
    }

    /// Rule 6: whether the piece on `square` stands between two enemies on opposite sides.
    #[must_use]
    pub fn is_trapped(&self, square: Square) -> bool {
        rules::is_trapped(&self.position.board, square)
    }

    /// Rule 8: the empty cells of the opponent's cities, where the side to move may drop.
    #[must_use]
    pub fn city_cells(&self) -> SquareSet {
        rules::city_cells(&self.position.board, self.position.to_move)
    }

    /// Turns played since the last capture (ruling H3).
    #[must_use]
    pub fn quiet_turns(&self) -> u32 {
        self.quiet_turns
    }

    /// Rule 9: removes every enclosed piece at once; returns which sides lost their king.
    fn capture(&mut self) -> [bool; 2] {
        let enclosed = rules::enclosed_pieces(&self.position.board);
        let mut kings = [false; 2];
        self.captured.clear();
        for square in enclosed.iter() {
            if let Some(piece) = self.position.board.remove(square) {
                kings[piece.color.index()] |= piece.role == Role::King;
                self.captured.push((square, piece));
            }
        }
        self.quiet_turns = if enclosed.is_empty() { self.quiet_turns + 1 } else { 0 };
        kings
    }

    /// Ruling H4's order after a turn by `mover`: a captured king (rule 10, ruling H2), then
    /// the 50-turn draw (ruling H3), then a side to move without a legal turn (rule 11).
    fn decide(&self, mover: Color, kings: [bool; 2]) -> Option<Ending> {
        let ending = |outcome, reason| Some(Ending { outcome, reason });
        match kings {
            [true, true] => ending(Outcome::Winner(mover), EndReason::BothKingsCaptured),
            [true, false] => ending(Outcome::Winner(Color::Black), EndReason::KingCaptured),
            [false, true] => ending(Outcome::Winner(Color::White), EndReason::KingCaptured),
            [false, false] if self.quiet_turns >= QUIET_TURNS_FOR_DRAW => {
                ending(Outcome::Draw, EndReason::NoCaptureFor50Turns)
            }
            [false, false] => self.stalemate(),
        }
    }

    /// Rule 11: the side to move loses when it has no legal turn.
    fn stalemate(&self) -> Option<Ending> {
        let outcome = Outcome::Winner(self.position.to_move.other());
        self.position.generate().is_empty().then_some(Ending { outcome, reason: EndReason::NoLegalTurn })
    }
}

impl Game for Chogo {
    type Options = ChogoOptions;
    type Error = ChogoError;

    const KIND: GameKind = GameKind::Chogo;

    fn new(options: ChogoOptions) -> Chogo {
        let (board, hands) = setup::start();
        Chogo {
            options,
            position: Position { board, hands, to_move: Color::White },
            turns_played: 0,
            quiet_turns: 0,
            last_turn: Vec::new(),
            captured: Vec::new(),
            ending: None,
        }
    }

    fn options(&self) -> &ChogoOptions {
        &self.options
    }

    fn status(&self) -> Status {
        Status::new(self.ending, self.position.to_move)
    }

    fn legal_turns(&self) -> Vec<Turn> {
        if self.ending.is_some() { Vec::new() } else { self.position.generate() }
    }

    fn play(&mut self, turn: Turn) -> Result<(), ChogoError> {
        if self.ending.is_some() {
            return Err(ChogoError::GameOver);
        }
        self.position.check(turn)?;
        let mover = self.position.to_move;
        self.last_turn = self.position.apply(turn);
        let kings = self.capture();
        self.turns_played += 1;
        self.position.to_move = mover.other();
        self.ending = self.decide(mover, kings);
        Ok(())
    }

    fn parse_turn(&self, text: &str) -> Result<Turn, ChogoError> {
        notation::parse(text)
    }

    /// `K@d2`, `d2-d5`, `f3g4-d3` (lower-left and upper-right corners, then the canonical
    /// target), `e1@b6`.
    fn format_turn(&self, turn: Turn) -> String {
        turn.to_string()
    }

    fn view(&self) -> BoardView {
        BoardView {
            last_turn: self.last_turn.clone(),
            captured: self.captured.clone(),
            hands: self.hands(),
            side_names: [side_name(Color::White), side_name(Color::Black)],
            ..BoardView::plain(
                rules::WIDTH,
                rules::HEIGHT,
                self.position.board.cells(),
                Look::Plain,
                self.status(),
                self.turns_played,
            )
        }
    }

    /// The kings in hand, until both are dropped.
    fn hands(&self) -> Option<[Hand; 2]> {
        (!self.position.hands.iter().all(Hand::is_empty)).then_some(self.position.hands)
    }
}
