//! The ai crate's integration tests, one binary (areas as modules).

mod fastgo;
mod rave;
mod search;
