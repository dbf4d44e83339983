//! Why a command is refused: one variant per rule of the service, each readable by a
//! player as is. A refusal changes nothing and is shown privately.

use stonemate_engine::{NewGameError, OptionError, TurnError};

use super::limits::{MAX_DAYS, MAX_PAGE, MAX_VACATION_DAYS};
use super::options::keys;
use super::types::{Attachment, GameId, Reply, Response};

/// A refused command.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Refusal {
    /// The text given as a game id (kept as typed) is not a number.
    #[error("`{0}` is not a game id: write its number, like 12 or #12")]
    BadGameId(String),
    /// No game or challenge has this id.
    #[error("there is no game or challenge {0}")]
    NoSuchGame(GameId),
    /// The caller has no game in this channel; the text adds a hint (may be empty).
    #[error("you have no game in this channel{0}")]
    NoGameHere(String),
    /// The caller has no challenge waiting in this channel; the text adds a hint (may be
    /// empty).
    #[error("you have no challenge waiting here{0}")]
    NoChallengeHere(String),
    /// Several games or challenges fit and the command did not say which.
    #[error("which one? Name it with `{option}:` — {list}")]
    WhichOne {
        /// The command's option that names one.
        option: &'static str,
        /// The candidates, written for the caller.
        list: String,
    },
    /// `/admin-abort` by someone without the Manage Server permission, or outside a server.
    #[error("only members with the Manage Server permission may use /admin-abort, in their server")]
    NotAdmin,
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
    /// `/takeback` by a player who has played no turn yet.
    #[error("you have played no turn to take back in {0}")]
    NoTurnToTakeBack(GameId),
    /// `/takeback` while the caller's earlier request waits for its answer.
    #[error("a takeback is already waiting for an answer in {0}")]
    TakebackPending(GameId),
    /// A takeback button pressed with no request standing for the caller to answer (none
    /// made, answered already, his own, or a turn played since).
    #[error("there is no takeback to answer in {0}")]
    NoTakeback(GameId),
    /// Stonemate declines takebacks in rated games.
    #[error("Stonemate declines takebacks in rated games ({0})")]
    TakebackDeclined(GameId),
    /// The game has ended.
    #[error("{id} is over: {result}")]
    GameOver {
        /// The game.
        id: GameId,
        /// Its result, written for the caller.
        result: String,
    },
    /// The id names a challenge, not a game being played.
    #[error("{0} is a challenge that has not been accepted yet")]
    NotStarted(GameId),
    /// A challenge that was declined, withdrawn or expired, so there is nothing to act on.
    #[error("{id} is not a challenge waiting for an answer: it {state}")]
    NotPending {
        /// The game or challenge.
        id: GameId,
        /// What became of it, as a verb phrase ("was declined").
        state: &'static str,
    },
    /// The challenge waited too long for an answer.
    #[error("challenge {id} has expired (challenges wait {wait})")]
    ChallengeExpired {
        /// The challenge.
        id: GameId,
        /// How long challenges wait, written for the caller.
        wait: String,
    },
    /// The challenge is addressed to another user.
    #[error("challenge {0} is addressed to someone else")]
    NotForYou(GameId),
    /// Only the challenger may withdraw a challenge.
    #[error("challenge {0} was sent by someone else: only its challenger can withdraw it")]
    NotYourChallenge(GameId),
    /// The bot's answer came for a position its game has left; it is dropped (never
    /// shown to anyone).
    #[error("the game has moved on since the question was asked")]
    Stale,
    /// A challenge addressed to its own sender.
    #[error("you cannot challenge yourself")]
    ChallengeSelf,
    /// The challenger tried to accept their own open challenge.
    #[error("challenge {0} is your own open challenge: anyone else here may accept it (take it back with /withdraw)")]
    OwnOpenChallenge(GameId),
    /// An open challenge accepted from another channel than the one it was made in.
    #[error("challenge {0} is open to the members of the channel it was made in: accept it there")]
    OpenElsewhere(GameId),
    /// Someone else accepted the open challenge first.
    #[error("challenge {id} was already accepted by {name}")]
    Taken {
        /// The challenge.
        id: GameId,
        /// The display name of the player who accepted it.
        name: String,
    },
    /// An open challenge cannot be declined.
    #[error("challenge {0} is open to anyone: accept it, or leave it to expire (only its challenger can withdraw it)")]
    OpenNotDeclined(GameId),
    /// A rematch asked for a game still being played.
    #[error("{0} is not over yet: a rematch is offered once it ends")]
    NotOver(GameId),
    /// A Rematch press when the rematch is already asked for (and waits for the
    /// opponent's answer) or being played.
    #[error("the rematch of {id} is {rematch}{}", if *.waiting { ", waiting for your opponent's answer" } else { ", being played" })]
    RematchMade {
        /// The finished game.
        id: GameId,
        /// Its rematch.
        rematch: GameId,
        /// Whether the rematch is a challenge waiting for an answer.
        waiting: bool,
    },
    /// A new draw offer before the opponent has played two turns since the caller's last.
    #[error(
        "you offered a draw in {id} already: you may offer again once {name} has played {turns} more {}",
        if *.turns == 1 { "turn" } else { "turns" }
    )]
    DrawOfferTooSoon {
        /// The game.
        id: GameId,
        /// The opponent's display name.
        name: String,
        /// How many more turns the opponent has to play first.
        turns: usize,
    },
    /// `/admin-abort` of a game the administrator plays in himself.
    #[error("{0} is your own game: an administrator cannot abort it (`/abort` before any turn, or `/resign`)")]
    AdminOwnGame(GameId),
    /// A server's command (ratings, stats) used in a direct message.
    #[error("ratings and stats belong to a server: use this command in one")]
    ServerOnly,
    /// The name given is not one of the five games.
    #[error("{0}")]
    UnknownGame(#[from] stonemate_engine::game::UnknownGame),
    /// The colour option (kept as typed) is not white, black or random.
    #[error("`{0}` is not a colour: use white, black or random")]
    BadColor(String),
    /// The AI level given is not one the AI knows.
    #[error("{0}")]
    BadLevel(#[from] stonemate_ai::UnknownLevel),
    /// Days per move outside 0 to [`MAX_DAYS`].
    #[error("days per move must be 0 to {MAX_DAYS} (0: no clock), not {0}")]
    BadDays(i64),
    /// Extra days asked outside 1 to [`MAX_DAYS`].
    #[error("extra time must be 1 to {MAX_DAYS} days, not {0}")]
    BadExtraDays(i64),
    /// The game's options are not valid for its kind.
    #[error("bad options: {0}")]
    BadOptions(#[from] OptionError),
    /// The challenger already has the most challenges allowed waiting.
    #[error(
        "you already have {} waiting for an answer: withdraw some, or wait for answers",
        super::text::counted(*.limit, "challenge", "challenges")
    )]
    TooManyChallenges {
        /// The most challenges a user may have waiting.
        limit: usize,
    },
    /// The challenger already has the most challenges allowed waiting for this opponent.
    #[error(
        "you already have {} waiting for {name}'s answer: wait for an answer first",
        super::text::counted(*.limit, "challenge", "challenges")
    )]
    TooManyChallengesTo {
        /// The opponent's display name.
        name: String,
        /// The most challenges a user may have waiting for one opponent.
        limit: usize,
    },
    /// A player already has the most games allowed going.
    #[error("{who} already {has} {} going: finish some first", super::text::counted(*.limit, "game", "games"))]
    TooManyGames {
        /// Who: "you" or a display name.
        who: String,
        /// The verb agreeing with `who` ("have" or "has").
        has: &'static str,
        /// The most games a user may have going.
        limit: usize,
    },
    /// The turn breaks the game's rules.
    #[error("{0}")]
    Illegal(#[from] TurnError),
    /// The text (kept as typed) is not a piece letter.
    #[error("`{0}` is not a piece letter (like R, N or Q)")]
    BadPiece(String),
    /// The text (kept as typed) is not a square.
    #[error("`{0}` is not a square (like d4)")]
    BadSquare(String),
    /// A clock command for a game without a clock.
    #[error("{0} has no clock (0 days per move)")]
    NoClock(GameId),
    /// A claim on time while the player to move still has time left.
    #[error("{id}: {name}'s time for this turn runs out {due}")]
    TimeLeft {
        /// The game.
        id: GameId,
        /// The display name of the player to move.
        name: String,
        /// When their time runs out, written for the caller.
        due: String,
    },
    /// A command only the waiting player may use, used by the player to move; the text
    /// names what they tried.
    #[error("it is your turn in {0}: only the waiting player can {1}")]
    OwnTurn(GameId, &'static str),
    /// An abort after turns have been played.
    #[error("{0} cannot be aborted: turns have been played (resign instead)")]
    AbortTooLate(GameId),
    /// The caller's draw offer is already standing.
    #[error("you have already offered a draw in {0}")]
    DrawAlreadyOffered(GameId),
    /// An answer to a draw offer that no one made.
    #[error("there is no draw offer to answer in {0}")]
    NoDrawOffer(GameId),
    /// Vacation days outside 0 to [`MAX_VACATION_DAYS`].
    #[error("a vacation is 0 to {MAX_VACATION_DAYS} days (0 ends yours), not {0}")]
    BadVacationDays(i64),
    /// Ending a vacation the caller is not on.
    #[error("you are not on vacation: `{}` starts one", keys::Vacation::days.usage("N"))]
    NotOnVacation,
    /// The vacation asked goes beyond what is left of the yearly allowance.
    #[error(
        "that is beyond the yearly vacation allowance of {allowance} days: you have {left} left this year, not {asked}"
    )]
    VacationAllowance {
        /// Days asked.
        asked: u8,
        /// Days left this year.
        left: u32,
        /// Days allowed a year.
        allowance: u16,
    },
    /// A page past the last one of a list.
    #[error("page {page} is beyond the end: there {}", pages_word(*.pages))]
    NoSuchPage {
        /// The page asked, counted from 1.
        page: u32,
        /// How many pages there are.
        pages: u32,
    },
    /// A page number outside 1 to [`MAX_PAGE`].
    #[error("pages are numbered 1 to {MAX_PAGE}, not {0}")]
    BadPage(i64),
    /// The status option (kept as typed) is not active or finished.
    #[error("`{0}` is not a game status: use active or finished")]
    BadStatus(String),
    /// The notify mode (kept as typed) is not channel, dm or off.
    #[error("`{0}` is not a notify mode: use channel, dm or off")]
    BadMode(String),
    /// A turn picker opened before the game's last change.
    #[error("{0} has moved on since this picker opened: nothing was played (open a new one with /play)")]
    PickerStale(GameId),
    /// A turn picker's choice that leads nowhere in the game's position; the text says why.
    #[error("{0}: nothing was played (open the picker again with /play)")]
    BadPick(String),
    /// An on/off option (kept as typed) that is neither.
    #[error("`{0}` is neither on nor off")]
    BadOnOff(String),
    /// A press whose button id (kept as received) is not one of ours.
    #[error("this button (`{0}`) is not one of Stonemate's")]
    UnknownButton(String),
    /// A board asked after a turn the game has not reached.
    #[error("{id} has {}: there is no board after turn {turn}", super::text::counted(*.turns, "turn", "turns"))]
    NoSuchTurn {
        /// The game.
        id: GameId,
        /// The turn asked.
        turn: usize,
        /// How many turns the game has.
        turns: usize,
    },
    /// `/dead` or a counting button outside the counting phase (go, rule 10).
    #[error("{0} is not counting dead pieces: that comes after two passes in a go game with counting=on")]
    NotCounting(GameId),
    /// A command that counting leaves no room for (a claim, a conditional line).
    #[error("{0} is counting dead pieces: accept the proposal, resume play, or propose others with `/dead`")]
    Counting(GameId),
    /// The caller proposed or accepted the standing proposal already.
    #[error("you already accepted the proposal in {id}: {name} is to answer it")]
    AlreadyAccepted {
        /// The game.
        id: GameId,
        /// The display name of the player who is to answer.
        name: String,
    },
    /// A counting button pressed after the proposal it showed was replaced.
    #[error("the proposal in {0} changed since this button was shown: `/dead` shows the one standing")]
    ProposalChanged(GameId),
    /// `/conditional` with a line while it is the caller's own turn.
    #[error("it is your turn in {0}: conditional lines are stored while your opponent is to move")]
    ConditionalOnOwnTurn(GameId),
    /// A conditional line that is not pairs of turns.
    #[error(
        "a conditional line is pairs of turns: your opponent's expected turn, then your answer, and so on (like `e5 d4 c3 d3`)"
    )]
    ConditionalPairs,
    /// A turn of a conditional line that cannot be played where the line puts it.
    #[error("turn {number} of the line, `{turn}`, is refused: {error}")]
    ConditionalTurn {
        /// Its place in the line, from 1.
        number: usize,
        /// The turn as typed.
        turn: String,
        /// Why the game refuses it.
        error: TurnError,
    },
    /// Too many conditional lines or turns.
    #[error("at most {lines} conditional lines of {turns} turns each may wait in one game")]
    ConditionalLimit {
        /// Lines per player and game.
        lines: usize,
        /// Turns per line.
        turns: usize,
    },
    /// The stored record does not replay under the rules; the text says why.
    #[error("the game's record could not be replayed: {0}")]
    BrokenRecord(String),
    /// Another change to the game was saved first; this one was dropped.
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
    /// A refusal shown with the board it is about (see [`Refusal::with_board`]).
    #[error("{refusal}")]
    WithBoard {
        /// The refusal itself.
        refusal: Box<Refusal>,
        /// The game the board is of.
        id: GameId,
        /// The board's picture.
        board: Attachment,
    },
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
    pub fn with_board(self, id: GameId, board: Attachment) -> Refusal {
        Refusal::WithBoard { refusal: Box::new(self), id, board }
    }

    /// The private reply that tells the caller.
    #[must_use]
    pub fn into_response(self) -> Response {
        let text = self.to_string();
        let (about, images) = match self {
            Refusal::WithBoard { id, board, .. } => (Some(id), vec![board]),
            _ => (None, Vec::new()),
        };
        let reply = Reply { ok: false, message: text.into(), private: true, images, about, ..Reply::default() };
        Response { reply, notices: Vec::new() }
    }
}
