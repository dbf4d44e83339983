//! Dispatch over the five games where the concrete type is not known (records, the bot),
//! and replaying a record (options plus turn texts) to a position.
//!
//! A game joins by one line in the `any_game!` invocation at the bottom of this file.

use crate::game::{BoardView, Game, GameKind, OwnerMap, Score, Status};
use crate::go::{DeadPieces, GoError};
use crate::options::{GameOptions, OptionError, OptionPairs};
use crate::piece::Hand;
use crate::turn::Turn;

/// A game that cannot be started.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NewGameError {
    /// This build does not include the game (every game is in today's builds; the variant
    /// keeps [`AnyGame::new`] total over [`GameKind`]).
    #[error("{} is not available yet", .0.title())]
    Unavailable(GameKind),
    /// The options are refused by the game.
    #[error(transparent)]
    Options(#[from] OptionError),
}

/// A record's turn that could not be read or played; the game stops before it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("turn {index} (`{text}`): {error}")]
pub struct ReplayError {
    /// Counts turns from 1.
    pub index: usize,
    /// The turn's text as the record has it.
    pub text: String,
    /// Why the game refused it.
    pub error: TurnError,
}

/// A replayed record: the position after every readable, legal turn, and the first turn
/// that was not (if any).
#[derive(Debug, Clone)]
pub struct Replay {
    /// The position after the last turn that was played.
    pub game: AnyGame,
    /// Each turn played, as the game prints it.
    pub played: Vec<String>,
    /// The turn where the replay stopped, or `None` when the whole record was played.
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
            $(#[doc = concat!("A game of ", stringify!($variant), ".")] $variant($game)),*
        }

        /// Why a turn is refused, in any game: the game's own rule error.
        #[derive(Debug, Clone, PartialEq, thiserror::Error)]
        pub enum TurnError {
            $(
                #[doc = concat!("Refused by the rules of ", stringify!($variant), ".")]
                #[error(transparent)]
                $variant(<$game as Game>::Error)
            ),*
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

            /// Which of the five games this is.
            #[must_use]
            pub fn kind(&self) -> GameKind {
                match self { $(AnyGame::$variant(_) => <$game as Game>::KIND),* }
            }

            /// Whose turn it is, or how the game ended.
            #[must_use]
            pub fn status(&self) -> Status {
                match self { $(AnyGame::$variant(game) => game.status()),* }
            }

            /// Every turn the side to move may play now (empty once the game is over).
            #[must_use]
            pub fn legal_turns(&self) -> Vec<Turn> {
                match self { $(AnyGame::$variant(game) => game.legal_turns()),* }
            }

            /// Applies the turn, or refuses it and changes nothing.
            pub fn play(&mut self, turn: Turn) -> Result<(), TurnError> {
                match self { $(AnyGame::$variant(game) => game.play(turn).map_err(TurnError::$variant)),* }
            }

            /// Reads a turn written in the game's notation, in this position (short forms such
            /// as `Nh2` need it to find the piece); checks the syntax, not the rules.
            pub fn parse_turn(&self, text: &str) -> Result<Turn, TurnError> {
                match self { $(AnyGame::$variant(game) => game.parse_turn(text).map_err(TurnError::$variant)),* }
            }

            /// The turn in the game's printed notation, as records keep it.
            #[must_use]
            pub fn format_turn(&self, turn: Turn) -> String {
                match self { $(AnyGame::$variant(game) => game.format_turn(turn)),* }
            }

            /// The position as the renderer draws it, without knowing the game.
            #[must_use]
            pub fn view(&self) -> BoardView {
                match self { $(AnyGame::$variant(game) => game.view()),* }
            }

            /// The points each side has now, in games that count them (Go with chess pieces).
            #[must_use]
            pub fn score(&self) -> Option<Score> {
                match self { $(AnyGame::$variant(game) => game.score()),* }
            }

            /// Who controls each empty square, in games scored by area.
            #[must_use]
            pub fn owner(&self) -> Option<OwnerMap> {
                match self { $(AnyGame::$variant(game) => game.owner()),* }
            }

            /// The pieces each side still holds to drop, `[white, black]`, in games with hands.
            #[must_use]
            pub fn hands(&self) -> Option<[Hand; 2]> {
                match self { $(AnyGame::$variant(game) => game.hands()),* }
            }

