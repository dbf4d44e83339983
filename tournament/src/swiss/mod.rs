//! The Swiss system: pairing a round by score groups after FIDE's Dutch system, with no
//! pair meeting twice, balanced colours and byes.

mod colour;
mod history;
mod matching;
mod pair;

pub use pair::{SwissRound, pair};
