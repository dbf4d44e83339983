//! The interface every game implements, and what it reports: status, score, board view.

use std::fmt;

use crate::notation::NotationError;
use crate::options::{GameOptions, OptionPairs};
use crate::piece::{Hand, Piece, Role};
use crate::square::{Color, Square};
use crate::turn::Turn;

/// The five games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameKind {
    Chego,
    Gess,
    IChess,
    Go,
    Chogo,
}

impl GameKind {
    pub const ALL: [GameKind; 5] = [GameKind::Chego, GameKind::Gess, GameKind::IChess, GameKind::Go, GameKind::Chogo];

    /// The name used in commands and records: `chego`, `gess`, `ichess`, `go`, `chogo`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Chego => "chego",
            GameKind::Gess => "gess",
            GameKind::IChess => "ichess",
            GameKind::Go => "go",
            GameKind::Chogo => "chogo",
        }
    }

    /// The name players know the game by.
    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            GameKind::Chego => "Chego",
            GameKind::Gess => "Gess",
            GameKind::IChess => "iChess",
            GameKind::Go => "Go with chess pieces",
            GameKind::Chogo => "Chogo",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of the five games.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("there is no game called `{0}` (the games are chego, gess, ichess, go and chogo)")]
pub struct UnknownGame(pub String);

impl std::str::FromStr for GameKind {
    type Err = UnknownGame;

    fn from_str(text: &str) -> Result<GameKind, UnknownGame> {
        let lower = text.trim().to_ascii_lowercase();
        GameKind::ALL.into_iter().find(|kind| kind.name() == lower).ok_or_else(|| UnknownGame(text.to_owned()))
    }
}

/// How a finished game came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    Winner(Color),
    Draw,
}

impl Outcome {
    /// `white`, `black` or `draw`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Winner(color) => color.name(),
            Outcome::Draw => "draw",
        }
    }
}

/// Why a game ended. The engine decides the rule-based endings; the service adds the
/// players' own (resignation, agreement, time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    TwoPasses,
    Checkmate,
    NoLegalTurn,
    Repetition,
    PerpetualCheck,
    RingDestroyed,
    KingCaptured,
    BothKingsCaptured,
    NoCaptureFor50Turns,
    Resignation,
    Agreement,
    Timeout,
    Aborted,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::TwoPasses => "two passes",
            EndReason::Checkmate => "checkmate",
            EndReason::NoLegalTurn => "no legal turn",
            EndReason::Repetition => "fourfold repetition",
            EndReason::PerpetualCheck => "perpetual check",
            EndReason::RingDestroyed => "ring destroyed",
            EndReason::KingCaptured => "king captured",
            EndReason::BothKingsCaptured => "both kings captured",
            EndReason::NoCaptureFor50Turns => "50 turns without a capture",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "draw agreed",
            EndReason::Timeout => "time ran out",
            EndReason::Aborted => "aborted",
        })
    }
}

/// The end of a game: who won and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ending {
    pub outcome: Outcome,
    pub reason: EndReason,
}

/// Whether a game goes on, and whose turn it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    Ongoing { to_move: Color },
    Finished(Ending),
}

impl Status {
    /// Finished with `ending` if there is one, else `to_move` plays.
    #[must_use]
    pub fn new(ending: Option<Ending>, to_move: Color) -> Status {
        match ending {
            Some(ending) => Status::Finished(ending),
            None => Status::Ongoing { to_move },
        }
    }

    #[must_use]
    pub fn to_move(self) -> Option<Color> {
        match self {
            Status::Ongoing { to_move } => Some(to_move),
            Status::Finished(_) => None,
        }
    }

    #[must_use]
    pub fn ending(self) -> Option<Ending> {
        match self {
            Status::Ongoing { .. } => None,
            Status::Finished(ending) => Some(ending),
        }
    }
}

/// Points in halves, so that a komi of 6.5 is exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct HalfPoints(pub i32);

impl HalfPoints {
    #[must_use]
    pub fn whole(points: i32) -> HalfPoints {
        HalfPoints(points * 2)
    }

    #[must_use]
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 2.0
    }
}

impl std::ops::Add for HalfPoints {
    type Output = HalfPoints;
    fn add(self, other: HalfPoints) -> HalfPoints {
        HalfPoints(self.0 + other.0)
    }
}

/// `19` or `25.5`.
impl fmt::Display for HalfPoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 % 2 == 0 { write!(f, "{}", self.0 / 2) } else { write!(f, "{}", self.as_f64()) }
    }
}

/// Both players' points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Score {
    pub white: HalfPoints,
    pub black: HalfPoints,
}

impl Score {
    #[must_use]
    pub fn of(&self, color: Color) -> HalfPoints {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// More points wins; equal points is a draw.
    #[must_use]
    pub fn outcome(&self) -> Outcome {
        match self.white.cmp(&self.black) {
            std::cmp::Ordering::Greater => Outcome::Winner(Color::White),
            std::cmp::Ordering::Less => Outcome::Winner(Color::Black),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }
}

/// Who controls each empty square at scoring time (`None`: neutral).
pub type OwnerMap = Vec<(Square, Option<Color>)>;

/// What a cell of a [`BoardView`] shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cell {
    /// No such square: a hole, or a missing Chogo corner. Drawn as absent.
    Missing,
    /// A square that exists but where no piece may stay (Gess's outer ring).
    OffLimits,
    Empty,
    Piece(Piece),
}

impl Cell {
    /// The character of the `replay` board strings.
    #[must_use]
    pub fn char(self) -> char {
        match self {
            Cell::Missing => '-',
            Cell::OffLimits | Cell::Empty => '.',
            Cell::Piece(piece) => piece.char(),
        }
    }
}

/// How a board is drawn: a chessboard of squares, or the lines of a go board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Look {
    /// Light and dark squares, pieces as figures (`a1` dark).
    Checkered,
    /// Plain squares of one colour with pieces as figures or stones.
    Plain,
    /// Pieces on the intersections of grid lines, as on a go board.
    Intersections,
}

