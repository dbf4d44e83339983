//! A go board for playouts: the rules of Go with chess pieces, incremental, for the sets
//! whose pieces act like stones.
//!
//! The engine's [`Go`] copies its board and re-checks the life of every piece after each
//! turn, which is right for every set of pieces but costs microseconds a turn. For a set
//! whose pieces all reach the same *steps* (rook and wazir: the four orthogonal
//! neighbours; bishop and ferz: the diagonal ones; queen and king: all eight; the knight,
//! and the nightrider on a board without holes: the knight's leaps; the dabbaba; the
//! alfil), rule 3 is go's: a piece is alive exactly when the group of friendly pieces
//! connected to it by those steps has an empty step somewhere. A rider's first square on a
//! ray is its step, and only a piece without an empty step needs its defences, which are
//! then its occupied steps. So this board keeps groups (chains) and their liberties
//! incrementally, as go programs do, and answers legality, captures, ko and the score
//! without copying anything.
//!
//! Sets with pieces of different steps (a rook with a knight), the pawn (whose steps point
//! one way), the Chinese knight (blocked legs) and the nightrider on a board with holes
//! (its ray passes over them) do not fit, nor does `moving=on`; [`FastGo::supports`] says
//! so and the search keeps the engine for them.
//!
//! The differential test `ai/tests/fastgo.rs` plays many random games on both boards and
//! compares them after every turn.

use std::sync::Arc;

use rand::Rng;
use stonemate_engine::go::{Go, GoOptions};
use stonemate_engine::{Board, Color, Game, HalfPoints, Outcome, Piece, Role, Score, Shape, Square, Turn};

use stonemate_engine::catalogue::steps::{ALFIL, DABBABA, DIAGONAL, KING, KNIGHT, ORTHOGONAL};

/// No square: off the board, or a hole.
const NONE: u16 = u16::MAX;
/// The colour code of an empty square (pieces use [`Color::index`]: 0 white, 1 black).
const EMPTY: u8 = 2;

/// A playout stops after this many turns all the same (the engine-based playout's limit).
pub const MAX_PLAYOUT_TURNS: u32 = 600;

/// The steps a role's piece reaches, when they do not depend on the position.
fn steps(role: Role, shape: &Shape) -> Option<&'static [(i32, i32)]> {
    match role {
        Role::Rook | Role::Wazir => Some(&ORTHOGONAL),
        Role::Bishop | Role::Ferz => Some(&DIAGONAL),
        Role::Queen | Role::King => Some(&KING),
        Role::Knight => Some(&KNIGHT),
        // A nightrider's ray passes over a hole to the next leap: not a step.
        Role::Nightrider if shape.holes().is_empty() => Some(&KNIGHT),
        Role::Dabbaba => Some(&DABBABA),
        Role::Alfil => Some(&ALFIL),
        Role::Nightrider | Role::Pawn | Role::Horse | Role::Stone => None,
    }
}

/// A square's steps and the squares the playout's eye rule looks at.
#[derive(Debug, Clone, Copy)]
struct Near {
    /// The steps, [`NONE`]-padded to 8.
    steps: [u16; 8],
    step_count: u8,
    /// The orthogonal neighbours on the grid (a hole as [`NONE`], which is never an own
    /// piece), and how many there are.
    eye_orthogonal: [u16; 4],
    eye_orthogonal_count: u8,
    /// The diagonal neighbours that exist (a hole is never an enemy piece).
    eye_diagonal: [u16; 4],
    eye_diagonal_count: u8,
    /// Whether a diagonal neighbour is off the grid (an edge or corner point).
    eye_on_edge: bool,
}

/// What never changes during a game: the squares, their steps, and the eye pattern.
#[derive(Debug)]
struct Geometry {
    /// The existing squares in the engine's order (rank, then file); a square's position
    /// here is its index on this board.
    squares: Vec<Square>,
    /// The board index of each square of the 25x25 space, or [`NONE`].
    index_of: Vec<u16>,
    /// Each square's neighbourhood, in one record so that a turn reads one cache line.
    near: Vec<Near>,
    /// The set of pieces, in the engine's order.
    roles: Vec<Role>,
    komi: HalfPoints,
    /// The scale of the evaluation of an unfinished position (as the engine-based one).
    scale: f64,
    /// Each square's 3x3 neighbourhood on the grid in [`RING`] order ([`NONE`] off the
    /// board or on a hole), for the playouts' patterns.
    ring: Vec<[u16; 8]>,
    /// The most steps a square has.
    max_steps: usize,
    /// Whether the pieces' steps are go's (orthogonal), which is what the 3x3 patterns
    /// of go mean; other sets play their heavy playouts without patterns.
    patterns: bool,
}