            /// Whether estimates may be asked for during play (every game's `analysis`).
            #[must_use]
            pub fn analysis(&self) -> crate::options::Analysis {
                match self { $(AnyGame::$variant(game) => game.options().analysis()),* }
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
    ///
    /// A record's entries are turns, except the agreement that ends counting in Go with
    /// chess pieces (`dead c3 d4`, rule 10), which is read and applied here too, so that
    /// every replay of a record knows it.
    pub fn play_text(&mut self, text: &str) -> Result<String, TurnError> {
        if let AnyGame::Go(go) = self {
            if DeadPieces::is_entry(text) {
                let dead: DeadPieces = text.parse().map_err(|error| TurnError::Go(GoError::Notation(error)))?;
                go.agree_dead(&dead).map_err(TurnError::Go)?;
                return Ok(dead.to_string());
            }
        }
        let turn = self.parse_turn(text)?;
        self.play_turn(turn)
    }

    /// Checks `turn` in this position and applies it; returns it as the game prints it (in
    /// the position before), as records keep it. A refused turn changes nothing. The one
    /// way a turn already read (typed and parsed, picked, the bot's, a record's) is played
    /// and named.
    pub fn play_turn(&mut self, turn: Turn) -> Result<String, TurnError> {
        let printed = self.format_turn(turn);
        self.play(turn)?;
        Ok(printed)
    }

    /// Whether the game is in the counting phase of Go with chess pieces (rule 10): the
    /// player to move may resume play, or the players agree on dead pieces
    /// ([`crate::go::Go::agree_dead`], or the entry `dead ...` through [`AnyGame::play_text`]).
    #[must_use]
    pub fn is_counting(&self) -> bool {
        matches!(self, AnyGame::Go(go) if go.is_counting())
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
        AnyGame::replay_seen(kind, options, turns, |_| {})
    }

    /// [`AnyGame::replay`], showing `seen` the position before the first turn and after
    /// every turn played: the one replay loop, also for animations and step-by-step views.
    pub fn replay_seen<S: AsRef<str>>(
        kind: GameKind,
        options: &[(String, String)],
        turns: &[S],
        mut seen: impl FnMut(&AnyGame),
    ) -> Result<Replay, NewGameError> {
        let mut game = AnyGame::new(kind, options)?;
        seen(&game);
        let mut played = Vec::with_capacity(turns.len());
        for (index, text) in turns.iter().enumerate() {
            match game.play_text(text.as_ref()) {
                Ok(printed) => {
                    played.push(printed);
                    seen(&game);
                }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn go() -> AnyGame {
        AnyGame::new(GameKind::Go, &[("board".to_owned(), "9x9".to_owned())]).expect("a 9x9 game")
    }

    #[test]
    fn every_game_takes_analysis_default_on_and_prints_it_when_off() {
        use crate::options::Analysis;
        let off = [("analysis".to_owned(), "off".to_owned())];
        for kind in GameKind::ALL {
            let default = AnyGame::new(kind, &[]).expect("defaults");
            assert_eq!(default.analysis(), Analysis::On, "{kind:?}");
            assert!(default.option_pairs().iter().all(|(key, _)| key != "analysis"), "{kind:?}");
            let game = AnyGame::new(kind, &off).expect("analysis=off");
            assert_eq!(game.analysis(), Analysis::Off, "{kind:?}");
            assert_eq!(game.option_pairs().last(), Some(&off[0]), "{kind:?}");
            let again = AnyGame::new(kind, &game.option_pairs()).expect("printed options read back");
            assert_eq!(again.analysis(), Analysis::Off, "{kind:?}");
            let bad = [("analysis".to_owned(), "maybe".to_owned())];
            assert!(matches!(AnyGame::new(kind, &bad), Err(NewGameError::Options(_))), "{kind:?}");
        }
    }

    #[test]
    fn a_played_turn_is_named_as_the_game_prints_it() {
        let mut game = go();
        let turn = game.parse_turn("R@e5").expect("a drop");
        assert_eq!(game.play_turn(turn), Ok("R@e5".to_owned()));
        assert_eq!(game.view().turns_played, 1);
    }

    #[test]
    fn a_refused_turn_changes_nothing() {
        let mut game = go();
        let turn = game.parse_turn("R@e5").expect("a drop");
        game.play_turn(turn).expect("legal");
        let before = game.view();
        assert!(game.play_turn(turn).is_err(), "the square is taken");
        assert_eq!(game.view(), before);
    }
}
