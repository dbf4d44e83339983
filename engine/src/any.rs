//! Dispatch over the five games where the concrete type is not known (records, the bot),
//! and replaying a record (options plus turn texts) to a position.
//!
//! A game joins by one line in the `any_game!` invocation at the bottom of this file.

use crate::game::{BoardView, Game, GameKind, OwnerMap, Score, Status};
use crate::options::{GameOptions, OptionError, OptionPairs};
use crate::piece::Hand;
use crate::turn::Turn;

/// A game that cannot be started.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NewGameError {
    #[error("{} is not available yet", .0.title())]
    Unavailable(GameKind),
    #[error(transparent)]
    Options(#[from] OptionError),
}

/// A record's turn that could not be read or played; the game stops before it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("turn {index} (`{text}`): {error}")]
pub struct ReplayError {
    /// Counts turns from 1.
    pub index: usize,
    pub text: String,
    pub error: TurnError,
}

/// A replayed record: the position after every readable, legal turn, and the first turn
/// that was not (if any).
#[derive(Debug, Clone)]
pub struct Replay {
    pub game: AnyGame,
    /// Each turn played, as the game prints it.
    pub played: Vec<String>,
    pub error: Option<ReplayError>,
}

macro_rules! any_game {
    ($($variant:ident => $game:ty),* $(,)?) => {
        /// One game of any kind.
        // Games differ in size by design (Go's board spans the 25x25 space, iChess packs
        // 8x8 bitboards); one value is held per game, so boxing would buy nothing.
        #[derive(Debug, Clone)]
        #[allow(clippy::large_enum_variant, reason = "games are plain values of a few KB, moved rarely")]
        pub enum AnyGame {
            $($variant($game)),*
        }

        /// Why a turn is refused, in any game: the game's own rule error.
        #[derive(Debug, Clone, PartialEq, thiserror::Error)]
        pub enum TurnError {
            $(#[error(transparent)] $variant(<$game as Game>::Error)),*
        }

        impl AnyGame {
            /// A new game of `kind` with these options (unknown keys and bad values refused).
            pub fn new(kind: GameKind, options: &[(String, String)]) -> Result<AnyGame, NewGameError> {
                $(if kind == <$game as Game>::KIND {
                    let options = <<$game as Game>::Options as GameOptions>::from_pairs(options)?;
                    return Ok(AnyGame::$variant(<$game as Game>::new(options)));
                })*
                Err(NewGameError::Unavailable(kind))
            }

            /// Whether this build has the game.
            #[must_use]
            pub fn is_available(kind: GameKind) -> bool {
                [$(<$game as Game>::KIND),*].contains(&kind)
            }

            #[must_use]
            pub fn kind(&self) -> GameKind {
                match self { $(AnyGame::$variant(_) => <$game as Game>::KIND),* }
            }

            #[must_use]
            pub fn status(&self) -> Status {
                match self { $(AnyGame::$variant(game) => game.status()),* }
            }

            #[must_use]
            pub fn legal_turns(&self) -> Vec<Turn> {
                match self { $(AnyGame::$variant(game) => game.legal_turns()),* }
            }

            /// Applies the turn, or refuses it and changes nothing.
            pub fn play(&mut self, turn: Turn) -> Result<(), TurnError> {
                match self { $(AnyGame::$variant(game) => game.play(turn).map_err(TurnError::$variant)),* }
            }

            pub fn parse_turn(&self, text: &str) -> Result<Turn, TurnError> {
                match self { $(AnyGame::$variant(game) => game.parse_turn(text).map_err(TurnError::$variant)),* }
            }

            #[must_use]
            pub fn format_turn(&self, turn: Turn) -> String {
                match self { $(AnyGame::$variant(game) => game.format_turn(turn)),* }
            }

            #[must_use]
            pub fn view(&self) -> BoardView {
                match self { $(AnyGame::$variant(game) => game.view()),* }
            }

            #[must_use]
            pub fn score(&self) -> Option<Score> {
                match self { $(AnyGame::$variant(game) => game.score()),* }
            }

            #[must_use]
            pub fn owner(&self) -> Option<OwnerMap> {
                match self { $(AnyGame::$variant(game) => game.owner()),* }
            }

            #[must_use]
            pub fn hands(&self) -> Option<[Hand; 2]> {
                match self { $(AnyGame::$variant(game) => game.hands()),* }
            }

            /// The options with every key, as records store them.
            #[must_use]
            pub fn option_pairs(&self) -> OptionPairs {
                match self { $(AnyGame::$variant(game) => game.option_pairs()),* }
            }
        }
    };
}

impl AnyGame {
    /// Reads and plays one turn; returns it as the game prints it (in the position before).
    pub fn play_text(&mut self, text: &str) -> Result<String, TurnError> {
        let turn = self.parse_turn(text)?;
        let printed = self.format_turn(turn);
        self.play(turn)?;
        Ok(printed)
    }

    /// Every legal turn, as the game prints it.
    #[must_use]
    pub fn legal_turn_texts(&self) -> Vec<String> {
        self.legal_turns().into_iter().map(|turn| self.format_turn(turn)).collect()
    }

    /// The side to move, `None` once the game is over.
    #[must_use]
    pub fn to_move(&self) -> Option<crate::square::Color> {
        self.status().to_move()
    }

    /// Starts a game and plays the turn texts in order, stopping at the first that cannot
    /// be read or is refused.
    pub fn replay<S: AsRef<str>>(
        kind: GameKind,
        options: &[(String, String)],
        turns: &[S],
    ) -> Result<Replay, NewGameError> {
        let mut game = AnyGame::new(kind, options)?;
        let mut played = Vec::with_capacity(turns.len());
        for (index, text) in turns.iter().enumerate() {
            match game.play_text(text.as_ref()) {
                Ok(printed) => played.push(printed),
                Err(error) => {
                    let error = ReplayError { index: index + 1, text: text.as_ref().to_owned(), error };
                    return Ok(Replay { game, played, error: Some(error) });
                }
            }
        }
        Ok(Replay { game, played, error: None })
    }
}

any_game! {
    Chego => crate::chego::Chego,
    Gess => crate::gess::Gess,
    Go => crate::go::Go,
    IChess => crate::ichess::IChess,
    Chogo => crate::chogo::Chogo,
}