impl Geometry {
    fn new(options: &GoOptions, offsets: &[(i32, i32)]) -> Geometry {
        let shape = options.shape();
        let squares: Vec<Square> = shape.squares().collect();
        let mut index_of = vec![NONE; 25 * 25];
        for (i, square) in squares.iter().enumerate() {
            index_of[square.index()] = i as u16;
        }
        let at = |square: Option<Square>| square.map_or(NONE, |s| index_of[s.index()]);
        let n = squares.len();
        let mut geometry = Geometry {
            near: vec![
                Near {
                    steps: [NONE; 8],
                    step_count: 0,
                    eye_orthogonal: [NONE; 4],
                    eye_orthogonal_count: 0,
                    eye_diagonal: [NONE; 4],
                    eye_diagonal_count: 0,
                    eye_on_edge: false,
                };
                n
            ],
            roles: options.pieces.clone(),
            komi: options.komi,
            scale: (shape.square_count() as f64 / 12.0).max(2.0),
            squares: Vec::new(),
            index_of: Vec::new(),
            ring: vec![[NONE; 8]; n],
            patterns: offsets == ORTHOGONAL,
            max_steps: offsets.len(),
        };
        for (i, &square) in squares.iter().enumerate() {
            for (k, &(df, dr)) in RING.iter().enumerate() {
                geometry.ring[i][k] = at(shape.step(square, df, dr));
            }
            let near = &mut geometry.near[i];
            for &(df, dr) in offsets {
                let to = at(shape.step(square, df, dr));
                if to != NONE {
                    near.steps[usize::from(near.step_count)] = to;
                    near.step_count += 1;
                }
            }
            for (df, dr) in ORTHOGONAL {
                if let Some(next) = shape.step(square, df, dr) {
                    near.eye_orthogonal[usize::from(near.eye_orthogonal_count)] = at(Some(next));
                    near.eye_orthogonal_count += 1;
                }
            }
            for (df, dr) in DIAGONAL {
                match shape.step(square, df, dr) {
                    Some(next) => {
                        let to = at(Some(next));
                        if to != NONE {
                            near.eye_diagonal[usize::from(near.eye_diagonal_count)] = to;
                            near.eye_diagonal_count += 1;
                        }
                    }
                    None => near.eye_on_edge = true,
                }
            }
        }
        geometry.squares = squares;
        geometry.index_of = index_of;
        geometry
    }

    fn steps(&self, square: usize) -> &[u16] {
        let near = &self.near[square];
        &near.steps[..usize::from(near.step_count)]
    }

    /// A copy of a square's steps and their count, for loops that change the board (a
    /// copy of 17 bytes is cheaper than sharing the geometry's reference count).
    fn steps_copy(&self, square: usize) -> ([u16; 8], usize) {
        (self.near[square].steps, usize::from(self.near[square].step_count))
    }
}

/// One square of a [`FastGo`] board: its piece, and the piece's chain.
#[derive(Debug, Clone, Copy)]
struct Cell {
    /// [`EMPTY`] or the colour index of the piece.
    color: u8,
    role: Role,
    /// The chain's representative square, for a piece.
    chain: u16,
    /// The next piece of the same chain (a circular list).
    next: u16,
    /// Pieces of the chain, at its representative.
    size: u16,
    /// Pseudo-liberties of the chain at its representative: the pairs (piece, empty step).
    /// Zero exactly when the chain has no empty step, which is all the rules ask.
    liberties: u16,
    /// Where an empty square is in the list of empty squares.
    empty_at: u16,
}

const EMPTY_CELL: Cell =
    Cell { color: EMPTY, role: Role::Stone, chain: NONE, next: NONE, size: 0, liberties: 0, empty_at: NONE };

