//! What a command's typed values are refused for: a value that is not one of its option's
//! (a game id, a colour, a number out of range), named as typed. Reading the options
//! ([`commands`](super::commands)) and the handlers that read a value themselves (`/drop`'s
//! piece and square) refuse with these.

use stonemate_engine::OptionError;

use super::limits::{MAX_DAYS, MAX_PAGE, MAX_VACATION_DAYS};

/// A value that is not one its option takes.
#[derive(Debug, Clone, thiserror::Error)]
pub enum BadValue {
    /// The text given as a game id (kept as typed) is not a number.
    #[error("`{0}` is not a game id: write its number, like 12 or #12")]
    GameId(String),
    /// The name given is not one of the five games.
    #[error("{0}")]
    Game(#[from] stonemate_engine::game::UnknownGame),
    /// The colour option (kept as typed) is not white, black or random.
    #[error("`{0}` is not a colour: use white, black or random")]
    Color(String),
    /// The AI level given is not one the AI knows.
    #[error("{0}")]
    Level(#[from] stonemate_ai::UnknownLevel),
    /// Days per move outside 0 to [`MAX_DAYS`].
    #[error("days per move must be 0 to {MAX_DAYS} (0: no clock), not {0}")]
    Days(i64),
    /// Extra days asked outside 1 to [`MAX_DAYS`].
    #[error("extra time must be 1 to {MAX_DAYS} days, not {0}")]
    ExtraDays(i64),
    /// Vacation days outside 0 to [`MAX_VACATION_DAYS`].
    #[error("a vacation is 0 to {MAX_VACATION_DAYS} days (0 ends yours), not {0}")]
    VacationDays(i64),
    /// A page number outside 1 to [`MAX_PAGE`].
    #[error("pages are numbered 1 to {MAX_PAGE}, not {0}")]
    Page(i64),
    /// The game's options are not valid for its kind.
    #[error("bad options: {0}")]
    Options(#[from] OptionError),
    /// The text (kept as typed) is not a piece letter.
    #[error("`{0}` is not a piece letter (like R, N or Q)")]
    Piece(String),
    /// The text (kept as typed) is not a square.
    #[error("`{0}` is not a square (like d4)")]
    Square(String),
    /// The status option (kept as typed) is not active or finished.
    #[error("`{0}` is not a game status: use active or finished")]
    Status(String),
    /// The notify mode (kept as typed) is not channel, dm or off.
    #[error("`{0}` is not a notify mode: use channel, dm or off")]
    Mode(String),
    /// An hour outside 0 to 23.
    #[error("an hour is 0 to 23 (UTC), not {0}")]
    Hour(i64),
    /// A tournament's number outside its range.
    #[error("{what} must be {min} to {max}, not {given}")]
    OutOfRange {
        /// What the number counts.
        what: &'static str,
        /// The smallest allowed.
        min: i64,
        /// The largest allowed.
        max: i64,
        /// What was given.
        given: i64,
    },
    /// An on/off option (kept as typed) that is neither.
    #[error("`{0}` is neither on nor off")]
    OnOff(String),
}
