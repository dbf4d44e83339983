//! The numbers commands accept, in one place that the refusals and the command list both
//! read (so neither depends on the other).

pub use crate::clock::MAX_DAYS;

/// The longest vacation one command takes, in days.
pub const MAX_VACATION_DAYS: u8 = 30;

/// The highest page number Discord offers (lists this long are not read page by page).
pub const MAX_PAGE: u32 = 1000;
