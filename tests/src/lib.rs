//! Cross-crate integration tests for Stonemate live in `tests/tests/`; this library holds
//! helpers they share.
