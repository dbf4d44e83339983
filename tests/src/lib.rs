//! Cross-crate integration tests for Stonemate live in `tests/tests/`; this library holds
//! helpers they share: the fake Discord that the Discord adapter is tested against, and a
//! throwaway PostgreSQL for the stores.

pub mod fake_discord;
pub mod load;
pub mod postgres;
