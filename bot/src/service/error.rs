//! Why a command is refused ([`Refusal`]), and what a handler gives when it does not
//! answer ([`Failure`]).
//!
//! A refusal is readable by a player as is, changes nothing and is shown privately. Its
//! top level holds what any command may meet (the game not found, not the caller's, over,
//! refused by the rules, the storage down); each feature's own refusals are a type declared
//! beside its handler (`handlers/<feature>/refusal.rs`) and wrapped by one variant here.
//!
//! A [`Failure`] is a refusal, with the board it is about when there is one (the response
//! draws it), or a signal the service acts on itself and never shows as such: a lost race
//! for a record (run the command again) and a bot answer that came too late (drop it).

use stonemate_engine::{NewGameError, OptionError, Square, TurnError};

use super::handlers::challenge::refusal::ChallengeRefusal;
use super::handlers::community::refusal::CommunityRefusal;
use super::handlers::conditional::refusal::ConditionalRefusal;
use super::handlers::counting::refusal::CountingRefusal;
use super::handlers::endings::refusal::EndingRefusal;
use super::handlers::explore::refusal::ExploreRefusal;
use super::handlers::requests::refusal::RequestRefusal;
use super::handlers::score::refusal::ScoreRefusal;
use super::handlers::takeback::refusal::TakebackRefusal;
use super::handlers::tournament::refusal::TournamentRefusal;
use super::handlers::vacation::refusal::VacationRefusal;
use super::input::BadValue;
use super::options::keys;
use super::text::counted;
use super::types::GameId;
use crate::store::StoreError;

