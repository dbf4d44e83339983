//! Which pieces are dead in go's counting phase (rule 10): the proposal the service opens
//! counting with ([`estimate_dead`]) and the bot's own judgement of a proposal
//! ([`judge_dead`]). The engine keeps the rules (counting given dead pieces); how to guess
//! them lives here.
//!
//! Both read the ownership of each square at the end of seeded random games, and call a
//! piece dead when its opponent ends up owning its square more often than its own side
//! ([`dead_from_ownership`]). For a set whose pieces act like stones (rooks, as in go:
//! [`FastGo::supports`](crate::fastgo::FastGo::supports)) the games are played on the
//! incremental playout board with its heavy policy (MoGo's: answer ataris, play go's 3x3
//! shapes), many times faster than through the engine; the estimate plays
//! [`FAST_PLAYOUTS`] of them, a few hundred milliseconds on a busy 19x19 board where the
//! engine's board took seconds for 32 (`ai/examples/estimate_speed.rs`), and groups in
//! seki are kept alive ([`fast_ownership`]). Other sets (a rook with a knight, pawns, the
//! Chinese knight) are played by the engine's rules on its own board, which plays any set
//! ([`rules_ownership`]); [`Playouts`] names the two.
//!
//! What the bot does with its judgement (accept, propose, resume) is the service's to
//! decide, given the proposal standing when the answer comes back.

mod dead;
mod estimate;
mod fast;
mod rules;

pub use dead::dead_from_ownership;
pub use estimate::{FAST_PLAYOUTS, JUDGE_PLAYOUTS, Playouts, estimate_dead, estimate_dead_with, judge_dead};
pub use fast::fast_ownership;
pub use rules::{RULES_PLAYOUTS, rules_ownership};
