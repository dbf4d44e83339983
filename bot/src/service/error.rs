//! Why a command is refused: one variant per rule of the service, each readable by a
//! player as is. A refusal changes nothing and is shown privately.

use stonemate_engine::{NewGameError, OptionError, TurnError};

use super::limits::{MAX_DAYS, MAX_PAGE, MAX_VACATION_DAYS};
use super::types::{Attachment, GameId, Reply, Response};

/// A refused command.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Refusal {
    #[error("`{0}` is not a game id: write its number, like 12 or #12")]
    BadGameId(String),
    #[error("there is no game or challenge {0}")]
    NoSuchGame(GameId),
    #[error("you have no game in this channel{0}")]
    NoGameHere(String),
    #[error("you have no challenge waiting here{0}")]
    NoChallengeHere(String),
    #[error("which one? Name it with `{option}:` — {list}")]
    WhichOne { option: &'static str, list: String },
    #[error("only members with the Manage Server permission may use /admin-abort, in their server")]
    NotAdmin,
    #[error("{0} is not your game")]
    NotYourGame(GameId),
    #[error("it is not your turn in {game}: {name} is to move")]
    NotYourTurn { game: GameId, name: String },
    #[error("{game} is over: {result}")]
    GameOver { game: GameId, result: String },
    #[error("{0} is a challenge that has not been accepted yet")]
    NotStarted(GameId),
    #[error("{game} is not a challenge waiting for an answer: it {state}")]
    NotPending { game: GameId, state: &'static str },
    #[error("challenge {game} has expired (challenges wait {wait})")]
    ChallengeExpired { game: GameId, wait: String },
    #[error("challenge {0} is addressed to someone else")]
    NotForYou(GameId),
    #[error("challenge {0} was sent by someone else: only its challenger can withdraw it")]
    NotYourChallenge(GameId),
    /// The bot's answer came for a position its game has left; it is dropped (never
    /// shown to anyone).
    #[error("the game has moved on since the question was asked")]
    Stale,
    #[error("you cannot challenge yourself")]
    ChallengeSelf,
    #[error("challenge {0} is your own open challenge: anyone else here may accept it (take it back with /withdraw)")]
    OwnOpenChallenge(GameId),
    #[error("challenge {0} is open to the members of the channel it was made in: accept it there")]
    OpenElsewhere(GameId),
    #[error("challenge {game} was already accepted by {name}")]
    Taken { game: GameId, name: String },
    #[error("challenge {0} is open to anyone: accept it, or leave it to expire (only its challenger can withdraw it)")]
    OpenNotDeclined(GameId),
    #[error("{0} is not over yet: a rematch is offered once it ends")]
    NotOver(GameId),
    #[error("ratings and stats belong to a server: use this command in one")]
    ServerOnly,
    #[error("{0}")]
    UnknownGame(#[from] stonemate_engine::game::UnknownGame),
    #[error("`{0}` is not a colour: use white, black or random")]
    BadColor(String),
    #[error("{0}")]
    BadLevel(#[from] stonemate_ai::UnknownLevel),
    #[error("days per move must be 0 to {MAX_DAYS} (0: no clock), not {0}")]
    BadDays(i64),
    #[error("extra time must be 1 to {MAX_DAYS} days, not {0}")]
    BadExtraDays(i64),
    #[error("bad options: {0}")]
    BadOptions(#[from] OptionError),
    /// `counting=on` (go, rule 10) while the service cannot hold a counting phase.
    #[error(
        "counting=on is not offered yet: the counting phase of go's rule 10 needs `/dead` and its buttons, which are still to come; challenge with counting off"
    )]
    CountingUnavailable,
    #[error("you already have {limit} challenges waiting for an answer: withdraw some, or wait for answers")]
    TooManyChallenges { limit: usize },
    #[error("you already have {limit} challenges waiting for {name}'s answer: wait for an answer first")]
    TooManyChallengesTo { name: String, limit: usize },
    #[error("{who} already {has} {limit} games going: finish some first")]
    TooManyGames { who: String, has: &'static str, limit: usize },
    #[error("{0}")]
    Illegal(#[from] TurnError),
    #[error("`{0}` is not a piece letter (like R, N or Q)")]
    BadPiece(String),
    #[error("`{0}` is not a square (like d4)")]
    BadSquare(String),
    #[error("{0} has no clock (0 days per move)")]
    NoClock(GameId),
    #[error("{game}: {name}'s time for this turn runs out {due}")]
    TimeLeft { game: GameId, name: String, due: String },
    #[error("it is your turn in {0}: only the waiting player can {1}")]
    OwnTurn(GameId, &'static str),
    #[error("{0} cannot be aborted: turns have been played (resign instead)")]
    AbortTooLate(GameId),
    #[error("you have already offered a draw in {0}")]
    DrawAlreadyOffered(GameId),
    #[error("there is no draw offer to answer in {0}")]
    NoDrawOffer(GameId),
    #[error("a vacation is 0 to {MAX_VACATION_DAYS} days (0 ends yours), not {0}")]
    BadVacationDays(i64),
    #[error("you are not on vacation: `/vacation days:N` starts one")]
    NotOnVacation,
    #[error(
        "that is beyond the yearly vacation allowance of {allowance} days: you have {left} left this year, not {asked}"
    )]
    VacationAllowance { asked: u8, left: u32, allowance: u16 },
    #[error("page {page} is beyond the end: there {}", pages_word(*.pages))]
    NoSuchPage { page: u32, pages: u32 },
    #[error("pages are numbered 1 to {MAX_PAGE}, not {0}")]
    BadPage(i64),
    #[error("`{0}` is not a game status: use active or finished")]
    BadStatus(String),
    #[error("`{0}` is not a notify mode: use channel, dm or off")]
    BadMode(String),
    #[error("this button (`{0}`) is not one of Stonemate's")]
    UnknownButton(String),
    #[error("{game} has {turns} turns: there is no board after turn {turn}")]
    NoSuchTurn { game: GameId, turn: usize, turns: usize },
    #[error("the game's record could not be replayed: {0}")]
    BrokenRecord(String),
    #[error("the game changed while this command was handled; nothing was done, try again")]
    Conflict,
    /// The store stopped, or failed before this change was tried: nothing was changed.
    #[error("storage unavailable, try again shortly")]
    StorageUnavailable,
    /// Writing this change to disk failed: it may or may not have been saved.
    #[error(
        "storage unavailable, try again shortly: whether this was saved is unknown; look at the board once the bot is back"
    )]
    OutcomeUnknown,
    #[error("{refusal}")]
    WithBoard { refusal: Box<Refusal>, game: GameId, board: Attachment },
}

/// `is 1 page` or `are 3 pages`.
fn pages_word(pages: u32) -> String {
    if pages == 1 { "is 1 page".to_owned() } else { format!("are {pages} pages") }
}

impl From<NewGameError> for Refusal {
    fn from(error: NewGameError) -> Refusal {
        match error {
            // Every game of the engine is in this build: the store can hold only those.
            NewGameError::Unavailable(kind) => Refusal::BrokenRecord(format!("{} is not in this build", kind.title())),
            NewGameError::Options(error) => Refusal::BadOptions(error),
        }
    }
}

impl Refusal {
    /// The refusal shown with the board it is about.
    #[must_use]
    pub fn with_board(self, game: GameId, board: Attachment) -> Refusal {
        Refusal::WithBoard { refusal: Box::new(self), game, board }
    }

    /// The private reply that tells the caller.
    #[must_use]
    pub fn into_response(self) -> Response {
        let text = self.to_string();
        let (game, images) = match self {
            Refusal::WithBoard { game, board, .. } => (Some(game), vec![board]),
            _ => (None, Vec::new()),
        };
        let reply = Reply { ok: false, text, private: true, images, game, ..Reply::default() };
        Response { reply, notices: Vec::new() }
    }
}
