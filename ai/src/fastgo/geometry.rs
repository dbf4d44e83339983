//! What never changes during a game on the playout board: the squares, each square's
//! steps (the squares its pieces reach when they act like stones), the neighbours the
//! playout's eye rule looks at, and each square's 3x3 ring for go's shapes.

use stonemate_engine::catalogue::steps::{ALFIL, DABBABA, DIAGONAL, KING, KNIGHT, ORTHOGONAL};
use stonemate_engine::go::GoOptions;
use stonemate_engine::{HalfPoints, Role, Shape, Square};

/// No square: off the board, or a hole.
pub(super) const NONE: u16 = u16::MAX;
/// The colour code of an empty square (pieces use [`Color::index`]: 0 white, 1 black).
pub(super) const EMPTY: u8 = 2;

/// The steps a role's piece reaches, when they do not depend on the position.
pub(super) fn steps(role: Role, shape: &Shape) -> Option<&'static [(i32, i32)]> {
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

/// The 3x3 neighbourhood's order, `(file, rank)` offsets: the rank above, left to right,
/// then the two beside, then the rank below.
pub(super) const RING: [(i32, i32); 8] = [(-1, 1), (0, 1), (1, 1), (-1, 0), (1, 0), (-1, -1), (0, -1), (1, -1)];

/// A square's steps and the squares the playout's eye rule looks at.
#[derive(Debug, Clone, Copy)]
pub(super) struct Near {
    /// The steps, [`NONE`]-padded to 8.
    pub(super) steps: [u16; 8],
    pub(super) step_count: u8,
    /// The orthogonal neighbours on the grid (a hole as [`NONE`], which is never an own
    /// piece), and how many there are.
    pub(super) eye_orthogonal: [u16; 4],
    pub(super) eye_orthogonal_count: u8,
    /// The diagonal neighbours that exist (a hole is never an enemy piece).
    pub(super) eye_diagonal: [u16; 4],
    pub(super) eye_diagonal_count: u8,
    /// Whether a diagonal neighbour is off the grid (an edge or corner point).
    pub(super) eye_on_edge: bool,
}

/// What never changes during a game: the squares, their steps, and the eye pattern.
#[derive(Debug)]
pub(super) struct Geometry {
    /// The existing squares in the engine's order (rank, then file); a square's position
    /// here is its index on this board.
    pub(super) squares: Vec<Square>,
    /// The board index of each square of the 25x25 space, or [`NONE`].
    pub(super) index_of: Vec<u16>,
    /// Each square's neighbourhood, in one record so that a turn reads one cache line.
    pub(super) near: Vec<Near>,
    /// The set of pieces, in the engine's order.
    pub(super) roles: Vec<Role>,
    pub(super) komi: HalfPoints,
    /// The scale of the evaluation of an unfinished position (as the engine-based one).
    pub(super) scale: f64,
    /// Each square's 3x3 neighbourhood on the grid in [`RING`] order ([`NONE`] off the
    /// board or on a hole), for the playouts' patterns.
    pub(super) ring: Vec<[u16; 8]>,
    /// The most steps a square has.
    pub(super) max_steps: usize,
    /// Whether the pieces' steps are go's (orthogonal), which is what the 3x3 patterns
    /// of go mean; other sets play their heavy playouts without patterns.
    pub(super) patterns: bool,
}

impl Geometry {
    pub(super) fn new(options: &GoOptions, offsets: &[(i32, i32)]) -> Geometry {
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

    pub(super) fn steps(&self, square: usize) -> &[u16] {
        let near = &self.near[square];
        &near.steps[..usize::from(near.step_count)]
    }

    /// A copy of a square's steps and their count, for loops that change the board (a
    /// copy of 17 bytes is cheaper than sharing the geometry's reference count).
    pub(super) fn steps_copy(&self, square: usize) -> ([u16; 8], usize) {
        (self.near[square].steps, usize::from(self.near[square].step_count))
    }
}
