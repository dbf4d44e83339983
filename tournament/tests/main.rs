//! The tournament crate's tests, as one test binary: named tests of each rule, and property
//! tests over random tournaments, one module per area.

mod common;

mod round_robin;
mod standings;
mod swiss;
mod tournament;
