//! Chego's options (`docs/rules/chego.md`, "Options a challenge can set"): the board with its holes
//! and the set of pieces each player starts with in hand.

use crate::options::{self, Analysis, GameOptions, OptionError, OptionPairs};
use crate::piece::{Hand, Role};
use crate::square::Shape;

/// The board sides allowed each way.
pub const SIDES: std::ops::RangeInclusive<u8> = 4..=16;
/// The most pieces of one letter a counted set may hold.
pub const MAX_COUNT: u8 = 64;
/// The most pieces a counted set may hold in all: as many as the largest board has squares.
pub const MAX_TOTAL: usize = 256;

const KNOWN_KEYS: &str = "board, set, analysis";
const SET_HELP: &str = "write counts per letter like `K1 Q1 R2 B2 N2 P8` (or `K1Q1R2B2N2P8`), \
                        or `unlimited` and letters like `unlimited RN`; letters are K Q R B N P F A D G H W";

/// The pieces each player has in hand at the start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PieceSet {
    /// So many pieces of each letter (every count `1..=MAX_COUNT`).
    Counted(Hand),
    /// An endless supply of each listed piece, in hand order without repeats.
    Unlimited(Vec<Role>),
}

impl PieceSet {
    /// The chess set: K Q R R B B N N and eight pawns.
    #[must_use]
    pub fn chess() -> PieceSet {
        let counts = [(Role::King, 1), (Role::Queen, 1), (Role::Rook, 2), (Role::Bishop, 2), (Role::Knight, 2)];
        let mut hand = Hand::default();
        for (role, count) in counts.into_iter().chain([(Role::Pawn, 8)]) {
            hand.set(role, count);
        }
        PieceSet::Counted(hand)
    }

    /// A player's hand at the start of the game.
    #[must_use]
    pub fn hand(&self) -> Hand {
        match self {
            PieceSet::Counted(hand) => *hand,
            PieceSet::Unlimited(roles) => {
                let mut hand = Hand::default();
                roles.iter().for_each(|&role| hand.set(role, Hand::UNLIMITED));
                hand
            }
        }
    }
}

/// `K1 Q1 R2 B2 N2 P8` or `unlimited RN`, the way [`parse_set`] reads it back.
impl std::fmt::Display for PieceSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PieceSet::Counted(hand) => {
                let counts: Vec<String> = hand.roles().map(|r| format!("{}{}", r.letter(), hand.count(r))).collect();
                f.write_str(&counts.join(" "))
            }
            PieceSet::Unlimited(roles) => {
                let letters: String = roles.iter().map(|role| role.letter()).collect();
                write!(f, "unlimited {letters}")
            }
        }
    }
}

/// The options of a Chego challenge.
#[derive(Debug, Clone, PartialEq)]
pub struct ChegoOptions {
    /// The grid and its holes.
    pub board: Shape,
    /// The pieces each player starts with in hand, or an unlimited supply of some kinds.
    pub set: PieceSet,
    /// Whether estimates may be asked for during play (`analysis`, every game's option).
    pub analysis: Analysis,
}

impl Default for ChegoOptions {
    fn default() -> ChegoOptions {
        ChegoOptions { board: Shape::rectangle(8, 8), set: PieceSet::chess(), analysis: Analysis::On }
    }
}

impl GameOptions for ChegoOptions {
    fn from_pairs(pairs: &[(String, String)]) -> Result<ChegoOptions, OptionError> {
        let mut options = ChegoOptions::default();
        options::read_pairs(pairs, KNOWN_KEYS, |key, value| {
            Some(match key {
                "board" => options::parse_board(key, value, SIDES).map(|shape| options.board = shape),
                "set" => parse_set(key, value).map(|set| options.set = set),
                Analysis::KEY => Analysis::parse(key, value).map(|analysis| options.analysis = analysis),
                _ => return None,
            })
        })?;
        Ok(options)
    }

