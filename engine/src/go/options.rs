//! The options of Go with chess pieces (the table in `docs/rules/go-with-pieces.md`): the
//! board and its holes, the set of pieces, which squares are played (ruling G2), moving,
//! komi and counting (rule 10).

use crate::game::HalfPoints;
use crate::options::{self, Analysis, GameOptions, OptionError, OptionPairs};
use crate::piece::Role;
use crate::square::{Shape, Square};

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
    /// Whether estimates may be asked for during play (`analysis`, every game's option).
    pub analysis: Analysis,
}

const KNOWN_KEYS: &str = "board, pieces, squares, moving, komi, counting, analysis";

impl Default for GoOptions {
    fn default() -> GoOptions {
        GoOptions {
            board: Shape::rectangle(19, 19),
            pieces: vec![Role::Rook],
            squares: Squares::All,
            moving: false,
            komi: HalfPoints(0),
            counting: false,
            analysis: Analysis::On,
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
                Analysis::KEY => Analysis::parse(key, value).map(|analysis| options.analysis = analysis),
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
        self.analysis.push_to(&mut pairs);
        pairs
    }

    fn analysis(&self) -> Analysis {
        self.analysis
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
fn parse_on_off(key: &str, value: &str) -> Result<bool, OptionError> {
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
