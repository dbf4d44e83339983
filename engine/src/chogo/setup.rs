//! Chogo's (absent) options, its start position (rule 2), and positions built from board
//! strings for tests and tools.

use crate::board::Board;
use crate::options::{self, Analysis, GameOptions, OptionError, OptionPairs};
use crate::piece::{Hand, Piece, Role};
use crate::square::{Color, Square};

use super::rules::{self, HEIGHT, WIDTH};

/// Chogo has no options of its own (the 44-cell board and the set are fixed), only
/// `analysis` (every game's).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ChogoOptions {
    /// Whether estimates may be asked for during play.
    pub analysis: Analysis,
}

impl GameOptions for ChogoOptions {
    fn from_pairs(pairs: &[(String, String)]) -> Result<ChogoOptions, OptionError> {
        let mut options = ChogoOptions::default();
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

/// Rule 2: the soldiers on the near end of each file, as (file, rank) from 0.
const WHITE_SOLDIERS: [(u8, u8); 8] = [(0, 2), (1, 1), (2, 0), (3, 0), (4, 0), (5, 0), (6, 1), (7, 2)];

/// The start position: sixteen soldiers, both kings in hand.
pub(super) fn start() -> (Board, [Hand; 2]) {
    let mut board = Board::empty(rules::shape());
    for (file, rank) in WHITE_SOLDIERS {
        // Black's soldiers mirror White's across the middle rank.
        let cells = [(Color::White, Square::new(file, rank)), (Color::Black, Square::new(file, HEIGHT - 1 - rank))];
        for (color, square) in cells {
            if let Some(square) = square {
                board.set(square, Piece::new(color, Role::Stone));
            }
        }
    }
    let mut king = Hand::default();
    king.set(Role::King, 1);
    (board, [king, king])
}

/// A board that [`super::Chogo::from_setup`] cannot use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The text has the wrong number of ranks (the number found).
    #[error("a Chogo board has {HEIGHT} ranks, not {0}")]
    RankCount(usize),
    /// A rank with the wrong number of cells.
    #[error("rank {rank} has {found} cells; a Chogo rank has {WIDTH}")]
    RankLength {
        /// The rank, counted from 1 at the bottom.
        rank: u8,
        /// How many cells it has.
        found: usize,
    },
    /// A character that is not a soldier, a king, an empty or a missing cell.
    #[error("`{ch}` on {square} is not a Chogo cell: use S s K k . and - for missing cells")]
    BadChar {
        /// Where it stands.
        square: Square,
        /// The character.
        ch: char,
    },
    /// A corner cell that does not exist written as something else than `-`.
    #[error("{square} is a missing cell and must be written `-`")]
    MissingCell {
        /// The missing cell.
        square: Square,
    },
    /// A cell of the board written `-`.
    #[error("{square} exists and cannot be written `-`")]
    NotMissing {
        /// The cell.
        square: Square,
    },
    /// A side with more than one king.
    #[error("{} has more than one king", super::error::side_name(*side))]
    TwoKings {
        /// The side concerned.
        side: Color,
    },
}

/// Reads board strings (top rank first, as `stonemate replay` prints them). A side whose
/// king is not on the board holds it in hand.
pub(super) fn read_rows(rows: &[&str]) -> Result<(Board, [Hand; 2]), SetupError> {
    if rows.len() != usize::from(HEIGHT) {
        return Err(SetupError::RankCount(rows.len()));
    }
    let mut board = Board::empty(rules::shape());
    for (row, text) in rows.iter().enumerate() {
        let rank = HEIGHT - 1 - row as u8;
        let chars: Vec<char> = text.chars().collect();
        if chars.len() != usize::from(WIDTH) {
            return Err(SetupError::RankLength { rank: rank + 1, found: chars.len() });
        }
        for (file, &ch) in (0..WIDTH).zip(&chars) {
            let square = Square::new(file, rank).ok_or(SetupError::RankCount(rows.len()))?;
            read_cell(&mut board, square, ch)?;
        }
    }
    let mut hands = [Hand::default(); 2];
    for color in Color::BOTH {
        let kings = board.pieces().filter(|(_, piece)| *piece == Piece::new(color, Role::King)).count();
        match kings {
            0 => hands[color.index()].set(Role::King, 1),
            1 => {}
            _ => return Err(SetupError::TwoKings { side: color }),
        }
    }
    Ok((board, hands))
}

fn read_cell(board: &mut Board, square: Square, ch: char) -> Result<(), SetupError> {
    let exists = board.shape().contains(square);
    let piece = match ch {
        '-' if exists => return Err(SetupError::NotMissing { square }),
        '-' => return Ok(()),
        _ if !exists => return Err(SetupError::MissingCell { square }),
        '.' => return Ok(()),
        'S' => Piece::new(Color::White, Role::Stone),
        's' => Piece::new(Color::Black, Role::Stone),
        'K' => Piece::new(Color::White, Role::King),
        'k' => Piece::new(Color::Black, Role::King),
        _ => return Err(SetupError::BadChar { square, ch }),
    };
    board.set(square, piece);
    Ok(())
}
