//! The game of iChess: the rule checks that name what a refused turn breaks, the
//! deployment phase, and the endings (mate, no turn, repetition: ruling I3).

use super::bitboard as bb;
use super::error::IChessError;
use super::movegen;
use super::notation;
use super::position::{self, Mv, Position, SetupError};
use super::repetition::{self, Entry};
use crate::game::{BoardView, Cell, EndReason, Ending, Game, GameKind, Look, Outcome, Status};
use crate::options::{self, Analysis, GameOptions, OptionError, OptionPairs};
use crate::piece::{Hand, Piece, Role};
use crate::square::{Color, Square};
use crate::turn::Turn;

/// iChess has no options of its own (the board and the set are fixed), only `analysis`
/// (every game's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct IChessOptions {
    /// Whether estimates may be asked for during play.
    pub analysis: Analysis,
}

impl GameOptions for IChessOptions {
    fn from_pairs(pairs: &[(String, String)]) -> Result<IChessOptions, OptionError> {
        let mut options = IChessOptions::default();
        options::read_pairs(pairs, "analysis (iChess is always 8x8 with the full set)", |key, value| {
            (key == Analysis::KEY).then(|| Analysis::parse(key, value).map(|analysis| options.analysis = analysis))
        })?;
        Ok(options)
    }

    fn to_pairs(&self) -> OptionPairs {
        let mut pairs = Vec::new();
        self.analysis.push_to(&mut pairs);
        pairs
    }

    fn analysis(&self) -> Analysis {
        self.analysis
    }
}

/// A game of iChess.
#[derive(Clone, Debug)]
pub struct IChess {
    position: Position,
    /// Every position so far, for ruling I3.
    history: Vec<Entry>,
    turns_played: u32,
    last_turn: Vec<Square>,
    captured: Vec<(Square, Piece)>,
    ending: Option<Ending>,
    options: IChessOptions,
}

impl IChess {
    /// The position now, for the bare position of searches (`bare.rs`).
    pub(super) fn position(&self) -> &Position {
        &self.position
    }

    /// Every position so far, oldest first, for the searches' view of repetitions.
    pub(super) fn history(&self) -> &[Entry] {
        &self.history
    }

    /// A game from a set-up text `board[hands] side`, as Fairy-Stockfish writes positions
    /// (`8/8/pppppppp/8/8/PPPPPPPP/8/8[KQRRBBNNkqrrbbnn] w` is the start). For tests,
    /// analysis and perft; games played by users always start from [`Game::new`].
    pub fn from_fen(text: &str) -> Result<IChess, SetupError> {
        Ok(IChess::from_position(Position::from_fen(text)?))
    }

    fn from_position(position: Position) -> IChess {
        let check = position.in_check();
        let mut game = IChess {
            history: vec![Entry { key: repetition::key(&position), check }],
            position,
            turns_played: 0,
            last_turn: Vec::new(),
            captured: Vec::new(),
            ending: None,
            options: IChessOptions::default(),
        };
        game.ending = game.no_turn_ending(position.turn().other());
        game
    }

    /// The position as a set-up text (see [`IChess::from_fen`]).
    #[must_use]
    pub fn fen(&self) -> String {
        self.position.fen()
    }

    /// The number of legal turn sequences `depth` plies deep (endings by repetition are
    /// not considered, as in every perft).
    #[must_use]
    pub fn perft(&self, depth: u32) -> u64 {
        movegen::perft(&self.position, depth)
    }

    /// The square of the king of the side to move, when it is in check.
    fn checked_king(&self) -> Option<Square> {
        let king = self.position.king(self.position.turn())?;
        self.position.in_check().then(|| bb::square(king))
    }

    /// Rules 11-12 (ruling I2): the side to move with no legal turn loses.
    fn no_turn_ending(&self, mover: Color) -> Option<Ending> {
        if movegen::count_legal(&self.position) > 0 {
            return None;
        }
        let reason = if self.position.in_check() { EndReason::Checkmate } else { EndReason::NoLegalTurn };
        Some(Ending { outcome: Outcome::Winner(mover), reason })
    }

    fn check(&self, turn: Turn) -> Result<Mv, IChessError> {
        match turn {
            Turn::Drop { role, to } => self.check_drop(role, to),
            Turn::Move { from, to, promotion } => self.check_move(from, to, promotion),
            _ => Err(IChessError::WrongKind),
        }
    }

    fn check_drop(&self, role: Role, to: Square) -> Result<Mv, IChessError> {
        let position = &self.position;
        let us = position.turn();
        // The position indexes its tables by iChess's seven roles only.
        if !position::ROLES.contains(&role) {
            return Err(IChessError::NotAPiece { role });
        }
        let target = bb::index(to).ok_or(IChessError::NoSuchSquare { square: to })?;
        let hand = position.hand(us);
        if !hand.contains(role) {
            return Err(IChessError::NotInHand { role });
        }
        if role == Role::King && hand.len() > 1 {
            return Err(IChessError::KingNotLast);
        }
        if bb::drop_zone(us) & bb::bit(target) == 0 {
            return Err(IChessError::OutsideDropZone { square: to });
        }
        if let Some(piece) = position.piece_at(target) {
            return Err(IChessError::Occupied { square: to, piece: piece.describe() });
        }
        if role == Role::Pawn && bb::files_of(position.pieces(us, Role::Pawn)) & bb::bit(target) != 0 {
            return Err(IChessError::DoublePawn { file: char::from(b'a' + to.file()) });
        }
        self.check_king_safety(Mv::Drop { role, to: target })
    }

