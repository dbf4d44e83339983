//! The rules of Stonemate's five chess/go hybrids: Chego, Gess, iChess, Go with chess
//! pieces and Chogo.
//!
//! Pure Rust: no I/O, no clocks, no global state. Every game implements [`Game`] in its own
//! module; [`AnyGame`] dispatches over them; a record (options plus turn texts) replays to a
//! position with [`AnyGame::replay`], and to every position on the way with
//! [`replay::positions`]. A refused turn is an error enum named after the rule it breaks,
//! and leaves the game unchanged.
//!
//! A short game of Go with chess pieces on a 3x3 board, as a newcomer would drive it:
//! read the options as a challenge writes them, play turns typed by players, and read the
//! outcome.
//!
//! ```
//! use stonemate_engine::options::parse_option_text;
//! use stonemate_engine::{AnyGame, Color, EndReason, GameKind, Outcome, TurnError};
//! use stonemate_engine::go::GoError;
//!
//! let kind: GameKind = "go".parse()?;
//! let options = parse_option_text("board=3x3 komi=0.5")?;
//! let mut game = AnyGame::new(kind, &options)?;
//! assert_eq!(game.to_move(), Some(Color::Black), "Black moves first, as in go");
//!
//! // A turn is read in the game's notation and comes back as records print it.
//! assert_eq!(game.play_text("b2")?, "R@b2");
//!
//! // A refused turn names the rule it breaks and leaves the game as it was.
//! let refused = game.play_text("R@b2");
//! assert!(matches!(refused, Err(TurnError::Go(GoError::Occupied { .. }))));
//! assert_eq!(game.to_move(), Some(Color::White));
//!
//! // Two passes in a row end the game. Scoring is territory plus prisoners: Black's rook
//! // controls the eight empty squares around it, and White has only the komi.
//! game.play_text("pass")?;
//! game.play_text("pass")?;
//! let ending = game.status().ending().expect("two passes end the game");
//! assert_eq!(ending.reason, EndReason::TwoPasses);
//! assert_eq!(ending.outcome, Outcome::Winner(Color::Black));
//! let score = game.score().expect("go is scored");
//! assert_eq!((score.black.to_string(), score.white.to_string()), ("8".to_owned(), "0.5".to_owned()));
//! assert!(game.legal_turns().is_empty(), "nothing is legal after the end");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod any;
pub mod board;
pub mod catalogue;
pub mod chego;
pub mod chogo;
pub mod formats;
pub mod game;
pub mod gess;
pub mod go;
pub mod ichess;
pub mod notation;
pub mod options;
pub mod picker;
pub mod piece;
pub mod preview;
pub mod replay;
pub mod result;
pub mod square;
pub mod turn;

pub use any::{AnyGame, NewGameError, Replay, ReplayError, TurnError};
pub use board::Board;
pub use game::{
    BlockMove, BoardView, Cell, EndReason, Ending, Game, GameKind, HalfPoints, Look, Outcome, OwnerMap, Score, Status,
};
pub use notation::NotationError;
pub use options::{Analysis, GameOptions, OptionError, OptionPairs};
pub use picker::{Pick, PickError, PickOption, Picker};
pub use piece::{Hand, Piece, Role};
pub use preview::{Preview, preview};
pub use result::GameResult;
pub use square::{Color, Shape, Square, SquareSet};
pub use turn::{Rect, Turn};
