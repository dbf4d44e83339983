//! Go with chess pieces (H. Bodlaender, 1998), per `docs/rules/go-with-pieces.md`.
//!
//! Stones are replaced by catalogue pieces: a piece is alive when it can move to an empty
//! square or defends a friendly alive piece (rule 3). After a drop or move, the opponent's
//! pieces that are not alive are captured (4); the mover's own must all be alive (5, G4);
//! simple ko (6); two passes end the game (7); territory plus prisoners scores (8, 9).
//! With `counting=on`, the two passes open a counting phase instead (rule 10, in
//! `go/counting.rs`): the players agree on dead pieces (`dead c3 d4`) or resume play.

mod counting;

pub use counting::{DeadPieces, MAX_DEAD_TEXT};

use std::ops::ControlFlow;

use crate::board::Board;
use crate::game::{BoardView, EndReason, Ending, Game, GameKind, HalfPoints, Look, OwnerMap, Score, Status};
use crate::notation::{self, NotationError};
use crate::options::{self, GameOptions, OptionError, OptionPairs};
use crate::piece::{Piece, Role};
use crate::square::{Color, Shape, Square, SquareSet};
use crate::turn::Turn;

/// Which squares of the board exist for play (ruling G2: `light` makes dark squares holes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Squares {
    /// Every square of the grid is played on.
    All,
    /// Only the light squares (as on a chessboard, a1 dark): dark ones are holes, for a set of
    /// bishops of one colour.
    Light,
    /// Only the dark squares: light ones are holes.
    Dark,
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

/// The options of a challenge (see the table in `docs/rules/go-with-pieces.md`).
#[derive(Debug, Clone, PartialEq)]
pub struct GoOptions {
    /// The grid and the holes the challenger listed (before `squares` is applied).
    pub board: Shape,
    /// The piece types of the set, in hand order, without repeats.
    pub pieces: Vec<Role>,
    /// Which squares of the grid exist for play (ruling G2).
    pub squares: Squares,
    /// Whether pieces on the board may move as chess pieces besides being dropped (`moving=on`).
    pub moving: bool,
    /// Points added to White's score to make up for Black's first turn.
    pub komi: HalfPoints,
    /// Whether two passes open a counting phase where the players agree on dead pieces
    /// (rule 10, `counting=on`) instead of ending the game.
    pub counting: bool,
}

const KNOWN_KEYS: &str = "board, pieces, squares, moving, komi, counting";

impl Default for GoOptions {
    fn default() -> GoOptions {
        GoOptions {
            board: Shape::rectangle(19, 19),
            pieces: vec![Role::Rook],
            squares: Squares::All,
            moving: false,
            komi: HalfPoints(0),
            counting: false,
        }
    }
}

impl GoOptions {
    /// The board as played: the listed holes plus the squares `squares` takes away.
    #[must_use]
    pub fn shape(&self) -> Shape {
        let removed = self.board.squares().filter(|square| match self.squares {
            Squares::All => false,
            Squares::Light => square.is_dark(),
            Squares::Dark => !square.is_dark(),
        });
        let removed: Vec<Square> = removed.collect();
        self.board.with_holes(removed)
    }
}

impl GameOptions for GoOptions {
    fn from_pairs(pairs: &[(String, String)]) -> Result<GoOptions, OptionError> {
        let mut options = GoOptions::default();
        let mut squares = None;
        options::read_pairs(pairs, KNOWN_KEYS, |key, value| {
            Some(match key {
                "board" => options::parse_board(key, value, 2..=25).map(|shape| options.board = shape),
                "pieces" => parse_pieces(key, value).map(|pieces| options.pieces = pieces),
                "squares" => parse_squares(key, value).map(|value| squares = Some(value)),
                "moving" => parse_on_off(key, value).map(|on| options.moving = on),
                "komi" => parse_komi(key, value).map(|komi| options.komi = komi),
                "counting" => parse_on_off(key, value).map(|on| options.counting = on),
                _ => return None,
            })
        })?;
        // The default is light squares when the set is bishops only (ruling G2).
        options.squares =
            squares.unwrap_or(if options.pieces == [Role::Bishop] { Squares::Light } else { Squares::All });
        if options.shape().square_count() < 2 {
            return Err(OptionError::bad(
                "squares",
                squares_name(options.squares),
                "that leaves fewer than two squares to play on",
            ));
        }
        Ok(options)
    }

