//! Playouts on the playout board: the light policy (random drops that never fill an own
//! eye), the heavy one (MoGo's: answer the last drop's ataris and go's 3x3 shapes), and
//! the rollouts that play either to the end.

use rand::Rng;
use stonemate_engine::{Color, Role, Square, Turn};

use super::board::FastGo;
use super::geometry::{EMPTY, NONE};

/// A playout stops after this many turns all the same (the engine-based playout's limit).
pub const MAX_PLAYOUT_TURNS: u32 = 600;

impl FastGo {
    /// The playout's eye rule (as `knowledge`'s for the engine): an empty square whose
    /// orthogonal neighbours are all the mover's, with at most one enemy diagonal
    /// neighbour (none on the edge).
    #[must_use]
    pub fn fills_own_eye(&self, square: Square, mover: Color) -> bool {
        match self.geometry.index_of.get(square.index()) {
            Some(&at) if at != NONE => self.fills_own_eye_at(usize::from(at), mover.index() as u8),
            _ => false,
        }
    }

    fn fills_own_eye_at(&self, at: usize, own: u8) -> bool {
        let near = &self.geometry.near[at];
        if self.cells[at].color != EMPTY {
            return false;
        }
        let orthogonal = &near.eye_orthogonal[..usize::from(near.eye_orthogonal_count)];
        if !orthogonal.iter().all(|&to| to != NONE && self.cells[usize::from(to)].color == own) {
            return false;
        }
        let diagonal = &near.eye_diagonal[..usize::from(near.eye_diagonal_count)];
        let enemy = diagonal.iter().filter(|&&to| self.cells[usize::from(to)].color == 1 - own).count();
        if near.eye_on_edge { enemy == 0 } else { enemy <= 1 }
    }

    /// One playout turn: a random drop on an empty square that is not the mover's own eye,
    /// tried square by square until one is legal; a pass when none is. Returns the turn
    /// played, `None` once the game is over.
    pub fn playout_step(&mut self, rng: &mut impl Rng) -> Option<Turn> {
        if self.finished {
            return None;
        }
        let own = self.to_move.index() as u8;
        let roles = self.geometry.roles.len();
        // Untried squares are kept at the front of the empty list: a square is tried by
        // swapping it behind them (the order of the list does not matter elsewhere).
        let mut untried = self.empties.len();
        while untried > 0 {
            let pick = rng.gen_range(0..untried);
            let at = usize::from(self.empties[pick]);
            untried -= 1;
            let other = self.empties[untried];
            self.empties.swap(pick, untried);
            self.cells[usize::from(other)].empty_at = pick as u16;
            self.cells[at].empty_at = untried as u16;
            if self.fills_own_eye_at(at, own) {
                continue;
            }
            let role = if roles == 1 { self.geometry.roles[0] } else { self.geometry.roles[rng.gen_range(0..roles)] };
            if self.legal_drop(at, role) {
                self.drop_at(at, role);
                return Some(Turn::Drop { role, to: self.geometry.squares[at] });
            }
        }
        self.pass();
        Some(Turn::Pass)
    }

    /// One turn of the *heavy* playout policy (MoGo's): answer the last drop when it asks
    /// for an answer, otherwise play as [`FastGo::playout_step`]. In order: capture the
    /// last drop's chain when it is in atari; save an own chain next to it that it put in
    /// atari (extend when that leaves two liberties, or capture an enemy chain in atari
    /// that touches it); play one of the empty squares around the last drop that matches
    /// a 3x3 shape of go (hane, cuts, edge blocks), unless that is a self-atari. Random
    /// among the candidates of the first step that has any. Returns the turn played,
    /// `None` once the game is over.
    pub fn heavy_playout_step(&mut self, rng: &mut impl Rng) -> Option<Turn> {
        if self.finished {
            return None;
        }
        let roles = self.geometry.roles.len();
        let role = if roles == 1 { self.geometry.roles[0] } else { self.geometry.roles[rng.gen_range(0..roles)] };
        match self.heavy_choice(role, rng) {
            Some(at) => {
                self.drop_at(at, role);
                Some(Turn::Drop { role, to: self.geometry.squares[at] })
            }
            None => self.playout_step(rng),
        }
    }

