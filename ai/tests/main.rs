//! The ai crate's integration tests, one binary (areas as modules).

mod alphabeta;
mod chogo;
mod counting;
mod counting_gnugo;
mod deployment;
mod fastgo;
mod games;
mod pinned;
mod rave;
mod reuse;
mod search;
