//! An estimate of which pieces are dead, for the proposal the service makes when counting
//! opens (rule 10: "proposed by the engine's estimate"). The service asks the ai's playout
//! board instead for the sets it plays (`stonemate_ai::counting`: the same reading of
//! ownership, some thirty times faster on 19x19); this estimate serves every set.
//!
//! The estimate plays random games to the end from the position and looks at who owns each
//! square at the end of each: a piece is judged dead when its opponent ends up owning its
//! square in more of them than its own side does. Random games follow the rules exactly, so the
//! estimate works for every set of pieces, not only rooks; they are seeded, so the same
//! position always gives the same estimate.
//!
//! Limits: random play is not good play. A group whose life depends on a precise answer (a
//! semeai, a ko, a seki, an eye that random play destroys) may be judged wrongly either
//! way, and a large weak group whose capture needs many exact turns may be judged alive.
//! The players correct a wrong proposal with `/dead` or by resuming play; a stronger
//! judge (such as the search's ownership) can feed [`dead_from_ownership`] instead.

use super::{DeadPieces, Go, controlled};
use crate::board::Board;
use crate::catalogue;
use crate::game::Game;
use crate::piece::Role;
use crate::square::{Color, MAX_SQUARES, Square, SquareSet};
use crate::turn::Turn;

/// Random games the estimate plays by default: enough for clear cases to be stable, few
/// enough for a 19x19 board to be judged within a second.
pub const PLAYOUTS: u32 = 32;

/// The fixed seed of [`Go::estimate_dead`]: the same position gives the same estimate.
const SEED: u64 = 0x5354_4f4e_454d_4154;

/// A piece is dead when its ownership leans towards its opponent by more than this (on the
/// scale of [`playout_ownership`], -1 to 1): when the opponent owns its square at the end
/// of more random games than its own side does.
///
/// Counting opens once both players have passed, so what is alive is settled and leans to
/// its own side clearly; a dead piece often leans to its opponent by less than the half
/// this once asked for. Against GNU Go's dead stones in 342 games it passed out against
/// itself (4x4 to 13x13, `ai/examples/dead_vs_gnugo.rs`; 210 of them with dead stones),
/// the engine's estimate got 56 games wrong with 0.5 and 12 with 0 (of those 12, two
/// called a living stone dead); the service's heavy playouts 27 and 8.
const DEAD_BEYOND: f64 = 0.0;

impl Go {
    /// The pieces the engine judges dead, to propose in the counting phase: the pieces that
    /// random games from this position, seeded by a constant, lose more often than keep. Deterministic;
    /// see the module's notes for its limits.
    #[must_use]
    pub fn estimate_dead(&self) -> DeadPieces {
        let mut by_index = vec![0.0; MAX_SQUARES];
        for (square, share) in playout_ownership(self, PLAYOUTS, SEED) {
            by_index[square.index()] = share;
        }
        dead_from_ownership(self, |square| by_index[square.index()])
    }
}

/// The pieces on the board whose square `ownership` gives to their opponent: a black piece
/// where ownership is below 0, a white one where it is above 0. `ownership` runs from
/// -1 (surely White's) to 1 (surely Black's), whoever computes it: [`playout_ownership`]
/// here, or a search's ownership map.
pub fn dead_from_ownership(go: &Go, ownership: impl Fn(Square) -> f64) -> DeadPieces {
    let leans_to_opponent = |square: Square, color: Color| {
        let share = ownership(square);
        match color {
            Color::Black => share < -DEAD_BEYOND,
            Color::White => share > DEAD_BEYOND,
        }
    };
    DeadPieces::new(
        go.board().pieces().filter(|&(square, piece)| leans_to_opponent(square, piece.color)).map(|(square, _)| square),
    )
}

