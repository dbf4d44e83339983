//! Points and tiebreak values, counted exactly in quarter points: scores move in halves
//! (a draw), and Sonneborn-Berger adds half an opponent's score for a draw, so quarters
//! are the finest step any figure here takes. No floating point, so ties are exact.

use std::fmt;
use std::iter::Sum;
use std::ops::Add;

use serde::{Deserialize, Serialize};

/// A number of points (or a tiebreak value) in quarters: `Points::from_quarters(10)` is 2.5.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Points(u32);

impl Points {
    /// No points.
    pub const ZERO: Points = Points(0);
    /// Half a point: a draw.
    pub const HALF: Points = Points(2);
    /// One point: a win, a forfeit win or a bye.
    pub const ONE: Points = Points(4);

    /// The value `quarters / 4`.
    pub const fn from_quarters(quarters: u32) -> Points {
        Points(quarters)
    }

    /// The value in quarter points.
    pub const fn quarters(self) -> u32 {
        self.0
    }

    /// Half of this value (exact for every score, which counts in halves).
    pub const fn half(self) -> Points {
        Points(self.0 / 2)
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, other: Points) -> Points {
        Points(self.0 + other.0)
    }
}

impl Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, Add::add)
    }
}

/// `2`, `2.5`, `6.25`: as few decimals as the value needs.
impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / 4;
        match self.0 % 4 {
            0 => write!(f, "{whole}"),
            1 => write!(f, "{whole}.25"),
            2 => write!(f, "{whole}.5"),
            _ => write!(f, "{whole}.75"),
        }
    }
}
