//! What is stored: one [`GameRecord`] per challenge or game, one [`UserRecord`] per user
//! who set something. Records are JSON (readable with any tool, and serde keeps unknown
//! fields out of the way); `format` says which layout a record has, so later versions can
//! read old databases.
//!
//! A game record holds the options, the players and the turns as notation text, never a
//! position: the position is rebuilt by replaying the turns (style principle 5). Its parts
//! each live in a file of their own: who plays ([`Seats`]), what waits between the
//! players ([`Pending`]), how it ended ([`Finish`]), the turn's clock ([`TurnClock`]). The
//! stored layout stays the flat one of format 2 whatever the parts (`stored.rs`).

mod clock;
mod finish;
mod game;
mod names;
mod pending;
mod seats;
mod server;
mod stored;
mod user;

pub use clock::TurnClock;
pub use finish::{CalledOff, Finish};
pub use game::{GameRecord, Origin, Phase, Thread, TournamentTag};
pub(crate) use names::kind_name;
pub use pending::{Asked, Conditional, Counting, Pending, Takeback};
pub use seats::{ColorChoice, NOBODY, Seat, Seats};
pub use server::ServerRecord;
pub use stored::{FORMAT, upgrade};
pub use user::{ClosedChallenge, NotifyMode, UserRecord, Vacation};
