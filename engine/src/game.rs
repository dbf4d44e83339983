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
    /// Chego: pieces are dropped, never moved, each onto a square both sides attack equally.
    Chego,
    /// Gess: 3x3 blocks of stones move as pieces on a go board; whoever loses his last ring loses.
    Gess,
    /// iChess: each side deploys its pieces by drops, then plays chess with a ferz for promotion.
    IChess,
    /// Go with chess pieces: go scoring and capture, with chess pieces that attack as they would move.
    Go,
    /// Chogo: soldiers move alone or in tandems on a 44-cell board; capture both kings, or the one king.
    Chogo,
}

impl GameKind {
    /// The five games in the order menus and help list them.
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
    /// The side that won.
    Winner(Color),
    /// Neither side won.
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
    /// Both sides passed in a row, so the board is scored (Go with chess pieces, Chego).
    TwoPasses,
    /// After two passes, the players agreed which pieces are dead, and the board was scored
    /// without them (Go with chess pieces with `counting=on`, rule 10).
    Counted,
    /// The side to move is in check and has no legal turn (iChess).
    Checkmate,
    /// The side to move has no legal turn: stalemate in iChess, a loss in Gess and Chogo.
    NoLegalTurn,
    /// The same position came back for the fourth time (iChess): a draw.
    Repetition,
    /// A fourfold repetition in which one side gave check all along: that side loses (iChess).
    PerpetualCheck,
    /// A player lost his last ring (Gess).
    RingDestroyed,
    /// A king was taken, and its side lost (Chogo).
    KingCaptured,
    /// One turn took both kings; the side that played it wins (Chogo).
    BothKingsCaptured,
    /// Fifty turns went by without a capture: a draw (Chogo, ruling H3).
    NoCaptureFor50Turns,
    /// A player resigned (decided by the service, not the rules).
    Resignation,
    /// The players agreed to a draw (decided by the service).
    Agreement,
    /// The side to move let its time run out (decided by the service).
    Timeout,
    /// The loser withdrew from the tournament the game belongs to, which forfeits his
    /// unfinished games (decided by the service).
    Forfeit,
    /// The game was called off without a result, by the players or an admin (decided by the service).
    Aborted,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::TwoPasses => "two passes",
            EndReason::Counted => "counting",
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
            EndReason::Forfeit => "forfeit",
            EndReason::Aborted => "aborted",
        })
    }
}

/// The end of a game: who won and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ending {
    /// Who won, or a draw.
    pub outcome: Outcome,
    /// The rule or event that ended the game.
    pub reason: EndReason,
}

/// Whether a game goes on, and whose turn it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// The game goes on.
    Ongoing {
        /// The side whose turn it is.
        to_move: Color,
    },
    /// The game is over, with this result.
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

    /// The side to move, or `None` once the game is over.
    #[must_use]
    pub fn to_move(self) -> Option<Color> {
        match self {
            Status::Ongoing { to_move } => Some(to_move),
            Status::Finished(_) => None,
        }
    }

    /// How the game ended, or `None` while it goes on.
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
    /// Whole points, such as a count of squares.
    #[must_use]
    pub fn whole(points: i32) -> HalfPoints {
        HalfPoints(points * 2)
    }

    /// The points as a number, for JSON and the search (`6.5`).
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
    /// White's points (komi included).
    pub white: HalfPoints,
    /// Black's points.
    pub black: HalfPoints,
}

impl Score {
    /// The points of one side.
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
    /// A square where a piece could stand, with none on it.
    Empty,
    /// A square with this piece on it.
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
    /// The block's centre before the move.
    pub from: Square,
    /// The block's centre after the move.
    pub to: Square,
    /// The side of the block, in squares (3 in Gess).
    pub size: u8,
}

/// Everything a picture of a position needs, independent of the game: the renderer draws
/// it without knowing which game it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardView {
    /// Files of the grid, holes included.
    pub width: u8,
    /// Ranks of the grid, holes included.
    pub height: u8,
    /// Row-major from `a1`: `cells[rank * width + file]`.
    pub cells: Vec<Cell>,
    /// Whether the board is drawn as a chessboard or as a go board.
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
    /// Whose turn it is, or how the game ended (for the header line).
    pub status: Status,
    /// Turns played so far (passes included).
    pub turns_played: u32,
    /// The points each side has, in games that count them.
    pub score: Option<Score>,
    /// Prisoners taken so far, `[by white, by black]`, where the game counts them.
    pub prisoners: Option<[u32; 2]>,
    /// Once a scored game is over: who controls each empty square.
    pub owner: Option<OwnerMap>,
}

impl BoardView {
    /// A `width` x `height` board of `cells` drawn with `look`, in `status` after
    /// `turns_played` turns, and nothing else: no marks, hands, scores or owner, sides
    /// named White and Black, White's home at the bottom. A game's view sets what it shows
    /// besides: `BoardView { hands, ..BoardView::plain(..) }`.
    #[must_use]
    pub fn plain(width: u8, height: u8, cells: Vec<Cell>, look: Look, status: Status, turns_played: u32) -> BoardView {
        BoardView {
            width,
            height,
            cells,
            look,
            last_turn: Vec::new(),
            captured: Vec::new(),
            block_move: None,
            checked: Vec::new(),
            star_points: Vec::new(),
            stone_role: None,
            hands: None,
            side_names: ["White", "Black"],
            first_rank_side: Color::White,
            status,
            turns_played,
            score: None,
            prisoners: None,
            owner: None,
        }
    }

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
    /// The options a challenge may set for this game (board size, set, komi...).
    type Options: GameOptions;
    /// Why a turn is refused: an enum of rule names, readable by players as is.
    type Error: std::error::Error + From<NotationError> + Clone + PartialEq + Send + Sync + 'static;

    /// Which of the five games this is.
    const KIND: GameKind;

    /// The start position.
    fn new(options: Self::Options) -> Self;

    /// The options this game was started with.
    fn options(&self) -> &Self::Options;

    /// Whose turn it is, or how the game ended.
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