/// A position of Go with chess pieces for a set whose pieces act like stones (see the
/// module's notes), with incremental chains and pseudo-liberties.
///
/// It plays the same turns as the engine's [`Go`] with the same results, and scores the
/// same; it knows nothing of records, views or counting. Cloning copies a few small
/// arrays.
#[derive(Debug, Clone)]
pub struct FastGo {
    geometry: Arc<Geometry>,
    /// What stands on each square, and its chain.
    cells: Vec<Cell>,
    /// The empty squares, in no order, and where each one is in that list.
    empties: Vec<u16>,
    to_move: Color,
    /// The square and role of the one drop that would bring back the board before the
    /// last turn (rule 6), if there is one.
    ko: Option<(u16, Role)>,
    prisoners: [u32; 2],
    passes_in_a_row: u8,
    finished: bool,
    /// The board index of the last turn's drop; [`NONE`] after a pass or when unknown.
    /// The heavy playouts answer it.
    last: u16,
}

impl FastGo {
    /// Whether a game with these options can be played on this board.
    #[must_use]
    pub fn supports(options: &GoOptions) -> bool {
        Self::offsets(options).is_some()
    }

    fn offsets(options: &GoOptions) -> Option<&'static [(i32, i32)]> {
        if options.moving {
            return None;
        }
        let shape = options.shape();
        let mut roles = options.pieces.iter();
        let first = steps(*roles.next()?, &shape)?;
        roles.all(|&role| steps(role, &shape) == Some(first)).then_some(first)
    }

    /// The engine's position on this board; `None` when its set or options do not fit
    /// ([`FastGo::supports`]).
    #[must_use]
    pub fn from_go(go: &Go) -> Option<FastGo> {
        let offsets = Self::offsets(go.options())?;
        let geometry = Arc::new(Geometry::new(go.options(), offsets));
        let n = geometry.squares.len();
        let mut fast = FastGo {
            cells: vec![EMPTY_CELL; n],
            empties: Vec::with_capacity(n),
            to_move: go.to_move().unwrap_or(Color::White),
            ko: None,
            prisoners: go.prisoners(),
            passes_in_a_row: go.passes_in_a_row(),
            finished: go.to_move().is_none(),
            last: NONE,
            geometry,
        };
        let board = go.board();
        for (i, &square) in fast.geometry.squares.iter().enumerate() {
            match board.get(square) {
                Some(piece) => {
                    fast.cells[i].color = piece.color.index() as u8;
                    fast.cells[i].role = piece.role;
                }
                None => {
                    fast.cells[i].empty_at = fast.empties.len() as u16;
                    fast.empties.push(i as u16);
                }
            }
        }
        fast.build_chains();
        fast.ko = fast.ko_against(go.board_before_last_turn());
        fast.last = fast.last_drop_against(go.board_before_last_turn());
        Some(fast)
    }

    /// Groups the pieces into chains from scratch (after reading a position).
    fn build_chains(&mut self) {
        let geometry = Arc::clone(&self.geometry);
        for start in 0..self.cells.len() {
            if self.cells[start].color == EMPTY || self.cells[start].chain != NONE {
                continue;
            }
            let own = self.cells[start].color;
            let rep = start as u16;
            self.cells[start].chain = rep;
            self.cells[start].next = rep;
            self.cells[start].size = 1;
            let mut stack = vec![start];
            while let Some(square) = stack.pop() {
                for &to in geometry.steps(square) {
                    let to = usize::from(to);
                    match self.cells[to].color {
                        EMPTY => self.cells[start].liberties += 1,
                        c if c == own && self.cells[to].chain == NONE => {
                            self.cells[to].chain = rep;
                            self.cells[to].next = self.cells[start].next;
                            self.cells[start].next = to as u16;
                            self.cells[start].size += 1;
                            stack.push(to);
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    /// The ko square and role that would recreate `before`: when `before` is this board
    /// less one opponent piece (the last mover's) plus one piece of the side to move, the
    /// drop of that piece there recaptures into it, if it captures exactly that piece.
    fn ko_against(&self, before: &Board) -> Option<(u16, Role)> {
        let mut added = None;
        let mut removed = None;
        for (i, &square) in self.geometry.squares.iter().enumerate() {
            let now = self.piece(i);
            let then = before.get(square);
            if now == then {
                continue;
            }
            match (now, then) {
                (Some(piece), None) if piece.color != self.to_move && added.is_none() => added = Some(i),
                (None, Some(piece)) if piece.color == self.to_move && removed.is_none() => {
                    removed = Some((i, piece.role));
                }
                _ => return None,
            }
        }
        let (added, (square, role)) = (added?, removed?);
        let recaptures = usize::from(self.cells[usize::from(self.cells[added].chain)].size) == 1
            && self.cells[usize::from(self.cells[added].chain)].liberties == 1
            && self.geometry.steps(added).contains(&(square as u16));
        recaptures.then_some((square as u16, role))
    }

    /// The square of the last turn's drop: the one square where `before` was empty and
    /// a piece of the last mover stands now ([`NONE`] if there is not exactly one).
    fn last_drop_against(&self, before: &Board) -> u16 {
        let mut found = NONE;
        for (i, &square) in self.geometry.squares.iter().enumerate() {
            if let (Some(piece), None) = (self.piece(i), before.get(square)) {
                if piece.color == self.to_move || found != NONE {
                    return NONE;
                }
                found = i as u16;
            }
        }
        found
    }

    /// The piece on board index `i`.
    fn piece(&self, i: usize) -> Option<Piece> {
        match self.cells[i].color {
            EMPTY => None,
            c => Some(Piece::new(if c == 0 { Color::White } else { Color::Black }, self.cells[i].role)),
        }
    }

    /// The piece on `square`, if any (none off the board).
    #[must_use]
    pub fn get(&self, square: Square) -> Option<Piece> {
        match self.geometry.index_of.get(square.index()) {
            Some(&i) if i != NONE => self.piece(usize::from(i)),
            _ => None,
        }
    }

    /// The side to move; `None` once two passes have ended the game.
    #[must_use]
    pub fn to_move(&self) -> Option<Color> {
        (!self.finished).then_some(self.to_move)
    }

    /// Prisoners taken so far, `[by white, by black]`.
    #[must_use]
    pub fn prisoners(&self) -> [u32; 2] {
        self.prisoners
    }

    /// Passes played in a row just now: after one, another pass ends the game.
    #[must_use]
    pub fn passes_in_a_row(&self) -> u8 {
        self.passes_in_a_row
    }

    /// The set of pieces, in the engine's order.
    #[must_use]
    pub fn roles(&self) -> &[Role] {
        &self.geometry.roles
    }

    /// Whether the side to move may drop `role` on board index `at` (rules 1, 4-6).
    fn legal_drop(&self, at: usize, role: Role) -> bool {
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
    fn drop_at(&mut self, at: usize, role: Role) {
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

    fn pass(&mut self) {
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

    /// The one empty step of the chain through `at` when it has exactly one (atari).
    fn only_liberty(&self, at: usize) -> Option<u16> {
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

    /// Whether the empty square `at` matches one of go's 3x3 shapes (either colour to
    /// play); only meaningful for orthogonal steps.
    fn matches_pattern(&self, at: usize) -> bool {
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

    /// The board index a drop lands on; `None` for a pass or a square off the board.
    #[must_use]
    pub fn turn_index(&self, turn: Turn) -> Option<u16> {
        match turn {
            Turn::Drop { to, .. } => self.index_of(to).map(|i| i as u16),
            _ => None,
        }
    }

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

    /// The squares of the board in the engine's order (rank, then file): board index
    /// order.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.geometry.squares.iter().copied()
    }

    /// The number of squares of the board; board indices run below it.
    #[must_use]
    pub fn square_count(&self) -> usize {
        self.cells.len()
    }

    /// The board index of `square` (its place in the engine's square order), if it
    /// exists on this board.
    #[must_use]
    pub fn index_of(&self, square: Square) -> Option<usize> {
        match self.geometry.index_of.get(square.index()) {
            Some(&i) if i != NONE => Some(usize::from(i)),
            _ => None,
        }
    }

    /// What a drop of the side to move on `square` does tactically, for the search's
    /// priors; `None` unless the square is empty.
    #[must_use]
    pub fn tactics(&self, square: Square) -> Option<Tactics> {
        self.tactics_at(self.index_of(square)?)
    }

    /// Whether the empty square `at` matches one of go's 3x3 shapes around it (hane,
    /// cuts, edge blocks; either colour to play); `false` for sets whose steps are not
    /// orthogonal, and for occupied squares.
    #[must_use]
    pub fn shape_at(&self, square: Square) -> bool {
        self.index_of(square)
            .is_some_and(|at| self.geometry.patterns && self.cells[at].color == EMPTY && self.matches_pattern(at))
    }

    /// Whether `square` is on the edge of the grid (a square of its 3x3 neighbourhood is
    /// off the board; holes do not count).
    #[must_use]
    pub fn on_first_line(&self, square: Square) -> bool {
        self.index_of(square).is_some_and(|at| self.geometry.near[at].eye_on_edge)
    }

    /// [`FastGo::tactics`] by board index.
    fn tactics_at(&self, at: usize) -> Option<Tactics> {
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
}

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

/// The 3x3 neighbourhood's order, `(file, rank)` offsets: the rank above, left to right,
/// then the two beside, then the rank below.
const RING: [(i32, i32); 8] = [(-1, 1), (0, 1), (1, 1), (-1, 0), (1, 0), (-1, -1), (0, -1), (1, -1)];

/// Go's 3x3 shapes that playouts answer a drop with (the center is the drop; rows from
/// the top): `X` one colour, `O` the other, `.` empty, `x` not `X`, `o` not `O`, `#`
/// off the board, `?` anything. After the patterns of Gelly, Wang, Munos and Teytaud,
/// "Modification of UCT with patterns in Monte-Carlo Go" (2006).
const SHAPES: [&str; 14] = [
    // Hane: enclosing, non-cutting, magari, thin.
    "XOX...???",
    "XO....?.?",
    "XO?X..x.?",
    "XOO...?.?",
    // A diagonal attachment (katatsuke).
    ".O.X.....",
    // Cuts: unprotected, peeped, and the cut between two.
    "XO?O.o?o?",
    "XO?O.X???",
    "?X?O.Oooo",
    // On the edge: chase, block a side cut, block a side connection, sagari, cut.
    "X.?O.?###",
    "OX?X.O###",
    "?X?x.O###",
    "?XOx.x###",
    "?OXX.O###",
    // A knight's-move cut.
    "OX?o.O???",
];

/// Whether each 3x3 neighbourhood code (two bits per [`RING`] square: 0 empty, 1 the
/// side to move, 2 the other side, 3 off the board) matches one of [`SHAPES`] in one of
/// its 8 orientations, with either colour as `X`. Built once.
fn patterns() -> &'static [bool] {
    static TABLE: std::sync::OnceLock<Vec<bool>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec![false; 1 << 16];
        for shape in SHAPES {
            let grid: Vec<char> = shape.chars().collect();
            for swap in [false, true] {
                for orientation in 0..8 {
                    // The allowed values of each ring square under this orientation.
                    let mut allowed = [[false; 4]; 8];
                    for (k, &(dx, dy)) in RING.iter().enumerate() {
                        let (mut x, mut y) = if orientation & 1 == 1 { (dy, dx) } else { (dx, dy) };
                        if orientation & 2 == 2 {
                            x = -x;
                        }
                        if orientation & 4 == 4 {
                            y = -y;
                        }
                        let c = grid[((1 - y) * 3 + (x + 1)) as usize];
                        let c = match (swap, c) {
                            (true, 'X') => 'O',
                            (true, 'O') => 'X',
                            (true, 'x') => 'o',
                            (true, 'o') => 'x',
                            (_, c) => c,
                        };
                        allowed[k] = match c {
                            '.' => [true, false, false, false],
                            'X' => [false, true, false, false],
                            'O' => [false, false, true, false],
                            'x' => [true, false, true, false],
                            'o' => [true, true, false, false],
                            '#' => [false, false, false, true],
                            _ => [true; 4],
                        };
                    }
                    for (code, entry) in table.iter_mut().enumerate() {
                        if (0..8).all(|k| allowed[k][(code >> (2 * k)) & 3]) {
                            *entry = true;
                        }
                    }
                }
            }
        }
        table
    })
}