    fn check_move(&self, from: Square, to: Square, promotion: Option<Role>) -> Result<Mv, IChessError> {
        let position = &self.position;
        let us = position.turn();
        let start = bb::index(from).ok_or(IChessError::NoSuchSquare { square: from })?;
        let target = bb::index(to).ok_or(IChessError::NoSuchSquare { square: to })?;
        if position.deploying() {
            return Err(IChessError::DeploymentDropsOnly);
        }
        let piece = position.piece_at(start).filter(|piece| piece.color == us);
        let piece = piece.ok_or(IChessError::NoOwnPiece { square: from })?;
        if position.color(us) & bb::bit(target) != 0 {
            return Err(IChessError::OwnPieceOnTarget { square: to });
        }
        if Position::attacks(piece.role, us, start, position.occupied()) & bb::bit(target) == 0 {
            return Err(IChessError::Unreachable { role: piece.role, from, to });
        }
        let promote = check_promotion(piece.role, us, to, target, promotion)?;
        self.check_king_safety(Mv::Move { from: start, to: target, promote })
    }

    /// Rule 10 (and rule 4 for a king drop): the own king may not stand attacked after.
    fn check_king_safety(&self, mv: Mv) -> Result<Mv, IChessError> {
        let us = self.position.turn();
        let mut after = self.position;
        after.play(mv);
        if !after.king_attacked(us) {
            return Ok(mv);
        }
        let square = bb::square(mv.to());
        Err(match mv {
            Mv::Drop { role: Role::King, .. } => IChessError::KingDropAttacked { square },
            Mv::Move { from, .. } if Some(from) == self.position.king(us) => IChessError::KingIntoCheck { square },
            _ if self.position.in_check() => IChessError::StillInCheck,
            Mv::Move { from, .. } => IChessError::ExposesKing { from: bb::square(from) },
            Mv::Drop { .. } => IChessError::StillInCheck,
        })
    }

    fn apply(&mut self, mv: Mv) {
        let mover = self.position.turn();
        let captured = self.position.play(mv);
        self.turns_played += 1;
        self.last_turn = notation::to_turn(mv).touched();
        self.captured = captured.map(|piece| (bb::square(mv.to()), piece)).into_iter().collect();
        let check = self.position.in_check();
        self.history.push(Entry { key: repetition::key(&self.position), check });
        self.ending = repetition::verdict(&self.history, mover).or_else(|| self.no_turn_ending(mover));
    }

    fn cells(&self) -> Vec<Cell> {
        (0..64u8).map(|index| self.position.piece_at(index).map_or(Cell::Empty, Cell::Piece)).collect()
    }
}

/// Rule 7: a pawn may promote to a ferz in the zone, and must on the last rank.
fn check_promotion(
    role: Role,
    us: Color,
    to: Square,
    target: u8,
    promotion: Option<Role>,
) -> Result<bool, IChessError> {
    match promotion {
        None if role == Role::Pawn && bb::last_rank(us) & bb::bit(target) != 0 => {
            Err(IChessError::PromotionForced { square: to })
        }
        None => Ok(false),
        Some(Role::Ferz) if role != Role::Pawn => Err(IChessError::OnlyPawnsPromote { role }),
        Some(Role::Ferz) if bb::promotion_zone(us) & bb::bit(target) == 0 => {
            Err(IChessError::PromotionOutsideZone { square: to })
        }
        Some(Role::Ferz) => Ok(true),
        Some(other) => Err(IChessError::BadPromotion { role: other }),
    }
}

impl Game for IChess {
    type Options = IChessOptions;
    type Error = IChessError;

    const KIND: GameKind = GameKind::IChess;

    fn new(options: IChessOptions) -> IChess {
        IChess { options, ..IChess::from_position(Position::start()) }
    }

    fn options(&self) -> &IChessOptions {
        &self.options
    }

    fn status(&self) -> Status {
        Status::new(self.ending, self.position.turn())
    }

    fn legal_turns(&self) -> Vec<Turn> {
        if self.ending.is_some() {
            return Vec::new();
        }
        movegen::legal_moves(&self.position).into_iter().map(notation::to_turn).collect()
    }

    fn play(&mut self, turn: Turn) -> Result<(), IChessError> {
        if self.ending.is_some() {
            return Err(IChessError::GameOver);
        }
        let mv = self.check(turn)?;
        self.apply(mv);
        Ok(())
    }

    fn parse_turn(&self, text: &str) -> Result<Turn, IChessError> {
        notation::parse(&self.position, text)
    }

    fn format_turn(&self, turn: Turn) -> String {
        match notation::from_turn(turn) {
            Some(mv) if self.position.piece_at(mv.to()).is_none_or(|p| p.color != self.position.turn()) => {
                notation::format(&self.position, mv)
            }
            _ => turn.to_string(),
        }
    }

    fn view(&self) -> BoardView {
        BoardView {
            last_turn: self.last_turn.clone(),
            captured: self.captured.clone(),
            checked: self.checked_king().into_iter().collect(),
            hands: Some(self.position.hands()),
            ..BoardView::plain(8, 8, self.cells(), Look::Checkered, self.status(), self.turns_played)
        }
    }

    fn hands(&self) -> Option<[Hand; 2]> {
        Some(self.position.hands())
    }
}