/// A refused command.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Refusal {
    /// A value that is not one its option takes.
    #[error(transparent)]
    Value(#[from] BadValue),
    /// `/settings threads:` by someone without the Manage Server permission, or outside a
    /// server: it is the server's setting.
    #[error("only members with the Manage Server permission may set `{}`, in their server", keys::Settings::threads.usage("on"))]
    ServerSettingNotAdmin,
    /// No game or challenge has this id.
    #[error("there is no game or challenge {0}")]
    NoSuchGame(GameId),
    /// The caller has no game in this channel; the text adds a hint (may be empty).
    #[error("you have no game in this channel{0}")]
    NoGameHere(String),
    /// Several games or challenges fit and the command did not say which.
    #[error("which one? Name it with `{option}:` — {list}")]
    WhichOne {
        /// The command's option that names one.
        option: &'static str,
        /// The candidates, written for the caller.
        list: String,
    },
    /// The caller is not a player of this game.
    #[error("{0} is not your game")]
    NotYourGame(GameId),
    /// The caller played out of turn.
    #[error("it is not your turn in {id}: {name} is to move")]
    NotYourTurn {
        /// The game.
        id: GameId,
        /// The display name of the player to move.
        name: String,
    },
    /// The game has ended.
    #[error("{id} is over: {result}")]
    GameOver {
        /// The game.
        id: GameId,
        /// Its result, written for the caller.
        result: String,
    },
    /// The turn breaks the game's rules.
    #[error("{0}")]
    Illegal(#[from] TurnError),
    /// A turn picker opened before the game's last change.
    #[error("{0} has moved on since this picker opened: nothing was played (open a new one with /play)")]
    PickerStale(GameId),
    /// A turn picker's choice that leads nowhere in the game's position; the text says why.
    #[error("{0}: nothing was played (open the picker again with /play)")]
    BadPick(String),
    /// A press whose button id (kept as received) is not one of ours.
    #[error("this button (`{0}`) is not one of Stonemate's")]
    UnknownButton(String),
    /// A board asked after a turn the game has not reached.
    #[error("{id} has {}: there is no board after turn {turn}", counted(*.turns, "turn", "turns"))]
    NoSuchTurn {
        /// The game.
        id: GameId,
        /// The turn asked.
        turn: usize,
        /// How many turns the game has.
        turns: usize,
    },
    /// A page past the last one of a list.
    #[error("page {page} is beyond the end: there {}", pages_word(*.pages))]
    NoSuchPage {
        /// The page asked, counted from 1.
        page: u32,
        /// How many pages there are.
        pages: u32,
    },
    /// The stored record does not replay under the rules; the text says why.
    #[error("the game's record could not be replayed: {0}")]
    BrokenRecord(String),
    /// The store stopped, or failed before this change was tried: nothing was changed.
    #[error("storage unavailable, try again shortly")]
    StorageUnavailable,
    /// Writing this change to disk failed: it may or may not have been saved.
    #[error(
        "storage unavailable, try again shortly: whether this was saved is unknown; look at the board once the bot is back"
    )]
    OutcomeUnknown,
    /// A challenge command's own refusals.
    #[error(transparent)]
    Challenge(#[from] ChallengeRefusal),
    /// An ending command's own refusals (resign, draw, abort, claim, extra time).
    #[error(transparent)]
    Ending(#[from] EndingRefusal),
    /// A takeback's own refusals.
    #[error(transparent)]
    Takeback(#[from] TakebackRefusal),
    /// The one rule for requests (draw offers, takebacks, proposals of dead pieces).
    #[error(transparent)]
    Request(#[from] RequestRefusal),
    /// The counting phase's own refusals (go, rule 10).
    #[error(transparent)]
    Counting(#[from] CountingRefusal),
    /// A conditional line's own refusals.
    #[error(transparent)]
    Conditional(#[from] ConditionalRefusal),
    /// Rematches', ratings' and stats' own refusals.
    #[error(transparent)]
    Community(#[from] CommunityRefusal),
    /// A vacation's own refusals.
    #[error(transparent)]
    Vacation(#[from] VacationRefusal),
    /// An exploration's own refusals (`/explore`).
    #[error(transparent)]
    Explore(#[from] ExploreRefusal),
    /// An estimate's own refusals (`/score`).
    #[error(transparent)]
    Score(#[from] ScoreRefusal),
    /// A tournament's own refusals.
    #[error(transparent)]
    Tournament(#[from] TournamentRefusal),
}

/// `is 1 page` or `are 3 pages`.
fn pages_word(pages: u32) -> String {
    if pages == 1 { "is 1 page".to_owned() } else { format!("are {pages} pages") }
}

/// A value's refusals, met where a value is read (`?` on the engine's and the ai's own
/// errors).
macro_rules! bad_value_from {
    ($($from:ty),* $(,)?) => {$(
        impl From<$from> for Refusal {
            fn from(error: $from) -> Refusal {
                Refusal::Value(BadValue::from(error))
            }
        }
    )*};
}

bad_value_from!(OptionError, stonemate_engine::game::UnknownGame, stonemate_ai::UnknownLevel);

impl From<NewGameError> for Refusal {
    fn from(error: NewGameError) -> Refusal {
        match error {
            // Every game of the engine is in this build: the store can hold only those.
            NewGameError::Unavailable(kind) => Refusal::BrokenRecord(format!("{} is not in this build", kind.title())),
            NewGameError::Options(error) => Refusal::from(error),
        }
    }
}

impl Refusal {
    /// The refusal shown with the board of game `id` as the caller sees it.
    #[must_use]
    pub(crate) fn on_board(self, id: GameId) -> Failure {
        self.on_marked_board(id, Vec::new())
    }

    /// The refusal shown with the board of game `id` as the caller sees it, `marked`
    /// squares crossed out (the pieces a counting proposal names).
    #[must_use]
    pub(crate) fn on_marked_board(self, id: GameId, marked: Vec<Square>) -> Failure {
        Failure::Refused { refusal: self, board: Some(BoardOf { id, marked }) }
    }
}

/// The board a refusal is shown with, as the response is to draw it for the caller: what
/// to draw, not the picture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BoardOf {
    /// The game.
    pub id: GameId,
    /// Squares crossed out.
    pub marked: Vec<Square>,
}

/// Why a handler gave no answer: a refusal to tell the caller, or a signal the service
/// acts on.
#[derive(Debug, Clone, thiserror::Error)]
pub(crate) enum Failure {
    /// Refused: told privately to the caller, with the board it is about when `board` says
    /// which.
    #[error("{refusal}")]
    Refused {
        /// The refusal.
        refusal: Refusal,
        /// The board to show with it.
        board: Option<BoardOf>,
    },
    /// Another change to the game was saved first; this one was dropped: the service runs
    /// the command again on the new record, and tells the text only when it keeps losing.
    #[error("the game changed while this command was handled; nothing was done, try again")]
    Conflict,
    /// The bot's answer came for a position its game has left: it is dropped, never shown.
    #[error("the game has moved on since the question was asked")]
    Stale,
}

/// Every refusal, and what becomes one, is a failure with `?`.
macro_rules! refused_from {
    ($($from:ty),* $(,)?) => {$(
        impl From<$from> for Failure {
            fn from(error: $from) -> Failure {
                Failure::Refused { refusal: Refusal::from(error), board: None }
            }
        }
    )*};
}

refused_from!(
    Refusal,
    BadValue,
    ChallengeRefusal,
    CommunityRefusal,
    ConditionalRefusal,
    CountingRefusal,
    EndingRefusal,
    TakebackRefusal,
    RequestRefusal,
    VacationRefusal,
    ScoreRefusal,
    ExploreRefusal,
    TournamentRefusal,
    TurnError,
    OptionError,
    NewGameError,
    stonemate_engine::game::UnknownGame,
    stonemate_ai::UnknownLevel,
);

impl From<StoreError> for Failure {
    fn from(error: StoreError) -> Failure {
        let refusal = match error {
            StoreError::Conflict => return Failure::Conflict,
            StoreError::Missing(id) => Refusal::NoSuchGame(id),
            // The log has the details ([`FailStop`](crate::store::FailStop) logs storage
            // failures); players get no library's text.
            StoreError::Unsure(_) => Refusal::OutcomeUnknown,
            StoreError::Stopped
            | StoreError::Database(_)
            | StoreError::Unreachable(_)
            | StoreError::Damaged(_)
            | StoreError::InUse(_)
            | StoreError::NotEmpty => Refusal::StorageUnavailable,
            StoreError::Corrupt(detail) => {
                tracing::error!(error = %detail, "a stored record cannot be read");
                Refusal::StorageUnavailable
            }
        };
        Failure::from(refusal)
    }
}