    /// Every option, except `counting` while it is `off`: a record without the key is read
    /// as `off` (rule 10's default for a bare record), so leaving it out keeps every record,
    /// SGF and stored challenge written before counting existed exactly as it was.
    fn to_pairs(&self) -> OptionPairs {
        let pieces: String = self.pieces.iter().map(|role| role.letter()).collect();
        let mut pairs = vec![
            ("board".to_owned(), options::format_board(&self.board)),
            ("pieces".to_owned(), pieces),
            ("squares".to_owned(), squares_name(self.squares).to_owned()),
            ("moving".to_owned(), if self.moving { "on" } else { "off" }.to_owned()),
            ("komi".to_owned(), self.komi.to_string()),
        ];
        if self.counting {
            pairs.push(("counting".to_owned(), "on".to_owned()));
        }
        pairs
    }
}

fn squares_name(squares: Squares) -> &'static str {
    match squares {
        Squares::All => "all",
        Squares::Light => "light",
        Squares::Dark => "dark",
    }
}

fn parse_pieces(key: &str, value: &str) -> Result<Vec<Role>, OptionError> {
    let mut roles = Vec::new();
    for letter in value.chars().filter(|c| !matches!(c, ',' | ' ' | '+')) {
        match Role::from_letter(letter).filter(|role| Role::CATALOGUE.contains(role)) {
            Some(role) if !roles.contains(&role) => roles.push(role),
            Some(_) => {}
            None => {
                return Err(OptionError::bad(
                    key,
                    value,
                    format!("`{letter}` is not a piece; use letters of R B Q K N P W F D A H G"),
                ));
            }
        }
    }
    if roles.is_empty() {
        return Err(OptionError::bad(key, value, "name at least one piece, like R or RN"));
    }
    roles.sort();
    Ok(roles)
}

fn parse_squares(key: &str, value: &str) -> Result<Squares, OptionError> {
    match value.to_ascii_lowercase().as_str() {
        "all" => Ok(Squares::All),
        "light" => Ok(Squares::Light),
        "dark" => Ok(Squares::Dark),
        _ => Err(OptionError::bad(key, value, "use all, light or dark")),
    }
}

/// `on`/`off` (also yes/no, true/false).
pub(crate) fn parse_on_off(key: &str, value: &str) -> Result<bool, OptionError> {
    match value.to_ascii_lowercase().as_str() {
        "on" | "yes" | "true" => Ok(true),
        "off" | "no" | "false" => Ok(false),
        _ => Err(OptionError::bad(key, value, "use on or off")),
    }
}

fn parse_komi(key: &str, value: &str) -> Result<HalfPoints, OptionError> {
    let expected = "a multiple of 0.5 between -1000 and 1000, like 6.5";
    let number: f64 = value.trim().parse().map_err(|_| OptionError::bad(key, value, expected))?;
    let halves = number * 2.0;
    if !halves.is_finite() || halves.fract() != 0.0 || halves.abs() > 2000.0 {
        return Err(OptionError::bad(key, value, expected));
    }
    Ok(HalfPoints(halves as i32))
}

/// Why a turn of Go with chess pieces is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GoError {
    /// The text is not a turn of this game at all; the notation error says what was expected.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// The game has ended (two passes in a row), so no further turn is accepted.
    #[error("the game is over")]
    GameOver,
    /// A `dead` agreement outside the counting phase (rule 10).
    #[error("dead pieces are agreed only in the counting phase (rule 10: after two passes, with counting=on)")]
    NotCounting,
    /// A square of a `dead` agreement with no piece on it (rule 10).
    #[error("there is no piece on {square} to count as dead (rule 10: only pieces on the board can be agreed dead)")]
    NoDeadPiece {
        /// The empty square (or one that is not on the board).
        square: Square,
    },
    /// A square outside the board or in a hole.
    #[error("{square} is not a square of this board")]
    NoSuchSquare {
        /// The square that does not exist.
        square: Square,
    },
    /// A drop or move onto an occupied square (rule 1).
    #[error("{square} is not empty: a {piece} stands there (rule 1: drops and moves go to empty squares)")]
    Occupied {
        /// The target square.
        square: Square,
        /// The piece standing there, as players read it (`black rook`).
        piece: String,
    },
    /// A drop of a piece that is not in the game's set (rule 1).
    #[error("the {role} is not in this game's set, which is {set} (rule 1)")]
    NotInSet {
        /// The piece named.
        role: Role,
        /// The game's set, listed for the message.
        set: String,
    },
    /// A move of a piece on the board in a game played without `moving=on` (rule 1).
    #[error("pieces do not move in this game (rule 1: only with moving=on)")]
    MovingOff,
    /// A move from a square without the mover's piece.
    #[error("you have no piece on {square} to move")]
    NoOwnPiece {
        /// The square the move starts from.
        square: Square,
    },
    /// A move the piece cannot make by its chess movement (rule 2).
    #[error("the {role} on {from} cannot move to {to} (rule 2)")]
    Unreachable {
        /// The piece moved.
        role: Role,
        /// Where it stands.
        from: Square,
        /// Where it was meant to go.
        to: Square,
    },
    /// A turn after which the mover's own group would have no liberty (rule 5).
    #[error("suicide (rule 5): after this turn your {} would not be alive", describe(squares))]
    Suicide {
        /// The pieces of that group.
        squares: Vec<Square>,
    },
    /// A turn that would bring back the board as it was before the opponent's last turn (rule 6).
    #[error("ko (rule 6): this would bring back the board as it was before your opponent's last turn")]
    Ko,
    /// A kind of turn this game does not have (such as a tandem).
    #[error("Go with chess pieces has only drops, moves and passes")]
    WrongKind,
}

