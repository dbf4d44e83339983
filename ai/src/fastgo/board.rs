//! The playout board itself: what stands on each square and its chain, read from the
//! engine's position, and the questions about it that need no rule (the piece on a
//! square, the side to move, board indices).

use std::sync::Arc;

use stonemate_engine::go::{Go, GoOptions};
use stonemate_engine::{Board, Color, Game, Piece, Role, Square, Turn};

use super::geometry::{EMPTY, Geometry, NONE, steps};

/// One square of a [`FastGo`] board: its piece, and the piece's chain.
#[derive(Debug, Clone, Copy)]
pub(super) struct Cell {
    /// [`EMPTY`] or the colour index of the piece.
    pub(super) color: u8,
    pub(super) role: Role,
    /// The chain's representative square, for a piece.
    pub(super) chain: u16,
    /// The next piece of the same chain (a circular list).
    pub(super) next: u16,
    /// Pieces of the chain, at its representative.
    pub(super) size: u16,
    /// Pseudo-liberties of the chain at its representative: the pairs (piece, empty step).
    /// Zero exactly when the chain has no empty step, which is all the rules ask.
    pub(super) liberties: u16,
    /// Where an empty square is in the list of empty squares.
    pub(super) empty_at: u16,
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
    pub(super) geometry: Arc<Geometry>,
    /// What stands on each square, and its chain.
    pub(super) cells: Vec<Cell>,
    /// The empty squares, in no order, and where each one is in that list.
    pub(super) empties: Vec<u16>,
    pub(super) to_move: Color,
    /// The square and role of the one drop that would bring back the board before the
    /// last turn (rule 6), if there is one.
    pub(super) ko: Option<(u16, Role)>,
    pub(super) prisoners: [u32; 2],
    pub(super) passes_in_a_row: u8,
    pub(super) finished: bool,
    /// The board index of the last turn's drop; [`NONE`] after a pass or when unknown.
    /// The heavy playouts answer it.
    pub(super) last: u16,
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

    /// The board index a drop lands on; `None` for a pass or a square off the board.
    #[must_use]
    pub fn turn_index(&self, turn: Turn) -> Option<u16> {
        match turn {
            Turn::Drop { to, .. } => self.index_of(to).map(|i| i as u16),
            _ => None,
        }
    }
}