/// A block of `size` x `size` squares moved as one piece, named by its centre before and
/// after.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BlockMove {
    pub from: Square,
    pub to: Square,
    pub size: u8,
}

/// Everything a picture of a position needs, independent of the game: the renderer draws
/// it without knowing which game it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardView {
    pub width: u8,
    pub height: u8,
    /// Row-major from `a1`: `cells[rank * width + file]`.
    pub cells: Vec<Cell>,
    pub look: Look,
    /// Squares the last turn touched (from, to, drop square, every cell of a tandem).
    pub last_turn: Vec<Square>,
    /// Squares where pieces were captured by the last turn, and what stood there.
    pub captured: Vec<(Square, Piece)>,
    /// The last turn moved a block of squares as one piece (Gess's 3x3 pieces): drawn as
    /// the block's frame before and after, joined by an arrow.
    pub block_move: Option<BlockMove>,
    /// Squares of kings that are in check.
    pub checked: Vec<Square>,
    /// The star points of a go board (drawn as dots where the lines cross).
    pub star_points: Vec<Square>,
    /// Pieces of this role are drawn as plain stones (Go played with rooks alone looks like
    /// go: every piece is a rook, so the figure says nothing).
    pub stone_role: Option<Role>,
    /// Pieces in hand, for games that have hands: `[white, black]`.
    pub hands: Option<[Hand; 2]>,
    /// How users call each side, `[white, black]` ("Green" for Chogo's second side).
    pub side_names: [&'static str; 2],
    /// The side whose home edge is rank 1, so that a picture for that side shows rank 1 at
    /// the bottom: White, except in Gess, where Black starts on ranks 2-7.
    pub first_rank_side: Color,
    pub status: Status,
    /// Turns played so far (passes included).
    pub turns_played: u32,
    pub score: Option<Score>,
    /// Prisoners taken so far, `[by white, by black]`, where the game counts them.
    pub prisoners: Option<[u32; 2]>,
    /// Once a scored game is over: who controls each empty square.
    pub owner: Option<OwnerMap>,
}

impl BoardView {
    /// The cell at `square` (`Missing` off the grid).
    #[must_use]
    pub fn cell(&self, square: Square) -> Cell {
        if square.file() >= self.width || square.rank() >= self.height {
            return Cell::Missing;
        }
        self.cells[usize::from(square.rank()) * usize::from(self.width) + usize::from(square.file())]
    }

    /// One string per rank, top rank first, as `stonemate replay` prints the board.
    #[must_use]
    pub fn rows(&self) -> Vec<String> {
        self.cells.chunks(usize::from(self.width)).rev().map(|row| row.iter().map(|c| c.char()).collect()).collect()
    }
}

/// The rules of one game. Implementations are plain values: cloning one is how callers try
/// a turn without committing to it.
pub trait Game: Clone + fmt::Debug + Send + Sync + 'static {
    type Options: GameOptions;
    /// Why a turn is refused: an enum of rule names, readable by players as is.
    type Error: std::error::Error + From<NotationError> + Clone + PartialEq + Send + Sync + 'static;

    const KIND: GameKind;

    /// The start position.
    fn new(options: Self::Options) -> Self;

    fn options(&self) -> &Self::Options;

    fn status(&self) -> Status;

    /// Every legal turn of the side to move, in a stable order; empty once finished.
    fn legal_turns(&self) -> Vec<Turn>;

    /// Applies the turn, or refuses it and leaves the game exactly as it was.
    fn play(&mut self, turn: Turn) -> Result<(), Self::Error>;

    /// Reads a turn in this game's notation, in this position.
    fn parse_turn(&self, text: &str) -> Result<Turn, Self::Error>;

    /// Prints a turn in this game's notation, in this position (the turn is not played).
    fn format_turn(&self, turn: Turn) -> String;

    /// What a picture of this position needs.
    fn view(&self) -> BoardView;

    /// Both players' points, for games that count them (Chego, Go).
    fn score(&self) -> Option<Score> {
        None
    }

    /// Who controls each empty square, for games that count territory (Chego, Go).
    fn owner(&self) -> Option<OwnerMap> {
        None
    }

    /// Pieces in hand `[white, black]`, for games that have hands.
    fn hands(&self) -> Option<[Hand; 2]> {
        None
    }

    /// The side to move, `None` once the game is over.
    fn to_move(&self) -> Option<Color> {
        self.status().to_move()
    }

    /// Parses and plays a turn; returns the turn played.
    fn play_text(&mut self, text: &str) -> Result<Turn, Self::Error> {
        let turn = self.parse_turn(text)?;
        self.play(turn)?;
        Ok(turn)
    }

    /// Whether the turn would be accepted (the game is not changed).
    fn is_legal(&self, turn: Turn) -> bool {
        self.clone().play(turn).is_ok()
    }

    /// The options as they are printed and stored: every key, defaults included.
    fn option_pairs(&self) -> OptionPairs {
        self.options().to_pairs()
    }
}
