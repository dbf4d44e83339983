//! Why `/vacation` is refused.

use crate::service::options::keys;

/// A refused vacation.
#[derive(Debug, Clone, thiserror::Error)]
pub enum VacationRefusal {
    /// Ending a vacation the caller is not on.
    #[error("you are not on vacation: `{}` starts one", keys::Vacation::days.usage("N"))]
    NotOnVacation,
    /// The vacation asked goes beyond what is left of the yearly allowance.
    #[error(
        "that is beyond the yearly vacation allowance of {allowance} days: you have {left} left this year, not {asked}"
    )]
    Allowance {
        /// Days asked.
        asked: u8,
        /// Days left this year.
        left: u32,
        /// Days allowed a year.
        allowance: u16,
    },
}