    fn to_pairs(&self) -> OptionPairs {
        let mut pairs =
            vec![("board".to_owned(), options::format_board(&self.board)), ("set".to_owned(), self.set.to_string())];
        self.analysis.push_to(&mut pairs);
        pairs
    }

    fn analysis(&self) -> Analysis {
        self.analysis
    }
}

/// Reads a `set` value: counts per letter, or `unlimited` followed by letters.
pub fn parse_set(key: &str, value: &str) -> Result<PieceSet, OptionError> {
    let text = value.trim();
    // The prefix is ASCII, so its length in `text` is the same as in the lower-case copy.
    match text.to_ascii_lowercase().strip_prefix("unlimited") {
        Some(_) => parse_unlimited(key, value, &text["unlimited".len()..]),
        None => parse_counts(key, value, text),
    }
}

fn catalogue_role(key: &str, value: &str, letter: char) -> Result<Role, OptionError> {
    Role::from_letter(letter)
        .filter(|role| Role::CATALOGUE.contains(role))
        .ok_or_else(|| OptionError::bad(key, value, format!("`{letter}` is not a piece letter; {SET_HELP}")))
}

fn is_separator(ch: char) -> bool {
    ch.is_whitespace() || matches!(ch, ',' | '+')
}

fn parse_unlimited(key: &str, value: &str, letters: &str) -> Result<PieceSet, OptionError> {
    let mut roles = Vec::new();
    for letter in letters.chars().filter(|&ch| !is_separator(ch)) {
        if letter.is_ascii_digit() {
            return Err(OptionError::bad(key, value, "an unlimited set lists letters only, like `unlimited RN`"));
        }
        let role = catalogue_role(key, value, letter)?;
        if !roles.contains(&role) {
            roles.push(role);
        }
    }
    if roles.is_empty() {
        return Err(OptionError::bad(key, value, "name at least one piece after `unlimited`, like `unlimited RN`"));
    }
    roles.sort();
    Ok(PieceSet::Unlimited(roles))
}

/// Counts like `K1 Q1 R2` or `K1Q1R2`; a letter without a number counts once, and a letter
/// written twice adds up (`RR` is two rooks), so the rules file's `K Q R R B B ...` reads too.
fn parse_counts(key: &str, value: &str, text: &str) -> Result<PieceSet, OptionError> {
    let mut totals = [0usize; Role::ALL.len()];
    let mut chars = text.chars().filter(|&ch| !is_separator(ch)).peekable();
    while let Some(letter) = chars.next() {
        let role = catalogue_role(key, value, letter)?;
        let mut digits = String::new();
        while let Some(digit) = chars.next_if(char::is_ascii_digit) {
            digits.push(digit);
        }
        let count = if digits.is_empty() { 1 } else { parse_count(key, value, letter, &digits)? };
        totals[role.index()] += count;
    }
    counted_hand(key, value, &totals)
}

fn parse_count(key: &str, value: &str, letter: char, digits: &str) -> Result<usize, OptionError> {
    match digits.parse::<usize>() {
        Ok(count) if (1..=usize::from(MAX_COUNT)).contains(&count) => Ok(count),
        _ => Err(OptionError::bad(key, value, format!("the count of {letter} must be 1..={MAX_COUNT}, not {digits}"))),
    }
}

fn counted_hand(key: &str, value: &str, totals: &[usize]) -> Result<PieceSet, OptionError> {
    let total: usize = totals.iter().sum();
    if total == 0 {
        return Err(OptionError::bad(key, value, format!("name at least one piece; {SET_HELP}")));
    }
    if total > MAX_TOTAL {
        return Err(OptionError::bad(key, value, format!("at most {MAX_TOTAL} pieces in all, not {total}")));
    }
    let mut hand = Hand::default();
    for role in Role::CATALOGUE {
        let count = totals[role.index()];
        if count > usize::from(MAX_COUNT) {
            let letter = role.letter();
            return Err(OptionError::bad(key, value, format!("at most {MAX_COUNT} of {letter}, not {count}")));
        }
        hand.set(role, count as u8);
    }
    Ok(PieceSet::Counted(hand))
}