/// Who owns each square of the board at the end of `playouts` random games from this
/// position: Black's wins of the square minus White's, divided by the games (from -1 to 1;
/// a piece owns its square, an empty square is owned by rule 8). Seeded by `seed`.
///
/// A random game takes a group left with one empty move when it can, or saves its own
/// group left with one (a drop there that leaves it more), and otherwise drops a
/// random piece of the set on a random empty square, never into the mover's own eye (a
/// square all of whose moves for that piece land on his own pieces) and never leaving his
/// own group with one empty move unless the drop captures; it passes when no such drop is
/// legal, and two passes in a row end it. (Pure random play let walls around large areas
/// die in a third of the games.)
#[must_use]
pub fn playout_ownership(go: &Go, playouts: u32, seed: u64) -> Vec<(Square, f64)> {
    let squares: Vec<Square> = go.board().shape().squares().collect();
    // Indexed by `Square::index`, so that adding up a game is one pass.
    let mut totals = vec![0_i32; MAX_SQUARES];
    let max_turns = 3 * squares.len() + 20;
    let sign = |color: Color| if color == Color::Black { 1 } else { -1 };
    for index in 0..playouts {
        let mut rng = SplitMix64(seed ^ u64::from(index).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut game = go.clone();
        play_out(&mut game, max_turns, &mut rng);
        for (square, piece) in game.board().pieces() {
            totals[square.index()] += sign(piece.color);
        }
        for (square, owner) in controlled(game.board()) {
            totals[square.index()] += owner.map_or(0, sign);
        }
    }
    let games = f64::from(playouts.max(1));
    squares.into_iter().map(|square| (square, f64::from(totals[square.index()]) / games)).collect()
}

/// Plays random drops (or passes) until two passes in a row or `max_turns`.
fn play_out(game: &mut Go, max_turns: usize, rng: &mut SplitMix64) {
    let mut passes = 0;
    for _ in 0..max_turns {
        if passes >= 2 {
            break;
        }
        if random_drop(game, rng) {
            passes = 0;
        } else {
            // Refused only once the game is over, which ends the playout as well.
            let _ = game.play(Turn::Pass);
            passes += 1;
        }
    }
}

/// Plays one random legal drop that neither fills the mover's own eye nor puts his own
/// group in atari without capturing; `false` if there is none.
fn random_drop(game: &mut Go, rng: &mut SplitMix64) -> bool {
    let Some(mover) = game.to_move() else { return false };
    let roles = game.options().pieces.clone();
    // Captures first: a drop on the last empty square of an opponent group takes it; then
    // the last empty square of an own group, which gives it more (an atari answered).
    let mut captures = last_liberties(game.board(), mover);
    let board = game.board();
    let mut empty: Vec<Square> = board.shape().squares().filter(|&square| board.get(square).is_none()).collect();
    while !empty.is_empty() || !captures.is_empty() {
        let square = match captures.pop() {
            Some(square) => square,
            None => empty.swap_remove(rng.below(empty.len())),
        };
        let role = roles[rng.below(roles.len())];
        if fills_own_eye(game, square, role, mover) {
            continue;
        }
        let mut after = game.clone();
        if after.play(Turn::Drop { role, to: square }).is_err() {
            continue;
        }
        let captured = after.prisoners()[mover.index()] > game.prisoners()[mover.index()];
        if captured || !in_atari(after.board(), square) {
            *game = after;
            return true;
        }
    }
    false
}

/// The squares that are the single empty move left to a group: those of `mover`'s own
/// groups first, then his opponent's (which are taken first: the caller pops from the end).
/// One flood of the board finds both.
fn last_liberties(board: &Board, mover: Color) -> Vec<Square> {
    let mut seen = SquareSet::EMPTY;
    let (mut own, mut theirs) = (Vec::new(), Vec::new());
    for start in board.occupied().iter() {
        if seen.contains(start) {
            continue;
        }
        let (group, liberties) = group_of(board, start, usize::MAX);
        for square in group.iter() {
            seen.insert(square);
        }
        if liberties.len() == 1 {
            let found = if board.get(start).is_some_and(|piece| piece.color == mover) { &mut own } else { &mut theirs };
            found.extend(liberties.iter());
        }
    }
    own.append(&mut theirs);
    own
}

/// The group of the piece on `start` (what its pieces defend, transitively: rule 3) and the
/// empty squares its pieces can move to, the search stopping once more than `enough` are found.
///
/// Only a defence that crosses no empty square joins the group (a rook's next square, a
/// knight's leap): one across an empty square (a rook's over a gap, a Chinese knight's over
/// its empty leg) is cut when the opponent drops there, so it cannot keep the group out of
/// atari. Counting it made two groups with one empty move each look like one with two, and
/// random games then filled their own last empty move: on small boards, where rooks see
/// across the gaps in every wall, a seki or a living group was thrown away in most games.
fn group_of(board: &Board, start: Square, enough: usize) -> (SquareSet, SquareSet) {
    let mut group = SquareSet::EMPTY;
    let mut liberties = SquareSet::EMPTY;
    let Some(piece) = board.get(start) else { return (group, liberties) };
    let color = piece.color;
    let mut queue = vec![start];
    group.insert(start);
    while let Some(from) = queue.pop() {
        board.for_each_move(from, |to| {
            if board.get(to).is_none() {
                liberties.insert(to);
            }
        });
        let Some(role) = board.get(from).map(|piece| piece.role) else { continue };
        // Every square taken: each piece's moves stop at its first step.
        catalogue::for_each_move(role, color, from, board.shape(), &SquareSet::ALL, |to| {
            if board.get(to).is_some_and(|piece| piece.color == color) && !group.contains(to) {
                group.insert(to);
                queue.push(to);
            }
        });
        if liberties.len() > enough {
            break;
        }
    }
    (group, liberties)
}

/// Whether the group of the piece on `start` has a single empty square left to move to.
/// The group is what its pieces defend, transitively (rule 3); random games that walk into
/// atari throw away groups that any player would keep, which blurs the estimate.
fn in_atari(board: &Board, start: Square) -> bool {
    group_of(board, start, 1).1.len() == 1
}

/// Whether every move a piece of `role` dropped on `square` would have lands on a piece of
/// `mover`: the square is then his eye, and filling it only throws away a liberty.
fn fills_own_eye(game: &Go, square: Square, role: Role, mover: Color) -> bool {
    let board = game.board();
    let (mut moves, mut own) = (0, 0);
    catalogue::for_each_move(role, mover, square, board.shape(), board.occupied(), |to| {
        moves += 1;
        own += usize::from(board.get(to).is_some_and(|piece| piece.color == mover));
    });
    moves > 0 && moves == own
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a small, well-known seeded generator. The
/// engine takes no dependency for randomness (it stays pure and light), and the estimate
/// needs only reproducible, evenly spread choices.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound` > 0); the bias of the modulo is negligible here.
    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}