fn describe(squares: &[Square]) -> String {
    let names: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
    match names.len() {
        1 => format!("piece on {}", names[0]),
        _ => format!("pieces on {}", names.join(", ")),
    }
}

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

/// The pieces of `color` that are not alive (rule 3): alive pieces are those with a move
/// to an empty square, and, backwards from them, those that can move to an alive friend.
fn dead_pieces(board: &Board, color: Color) -> SquareSet {
    let own = board.squares_of(color);
    let mut alive = SquareSet::EMPTY;
    let mut queue = Vec::new();
    // Only pieces without an empty move need their defence edges: (defended, defender).
    let mut edges: Vec<(Square, Square)> = Vec::new();
    for square in own.iter() {
        let mut defended = Vec::new();
        let found_empty = board.try_for_each_move(square, |to| {
            if !board.occupied().contains(to) {
                return ControlFlow::Break(());
            }
            if own.contains(to) {
                defended.push(to);
            }
            ControlFlow::Continue(())
        });
        if found_empty.is_break() {
            alive.insert(square);
            queue.push(square);
        } else {
            edges.extend(defended.into_iter().map(|to| (to, square)));
        }
    }
    edges.sort_unstable();
    while let Some(square) = queue.pop() {
        let start = edges.partition_point(|&(target, _)| target < square);
        for &(_, defender) in edges[start..].iter().take_while(|&&(target, _)| target == square) {
            if !alive.contains(defender) {
                alive.insert(defender);
                queue.push(defender);
            }
        }
    }
    let mut dead = own;
    for square in alive.iter() {
        dead.remove(square);
    }
    dead
}

/// Rule 8: who controls each empty square. A player reaches a square if one of his pieces
/// can get there by one or more of its moves, each landing on an empty square.
fn controlled(board: &Board) -> OwnerMap {
    let reach = [reach(board, Color::White), reach(board, Color::Black)];
    board
        .shape()
        .squares()
        .filter(|&square| board.get(square).is_none())
        .map(|square| {
            let owner = match (reach[0].contains(square), reach[1].contains(square)) {
                (true, false) => Some(Color::White),
                (false, true) => Some(Color::Black),
                _ => None,
            };
            (square, owner)
        })
        .collect()
}

/// The empty squares one player's pieces can reach through empty squares.
///
/// Pieces of one role are searched together, with every piece standing. Leaving its own
/// square can only matter to the Chinese knight (a leg through its own vacated square), so
/// each of those is searched alone with its square emptied.
fn reach(board: &Board, color: Color) -> SquareSet {
    let mut reached = SquareSet::EMPTY;
    let own: Vec<(Square, Piece)> = board.pieces().filter(|(_, piece)| piece.color == color).collect();
    for role in Role::CATALOGUE {
        let starts: Vec<Square> = own.iter().filter(|(_, p)| p.role == role).map(|&(s, _)| s).collect();
        if role == Role::Horse {
            for &start in &starts {
                let mut vacated = board.clone();
                vacated.remove(start);
                flood(&vacated, Piece::new(color, role), &[start], &mut reached);
            }
        } else if !starts.is_empty() {
            flood(board, Piece::new(color, role), &starts, &mut reached);
        }
    }
    reached
}

/// Adds to `reached` every empty square a piece of this kind reaches from `starts`.
fn flood(board: &Board, piece: Piece, starts: &[Square], reached: &mut SquareSet) {
    let mut seen = SquareSet::EMPTY;
    let mut queue: Vec<Square> = starts.to_vec();
    while let Some(from) = queue.pop() {
        crate::catalogue::for_each_move(piece.role, piece.color, from, board.shape(), board.occupied(), |to| {
            if !board.occupied().contains(to) && !seen.contains(to) {
                seen.insert(to);
                queue.push(to);
            }
        });
    }
    for square in seen.iter() {
        reached.insert(square);
    }
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
