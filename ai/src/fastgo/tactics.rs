//! What a drop does to the chains around it (captures, ataris, saves, self-ataris), the
//! liberties of a chain, and go's shapes around a square: for the search's priors, the
//! heavy playouts, and counting's seki test.

use stonemate_engine::Square;

use super::board::FastGo;
use super::geometry::{EMPTY, NONE};
use super::shapes::patterns;

/// What a drop does to the chains next to it (see [`FastGo::tactics`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tactics {
    /// It takes the last liberty of an enemy chain: a capture.
    pub captures: bool,
    /// It leaves an enemy chain with one liberty.
    pub ataris: bool,
    /// It joins an own chain in atari and leaves the whole with two liberties or more (or
    /// captures).
    pub saves: bool,
    /// Without capturing, it leaves its own chain with one liberty.
    pub self_atari: bool,
}

impl FastGo {
    /// The chain of the piece on `square` has exactly one empty step (it is in atari);
    /// `false` for an empty square.
    #[must_use]
    pub fn in_atari(&self, square: Square) -> bool {
        match self.geometry.index_of.get(square.index()) {
            Some(&at) if at != NONE && self.cells[usize::from(at)].color != EMPTY => {
                self.chain_liberties(usize::from(at), 2) == 1
            }
            _ => false,
        }
    }

    /// The chain of the piece on board index `at` (the pieces its steps join, as the
    /// board keeps them) and the chain's distinct empty steps, as board indices; `None`
    /// for an empty square or an index off the board. For readers outside the playouts
    /// (counting's seki test), which would otherwise walk the group again.
    #[must_use]
    pub fn chain_at(&self, at: usize) -> Option<(Vec<usize>, Vec<usize>)> {
        if self.cells.get(at)?.color == EMPTY {
            return None;
        }
        let rep = usize::from(self.cells[at].chain);
        let mut pieces = Vec::with_capacity(usize::from(self.cells[rep].size));
        let mut liberties = Vec::new();
        let mut square = rep;
        loop {
            pieces.push(square);
            for &to in self.geometry.steps(square) {
                let to = usize::from(to);
                if self.cells[to].color == EMPTY && !liberties.contains(&to) {
                    liberties.push(to);
                }
            }
            square = usize::from(self.cells[square].next);
            if square == rep {
                return Some((pieces, liberties));
            }
        }
    }

    /// The distinct empty steps of the chain through `at`, counted up to `limit`.
    fn chain_liberties(&self, at: usize, limit: usize) -> usize {
        let mut found: [u16; 8] = [NONE; 8];
        let mut count = 0;
        self.add_chain_liberties(at, NONE, &mut found, &mut count, limit.min(8));
        count
    }

    /// Adds the chain's empty steps other than `except` to `found` (without repeats),
    /// stopping once there are `limit`.
    fn add_chain_liberties(&self, at: usize, except: u16, found: &mut [u16; 8], count: &mut usize, limit: usize) {
        let rep = usize::from(self.cells[at].chain);
        let mut square = rep;
        loop {
            for &to in self.geometry.steps(square) {
                if *count >= limit {
                    return;
                }
                if to != except && self.cells[usize::from(to)].color == EMPTY && !found[..*count].contains(&to) {
                    found[*count] = to;
                    *count += 1;
                }
            }
            square = usize::from(self.cells[square].next);
            if square == rep {
                return;
            }
        }
    }

    /// The one empty step of the chain through `at` when it has exactly one (atari).
    pub(super) fn only_liberty(&self, at: usize) -> Option<u16> {
        // One empty square is a step of at most `max_steps` pieces (steps go both ways):
        // a chain with more pseudo-liberties than that has two liberties at least.
        if usize::from(self.cells[usize::from(self.cells[at].chain)].liberties) > self.geometry.max_steps {
            return None;
        }
        let mut found: [u16; 8] = [NONE; 8];
        let mut count = 0;
        self.add_chain_liberties(at, NONE, &mut found, &mut count, 2);
        (count == 1).then_some(found[0])
    }

    /// What a drop of the side to move on `square` does tactically, for the search's
    /// priors; `None` unless the square is empty.
    #[must_use]
    pub fn tactics(&self, square: Square) -> Option<Tactics> {
        self.tactics_at(self.index_of(square)?)
    }

    /// [`FastGo::tactics`] by board index.
    pub(super) fn tactics_at(&self, at: usize) -> Option<Tactics> {
        if self.cells[at].color != EMPTY {
            return None;
        }
        let own = self.to_move.index() as u8;
        let mut tactics = Tactics::default();
        // The liberties the new piece's chain would have: its empty steps and those of the
        // own chains it joins (up to 2, which is all the question needs).
        let mut found: [u16; 8] = [NONE; 8];
        let mut count = 0;
        for &to in self.geometry.steps(at) {
            let cell = self.cells[usize::from(to)];
            if cell.color == EMPTY {
                if count < 2 && !found[..count].contains(&to) {
                    found[count] = to;
                    count += 1;
                }
            } else if cell.color == own {
                if self.chain_liberties(usize::from(to), 2) == 1 {
                    tactics.saves = true;
                }
                self.add_chain_liberties(usize::from(to), at as u16, &mut found, &mut count, 2);
            } else if self.chain_liberties(usize::from(to), 2) == 1 {
                tactics.captures = true;
            } else if self.chain_liberties(usize::from(to), 3) == 2 {
                tactics.ataris = true;
            }
        }
        tactics.self_atari = !tactics.captures && count <= 1;
        // Saving a chain means leaving it more than one liberty.
        tactics.saves &= count >= 2 || tactics.captures;
        Some(tactics)
    }

    /// Whether the empty square `at` matches one of go's 3x3 shapes around it (hane,
    /// cuts, edge blocks; either colour to play); `false` for sets whose steps are not
    /// orthogonal, and for occupied squares.
    #[must_use]
    pub fn shape_at(&self, square: Square) -> bool {
        self.index_of(square)
            .is_some_and(|at| self.geometry.patterns && self.cells[at].color == EMPTY && self.matches_pattern(at))
    }

    /// Whether the empty square `at` matches one of go's 3x3 shapes (either colour to
    /// play); only meaningful for orthogonal steps.
    pub(super) fn matches_pattern(&self, at: usize) -> bool {
        let own = self.to_move.index() as u8;
        let mut code = 0usize;
        for (k, &to) in self.geometry.ring[at].iter().enumerate() {
            let value = match to {
                NONE => 3,
                to => match self.cells[usize::from(to)].color {
                    EMPTY => 0,
                    c if c == own => 1,
                    _ => 2,
                },
            };
            code |= value << (2 * k);
        }
        patterns()[code]
    }

    /// Whether `square` is on the edge of the grid (a square of its 3x3 neighbourhood is
    /// off the board; holes do not count).
    #[must_use]
    pub fn on_first_line(&self, square: Square) -> bool {
        self.index_of(square).is_some_and(|at| self.geometry.near[at].eye_on_edge)
    }
}
