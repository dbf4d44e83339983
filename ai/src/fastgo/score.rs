//! The score on the playout board (rules 8 and 9) and the evaluation the search reads
//! from it.

use stonemate_engine::{Color, HalfPoints, Outcome, Score};

use super::board::FastGo;
use super::geometry::EMPTY;

impl FastGo {
    /// White's expected result: exact once the game is over, otherwise the points as they
    /// stand squashed to `[0, 1]` (the engine-based evaluation).
    #[must_use]
    pub fn evaluate(&self) -> f64 {
        let score = self.score();
        if self.finished {
            return match score.outcome() {
                Outcome::Winner(Color::White) => 1.0,
                Outcome::Winner(Color::Black) => 0.0,
                Outcome::Draw => 0.5,
            };
        }
        let diff = f64::from(score.white.0 - score.black.0) / 2.0;
        0.5 + 0.5 * (diff / self.geometry.scale).tanh()
    }

    /// The score as it stands (rules 8 and 9): controlled squares plus prisoners, komi
    /// to White.
    #[must_use]
    pub fn score(&self) -> Score {
        // A piece reaches, through empty squares, exactly the empty regions (squares joined
        // by steps) next to it: steps go both ways. So each region is flooded once and
        // belongs to a player when only that player's pieces border it.
        let n = self.cells.len();
        let mut seen = vec![false; n];
        let mut stack: Vec<u16> = Vec::with_capacity(n);
        let mut controlled = [0i32; 2];
        for &start in &self.empties {
            if seen[usize::from(start)] {
                continue;
            }
            seen[usize::from(start)] = true;
            stack.push(start);
            let (mut size, mut borders) = (0, 0u8);
            while let Some(at) = stack.pop() {
                size += 1;
                for &to in self.geometry.steps(usize::from(at)) {
                    match self.cells[usize::from(to)].color {
                        EMPTY if !seen[usize::from(to)] => {
                            seen[usize::from(to)] = true;
                            stack.push(to);
                        }
                        EMPTY => {}
                        color => borders |= 1 << color,
                    }
                }
            }
            match borders {
                1 => controlled[0] += size,
                2 => controlled[1] += size,
                _ => {}
            }
        }
        let points = |c: usize| HalfPoints::whole(controlled[c] + self.prisoners[c] as i32);
        Score { white: points(0) + self.geometry.komi, black: points(1) }
    }
}