    /// The heavy policy's drop of `role` in answer to the last drop, if any (see
    /// [`FastGo::heavy_playout_step`]); always legal and never filling an own eye.
    fn heavy_choice(&self, role: Role, rng: &mut impl Rng) -> Option<usize> {
        let last = usize::from(self.last);
        if self.last == NONE || self.cells[last].color == EMPTY {
            return None;
        }
        let own = self.to_move.index() as u8;
        let mut candidates = Candidates::default();
        // The last drop in atari: take it.
        if self.cells[last].color != own {
            if let Some(liberty) = self.only_liberty(last) {
                candidates.push(liberty);
            }
        }
        // Own chains it put in atari: run, or capture around them.
        for &to in self.geometry.steps(last) {
            let to = usize::from(to);
            if self.cells[to].color != own {
                continue;
            }
            let Some(liberty) = self.only_liberty(to) else { continue };
            if self.tactics_at(usize::from(liberty)).is_some_and(|t| !t.self_atari) {
                candidates.push(liberty);
            }
            let rep = usize::from(self.cells[to].chain);
            let mut square = rep;
            loop {
                for &next in self.geometry.steps(square) {
                    let next = usize::from(next);
                    if self.cells[next].color == 1 - own {
                        if let Some(liberty) = self.only_liberty(next) {
                            candidates.push(liberty);
                        }
                    }
                }
                square = usize::from(self.cells[square].next);
                if square == rep {
                    break;
                }
            }
        }
        if let Some(at) = self.pick_candidate(&mut candidates, role, own, rng) {
            return Some(at);
        }
        if !self.geometry.patterns {
            return None;
        }
        for &at in &self.geometry.ring[last] {
            if at != NONE && self.cells[usize::from(at)].color == EMPTY && self.matches_pattern(usize::from(at)) {
                candidates.push(at);
            }
        }
        // A shape that is a self-atari is no shape: each candidate is read when drawn.
        while candidates.len > 0 {
            let at = self.pick_candidate(&mut candidates, role, own, rng)?;
            if self.tactics_at(at).is_some_and(|t| !t.self_atari) {
                return Some(at);
            }
        }
        None
    }

    /// Draws random candidates (removing them from the list) until one is legal and does
    /// not fill an own eye.
    fn pick_candidate(&self, candidates: &mut Candidates, role: Role, own: u8, rng: &mut impl Rng) -> Option<usize> {
        while candidates.len > 0 {
            let pick = rng.gen_range(0..candidates.len);
            let at = usize::from(candidates.squares[pick]);
            candidates.len -= 1;
            candidates.squares[pick] = candidates.squares[candidates.len];
            if !self.fills_own_eye_at(at, own) && self.legal_drop(at, role) {
                return Some(at);
            }
        }
        None
    }

    /// Plays a playout to the end (or [`MAX_PLAYOUT_TURNS`]) and returns White's expected
    /// result, as `knowledge::rollout` does with the engine.
    pub fn rollout(&mut self, rng: &mut impl Rng) -> f64 {
        for _ in 0..MAX_PLAYOUT_TURNS {
            if self.playout_step(rng).is_none() {
                break;
            }
        }
        self.evaluate()
    }

    /// [`FastGo::rollout`] with the heavy policy ([`FastGo::heavy_playout_step`]).
    pub fn heavy_rollout(&mut self, rng: &mut impl Rng) -> f64 {
        for _ in 0..MAX_PLAYOUT_TURNS {
            if self.heavy_playout_step(rng).is_none() {
                break;
            }
        }
        self.evaluate()
    }

    /// [`FastGo::rollout`], also noting each turn as (the mover's colour index, the board
    /// index of the drop or `None` for a pass), for all-moves-as-first statistics.
    /// With `heavy`, the turns come from [`FastGo::heavy_playout_step`].
    pub fn rollout_noting(&mut self, rng: &mut impl Rng, played: &mut Vec<(u8, Option<u16>)>, heavy: bool) -> f64 {
        for _ in 0..MAX_PLAYOUT_TURNS {
            let mover = self.to_move.index() as u8;
            let step = if heavy { self.heavy_playout_step(rng) } else { self.playout_step(rng) };
            match step {
                None => break,
                Some(turn) => played.push((mover, self.turn_index(turn))),
            }
        }
        self.evaluate()
    }
}

/// Up to 24 candidate squares of the heavy policy, without repeats.
#[derive(Debug, Default)]
struct Candidates {
    squares: [u16; 24],
    len: usize,
}

impl Candidates {
    fn push(&mut self, at: u16) {
        if self.len < self.squares.len() && !self.squares[..self.len].contains(&at) {
            self.squares[self.len] = at;
            self.len += 1;
        }
    }
}
