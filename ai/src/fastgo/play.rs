//! The rules on the playout board (rules 1 and 4-7 for stone-like sets): which drops are
//! legal, and what a drop or a pass changes, chains and pseudo-liberties kept up to date
//! as go programs do.

use stonemate_engine::{Role, Turn};

use super::board::FastGo;
use super::geometry::{EMPTY, NONE};

impl FastGo {
    /// Whether the side to move may drop `role` on board index `at` (rules 1, 4-6).
    pub(super) fn legal_drop(&self, at: usize, role: Role) -> bool {
        if self.cells[at].color != EMPTY || self.ko == Some((at as u16, role)) {
            return false;
        }
        let own = self.to_move.index() as u8;
        let steps = self.geometry.steps(at);
        if steps.iter().any(|&to| self.cells[usize::from(to)].color == EMPTY) {
            return true;
        }
        steps.iter().any(|&to| {
            let chain = self.cells[usize::from(to)].chain;
            // The pseudo-liberties this drop takes from that chain: one per step to it.
            let taken = steps.iter().filter(|&&other| self.cells[usize::from(other)].chain == chain).count() as u16;
            let left = self.cells[usize::from(chain)].liberties - taken;
            if self.cells[usize::from(to)].color == own { left > 0 } else { left == 0 }
        })
    }

    /// Drops a piece of the side to move on board index `at`; the turn must be legal.
    pub(super) fn drop_at(&mut self, at: usize, role: Role) {
        let (steps, count) = self.geometry.steps_copy(at);
        let steps = &steps[..count];
        let own = self.to_move.index() as u8;
        self.take_empty(at);
        self.cells[at].color = own;
        self.cells[at].role = role;
        self.cells[at].chain = at as u16;
        self.cells[at].next = at as u16;
        self.cells[at].size = 1;
        self.cells[at].liberties = 0;
        for &to in steps {
            let to = usize::from(to);
            if self.cells[to].color == EMPTY {
                self.cells[at].liberties += 1;
            } else {
                let chain = usize::from(self.cells[to].chain);
                self.cells[chain].liberties -= 1;
            }
        }
        let mut captured = 0;
        let mut captured_at = (0, Role::Stone);
        for &to in steps {
            let to = usize::from(to);
            if self.cells[to].color != own
                && self.cells[to].color != EMPTY
                && self.cells[usize::from(self.cells[to].chain)].liberties == 0
            {
                captured_at = (to as u16, self.cells[to].role);
                captured += self.capture(usize::from(self.cells[to].chain));
            }
        }
        for &to in steps {
            let to = usize::from(to);
            if self.cells[to].color == own && self.cells[to].chain != self.cells[at].chain {
                self.merge(usize::from(self.cells[at].chain), usize::from(self.cells[to].chain));
            }
        }
        let chain = usize::from(self.cells[at].chain);
        self.ko =
            (captured == 1 && self.cells[chain].size == 1 && self.cells[chain].liberties == 1).then_some(captured_at);
        self.prisoners[usize::from(own)] += captured;
        self.passes_in_a_row = 0;
        self.last = at as u16;
        self.to_move = self.to_move.other();
    }

    /// Removes the chain with representative `rep`; returns how many pieces it had.
    fn capture(&mut self, rep: usize) -> u32 {
        let captor = 1 - self.cells[rep].color;
        let mut count = 0;
        let mut square = rep;
        loop {
            let next = usize::from(self.cells[square].next);
            self.cells[square].color = EMPTY;
            self.cells[square].chain = NONE;
            self.cells[square].empty_at = self.empties.len() as u16;
            self.empties.push(square as u16);
            count += 1;
            let (steps, step_count) = self.geometry.steps_copy(square);
            for &to in &steps[..step_count] {
                let to = usize::from(to);
                if self.cells[to].color == captor {
                    let chain = usize::from(self.cells[to].chain);
                    self.cells[chain].liberties += 1;
                }
            }
            square = next;
            if square == rep {
                break;
            }
        }
        count
    }

    /// Joins chain `b` into chain `a` (the smaller one is relabelled).
    fn merge(&mut self, a: usize, b: usize) {
        let (keep, gone) = if self.cells[a].size >= self.cells[b].size { (a, b) } else { (b, a) };
        let mut square = gone;
        loop {
            self.cells[square].chain = keep as u16;
            square = usize::from(self.cells[square].next);
            if square == gone {
                break;
            }
        }
        let next = self.cells[keep].next;
        self.cells[keep].next = self.cells[gone].next;
        self.cells[gone].next = next;
        self.cells[keep].size += self.cells[gone].size;
        self.cells[keep].liberties += self.cells[gone].liberties;
    }

    fn take_empty(&mut self, at: usize) {
        let position = usize::from(self.cells[at].empty_at);
        let last = self.empties.len() - 1;
        self.empties.swap(position, last);
        self.cells[usize::from(self.empties[position])].empty_at = position as u16;
        self.empties.pop();
        self.cells[at].empty_at = NONE;
    }

    pub(super) fn pass(&mut self) {
        self.ko = None;
        self.last = NONE;
        self.passes_in_a_row += 1;
        self.finished = self.passes_in_a_row >= 2;
        self.to_move = self.to_move.other();
    }

    /// Plays a drop or a pass as the engine would; `false` (and nothing changes) when the
    /// engine would refuse it.
    pub fn play(&mut self, turn: Turn) -> bool {
        if self.finished {
            return false;
        }
        match turn {
            Turn::Pass => {
                self.pass();
                true
            }
            Turn::Drop { role, to } if self.geometry.roles.contains(&role) => {
                match self.geometry.index_of.get(to.index()) {
                    Some(&at) if at != NONE && self.legal_drop(usize::from(at), role) => {
                        self.drop_at(usize::from(at), role);
                        true
                    }
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// Every legal turn in the engine's order: drops by role, then by square; pass last.
    #[must_use]
    pub fn legal_turns(&self) -> Vec<Turn> {
        if self.finished {
            return Vec::new();
        }
        let mut turns = Vec::with_capacity(self.empties.len() * self.geometry.roles.len() + 1);
        for &role in &self.geometry.roles {
            for (at, &to) in self.geometry.squares.iter().enumerate() {
                if self.legal_drop(at, role) {
                    turns.push(Turn::Drop { role, to });
                }
            }
        }
        turns.push(Turn::Pass);
        turns
    }
}
