//! The game of Gess: its (absent) options, the start position or a set-up one, and the
//! [`Game`] interface over the stones and the moves of `moves.rs`.

use std::ops::ControlFlow;

use super::board::{Layer, Point, SIDE, Stones};
use super::error::GessError;
use super::moves::{self, CheckedMove};
use crate::game::{BlockMove, BoardView, Cell, EndReason, Ending, Game, GameKind, Look, Outcome, Status};
use crate::notation::{self, NotationError};
use crate::options::{self, Analysis, GameOptions, OptionError, OptionPairs};
use crate::piece::{Piece, Role};
use crate::square::{Color, Square, SquareSet};
use crate::turn::Turn;

/// Gess has no options of its own, only `analysis` (every game's): any other key is
/// refused, naming it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GessOptions {
    /// Whether estimates may be asked for during play.
    pub analysis: Analysis,
}

impl GameOptions for GessOptions {
    fn from_pairs(pairs: &[(String, String)]) -> Result<GessOptions, OptionError> {
        let mut options = GessOptions::default();
        options::read_pairs(pairs, "analysis", |key, value| {
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

/// A position to start from that is not the rule 2 start: stones and the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setup {
    /// White's stones.
    pub white: SquareSet,
    /// Black's stones.
    pub black: SquareSet,
    /// The side that moves next.
    pub to_move: Color,
}

/// Why a [`Setup`] is not a Gess position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A stone on the outer ring, where stones never stand (rule 1).
    #[error("a stone on {square} is off the inner 18x18 (rule 1)")]
    OffInnerBoard {
        /// The stone off the inner board.
        square: Square,
    },
    /// A square listed among both sides' stones.
    #[error("{square} holds a stone of each player")]
    TwoStones {
        /// The square listed twice.
        square: Square,
    },
}

/// Rule 2: Black's stones by rank (1-based) and files; White's are the mirror image.
const BLACK_START: [(u8, &str); 4] = [
    (2, "c e g h i j k l m n p r"),
    (3, "b c d f h i j k m o q r s"),
    (4, "c e g h i j k l m n p r"),
    (7, "c f i l o r"),
];

/// A game of Gess.
#[derive(Clone, Debug)]
pub struct Gess {
    stones: Stones,
    to_move: Color,
    turns_played: u32,
    last_turn: Vec<Square>,
    captured: Vec<(Square, Piece)>,
    block_move: Option<BlockMove>,
    ending: Option<Ending>,
    options: GessOptions,
}

impl Gess {
    /// A game from any position (for problems and tests). The game is over at once when
    /// the side to move has no legal move (ruling S2); rule 9 ends a game only by a move.
    pub fn from_setup(setup: &Setup) -> Result<Gess, SetupError> {
        let layer = |set: &SquareSet| -> Result<Layer, SetupError> {
            let mut layer = Layer::default();
            for square in set.iter() {
                let point = Point::of(square).filter(|p| p.is_inner());
                layer.insert(point.ok_or(SetupError::OffInnerBoard { square })?);
            }
            Ok(layer)
        };
        if let Some(square) = setup.white.iter().find(|&s| setup.black.contains(s)) {
            return Err(SetupError::TwoStones { square });
        }
        let stones = Stones::new(layer(&setup.white)?, layer(&setup.black)?);
        let mut game = Gess::blank(stones, setup.to_move);
        if !game.has_legal_move() {
            game.ending =
                Some(Ending { outcome: Outcome::Winner(setup.to_move.other()), reason: EndReason::NoLegalTurn });
        }
        Ok(game)
    }

    fn blank(stones: Stones, to_move: Color) -> Gess {
        Gess {
            stones,
            to_move,
            turns_played: 0,
            last_turn: Vec::new(),
            captured: Vec::new(),
            block_move: None,
            ending: None,
            options: GessOptions::default(),
        }
    }

    /// The stones and the side to move.
    #[must_use]
    pub fn setup(&self) -> Setup {
        Setup { white: self.stones_of(Color::White), black: self.stones_of(Color::Black), to_move: self.to_move }
    }

    /// The squares of one player's stones.
    #[must_use]
    pub fn stones_of(&self, color: Color) -> SquareSet {
        self.stones.layer(color).points().map(Point::square).collect()
    }

    /// The centres of one player's rings (rule 7), by rank then file.
    #[must_use]
    pub fn rings(&self, color: Color) -> Vec<Square> {
        self.stones.rings(color).points().map(Point::square).collect()
    }

    /// The number of legal moves, without building the list.
    #[must_use]
    pub fn legal_move_count(&self) -> usize {
        let mut count = 0;
        self.for_each_legal_move(|_, _| {
            count += 1;
            ControlFlow::Continue(())
        });
        count
    }

    fn for_each_legal_move(&self, visit: impl FnMut(Point, Point) -> ControlFlow<()>) {
        if self.ending.is_none() {
            let _ = moves::for_each_legal_move(&self.stones, self.to_move, visit);
        }
    }

    fn has_legal_move(&self) -> bool {
        moves::for_each_legal_move(&self.stones, self.to_move, |_, _| ControlFlow::Break(())).is_break()
    }

    /// Plays a checked move and decides whether it ends the game (rule 9, ruling S2).
    ///
    /// S2 cannot end a game from the start position: a player who keeps a ring can always
    /// step that ring's own 3x3 one square towards the middle. It is checked all the same,
    /// as the rules say, and decides set-up positions.
    fn commit(&mut self, CheckedMove { from: start, to: end, after }: CheckedMove) {
        let footprints: SquareSet = start.area().chain(end.area()).map(Point::square).collect();
        let removed = self.stones.captured_by(self.to_move, start, end);
        // A stone of the piece put down on the outer ring was not on the board before.
        let color = |point: Point| self.stones.color_at(point).unwrap_or(self.to_move);
        self.captured = removed
            .iter()
            .map(|square| {
                let point = Point { file: square.file() as i8, rank: square.rank() as i8 };
                (square, Piece::new(color(point), Role::Stone))
            })
            .collect();
        self.block_move = Some(BlockMove { from: start.square(), to: end.square(), size: 3 });
        self.last_turn = footprints.iter().collect();
        self.stones = after;
        self.turns_played += 1;
        let mover = self.to_move;
        self.to_move = mover.other();
        let reason = if !self.stones.has_ring(self.to_move) {
            Some(EndReason::RingDestroyed)
        } else {
            (!self.has_legal_move()).then_some(EndReason::NoLegalTurn)
        };
        self.ending = reason.map(|reason| Ending { outcome: Outcome::Winner(mover), reason });
    }

    fn cell(&self, point: Point) -> Cell {
        if !point.is_inner() {
            return Cell::OffLimits;
        }
        match self.stones.color_at(point) {
            Some(color) => Cell::Piece(Piece::new(color, Role::Stone)),
            None => Cell::Empty,
        }
    }
}

/// The rule 2 start position.
fn start_stones() -> Stones {
    let mut black = Layer::default();
    let mut white = Layer::default();
    for (rank, files) in BLACK_START {
        for file in files.split_whitespace().filter_map(|letter| letter.bytes().next()) {
            let file = (file - b'a') as i8;
            black.insert(Point { file, rank: rank as i8 - 1 });
            white.insert(Point { file, rank: SIDE as i8 - rank as i8 });
        }
    }
    Stones::new(white, black)
}

impl Game for Gess {
    type Options = GessOptions;
    type Error = GessError;

    const KIND: GameKind = GameKind::Gess;

    fn new(options: GessOptions) -> Gess {
        Gess { options, ..Gess::blank(start_stones(), Color::Black) }
    }

    fn options(&self) -> &GessOptions {
        &self.options
    }

    fn status(&self) -> Status {
        Status::new(self.ending, self.to_move)
    }

    fn legal_turns(&self) -> Vec<Turn> {
        let mut turns = Vec::with_capacity(512);
        self.for_each_legal_move(|from, to| {
            turns.push(Turn::movement(from.square(), to.square()));
            ControlFlow::Continue(())
        });
        turns
    }

    fn play(&mut self, turn: Turn) -> Result<(), GessError> {
        if self.ending.is_some() {
            return Err(GessError::GameOver);
        }
        let (from, to) = match turn {
            Turn::Move { from, to, promotion: None } => (from, to),
            Turn::Pass => return Err(GessError::NoPassing),
            _ => return Err(GessError::WrongKind),
        };
        let checked = moves::check_move(&self.stones, self.to_move, from, to)?;
        self.commit(checked);
        Ok(())
    }

    fn parse_turn(&self, text: &str) -> Result<Turn, GessError> {
        let text = notation::clean(text)?;
        if notation::is_pass(text) {
            return Ok(Turn::Pass);
        }
        let (from, to) = notation::split_move(text).ok_or_else(|| NotationError::Unreadable {
            text: text.to_owned(),
            expected: "write the piece's centre before and after, like k7-i5 (or k7i5, k7xi5)",
        })?;
        Ok(Turn::movement(from, to))
    }

    fn format_turn(&self, turn: Turn) -> String {
        turn.to_string()
    }

    fn view(&self) -> BoardView {
        let points = (0..SIDE as i8).flat_map(|rank| (0..SIDE as i8).map(move |file| Point { file, rank }));
        BoardView {
            last_turn: self.last_turn.clone(),
            captured: self.captured.clone(),
            block_move: self.block_move,
            first_rank_side: Color::Black,
            ..BoardView::plain(
                SIDE,
                SIDE,
                points.map(|point| self.cell(point)).collect(),
                Look::Intersections,
                self.status(),
                self.turns_played,
            )
        }
    }
}
