//! iChess (Pangus Ho, 2014), per `docs/rules/ichess.md`: chess pieces with shogi pawns, drops into
//! the own half, and a deployment phase.
//!
//! The position lives on 64-bit bitboards (`bitboard.rs`, `position.rs`); turns are generated
//! legal (`movegen.rs`); `notation.rs` reads and prints the rules file's table; `repetition.rs`
//! keeps the positions seen for ruling I3. This file holds the game itself: the rule
//! checks that name what a refused turn breaks, and the endings.

mod bare;
mod bitboard;
mod movegen;
mod notation;
mod position;
mod repetition;

use crate::game::{BoardView, Cell, EndReason, Ending, Game, GameKind, Look, Outcome, Status};
use crate::notation::NotationError;
use crate::options::{self, GameOptions, OptionError, OptionPairs};
use crate::piece::{Hand, Piece, Role};
use crate::square::{Color, Square};
use crate::turn::Turn;

use bitboard as bb;
use position::{Mv, Position};
use repetition::Entry;

pub use bare::{Bare, BareTurn, history_checks, history_keys};
pub use position::SetupError;

/// iChess has no options: the board and the set are fixed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct IChessOptions;

impl GameOptions for IChessOptions {
    fn from_pairs(pairs: &[(String, String)]) -> Result<IChessOptions, OptionError> {
        options::read_pairs(pairs, "no options (iChess is always 8x8 with the full set)", |_, _| None)?;
        Ok(IChessOptions)
    }

    fn to_pairs(&self) -> OptionPairs {
        Vec::new()
    }
}

/// Why an iChess turn is refused, named after the rule it breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IChessError {
    /// The text is not an iChess turn at all; the notation error says what was expected.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// The game has ended, so no further turn is accepted.
    #[error("the game is over")]
    GameOver,
    /// A pass or other turn iChess does not have.
    #[error("iChess turns are moves and drops (there is no passing)")]
    WrongKind,
    /// A square beyond the 8x8 board.
    #[error("{square} is not a square of the 8x8 board")]
    NoSuchSquare {
        /// The square named.
        square: Square,
    },
    /// A piece from the catalogue that iChess does not use (a nightrider, say).
    #[error("iChess has no {role}: its pieces are the king, queen, rook, bishop, knight, pawn and ferz")]
    NotAPiece {
        /// The piece named.
        role: Role,
    },
    /// A drop of a piece the player does not hold.
    #[error("you have no {role} in hand")]
    NotInHand {
        /// The piece named.
        role: Role,
    },
    /// A king dropped while other pieces are still in hand (rule 3).
    #[error("the king is dropped last (rule 3): drop your other pieces first")]
    KingNotLast,
    /// A drop outside the dropping side's four ranks (rule 2).
    #[error("{square} is outside your drop zone (rule 2: White drops on ranks 1-4, Black on ranks 5-8)")]
    OutsideDropZone {
        /// The target square.
        square: Square,
    },
    /// A drop onto an occupied square.
    #[error("{square} is not empty: a {piece} stands there")]
    Occupied {
        /// The target square.
        square: Square,
        /// The piece standing there, as players read it.
        piece: String,
    },
    /// A second pawn of one side on a file (rule 9).
    #[error("no doubled pawns (rule 9): you already have a pawn on the {file}-file")]
    DoublePawn {
        /// The file, as a letter.
        file: char,
    },
    /// A king dropped onto an attacked square (rule 4).
    #[error("the king may not be dropped on {square}: it is attacked (rule 4)")]
    KingDropAttacked {
        /// The target square.
        square: Square,
    },
    /// A move while the deployment of the first 16 turns is not over (rule 3).
    #[error("pieces do not move during deployment (rule 3): drop a piece from your hand, like N=b1")]
    DeploymentDropsOnly,
    /// A move from a square without the mover's piece.
    #[error("you have no piece on {square}")]
    NoOwnPiece {
        /// The square the move starts from.
        square: Square,
    },
    /// A move naming a piece that is not the one standing on its square.
    #[error("you have no {role} on {square}")]
    NoSuchPiece {
        /// The piece named.
        role: Role,
        /// The square named.
        square: Square,
    },
    /// A capture written onto an empty square.
    #[error("there is nothing to capture on {square}")]
    NothingToCapture {
        /// The empty target.
        square: Square,
    },
    /// A move onto a square held by the mover's own piece.
    #[error("your own piece stands on {square}")]
    OwnPieceOnTarget {
        /// The target square.
        square: Square,
    },
    /// A move the piece cannot make by its movement (rule 6).
    #[error("a {role} cannot go from {from} to {to} (rule 6)")]
    Unreachable {
        /// The piece moved.
        role: Role,
        /// Where it stands.
        from: Square,
        /// Where it was meant to go.
        to: Square,
    },
    /// A promotion to anything but a ferz (rule 7).
    #[error("a pawn promotes only to a ferz (rule 7), not to a {role}")]
    BadPromotion {
        /// The piece asked for.
        role: Role,
    },
    /// A promotion mark on a move of a piece that is not a pawn (rule 7).
    #[error("only pawns promote (rule 7), and this is a {role}")]
    OnlyPawnsPromote {
        /// The piece moved.
        role: Role,
    },
    /// A promotion on a square outside the opponent's four ranks (rule 7).
    #[error("{square} is outside the promotion zone (rule 7: a pawn promotes in the opponent's four ranks)")]
    PromotionOutsideZone {
        /// The target square.
        square: Square,
    },
    /// A pawn move onto the last rank written without promotion, which is forced there (rule 7).
    #[error("a pawn reaching {square}, the last rank, must promote (rule 7): write =F")]
    PromotionForced {
        /// The target square.
        square: Square,
    },
    /// A turn that leaves the mover's king in check (rule 10).
    #[error("your king is in check, and this turn does not get it out of check (rule 10)")]
    StillInCheck,
    /// A king move onto an attacked square (rule 10).
    #[error("your king may not go to {square}: it is attacked there (rule 10)")]
    KingIntoCheck {
        /// The target square.
        square: Square,
    },
    /// A move of a pinned piece that would expose its own king (rule 10).
    #[error("the piece on {from} is pinned: moving it would expose your king (rule 10)")]
    ExposesKing {
        /// The pinned piece.
        from: Square,
    },
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
}

impl IChess {
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

    fn new(_: IChessOptions) -> IChess {
        IChess::from_position(Position::start())
    }

    fn options(&self) -> &IChessOptions {
        &IChessOptions
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
