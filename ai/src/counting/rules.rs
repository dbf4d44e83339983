//! Ownership from random games played by the engine's rules on its own board: slow, but
//! right for every set of pieces, so the estimate of the dead pieces for the sets the
//! playout board does not play (a rook with a knight, pawns, the Chinese knight).
//!
//! Random games follow the rules exactly, so the estimate works for every set of pieces,
//! not only rooks; they are seeded, so the same position always gives the same estimate.
//!
//! Limits: random play is not good play. A group whose life depends on a precise answer (a
//! semeai, a ko, a seki, an eye that random play destroys) may be judged wrongly either
//! way, and a large weak group whose capture needs many exact turns may be judged alive.
//! The players correct a wrong proposal with `/dead` or by resuming play.

use stonemate_engine::go::{DeadPieces, Go};
use stonemate_engine::square::MAX_SQUARES;
use stonemate_engine::{Board, Color, Game, Role, Square, SquareSet, Turn, catalogue};

use super::dead::dead_from_ownership;

/// Random games the estimate plays by the rules: enough for clear cases to be stable, few
/// enough for a 19x19 board to be judged within a second or two.
pub const RULES_PLAYOUTS: u32 = 32;

/// The pieces that `playouts` random games by the rules, seeded by `seed`, lose more often
/// than keep.
pub(super) fn rules_dead(go: &Go, playouts: u32, seed: u64) -> DeadPieces {
    let ownership = rules_ownership(go, playouts, seed);
    dead_from_ownership(go, |square| ownership[square.index()])
}

/// Who owns each square of the board at the end of `playouts` random games by the rules
/// from this position, indexed by [`Square::index`]: Black's wins of the square minus
/// White's, divided by the games (from -1, surely White's, to 1, surely Black's; a piece
/// owns its square, an empty square is owned by rule 8). Seeded by `seed`.
///
/// A random game takes a group left with one empty move when it can, or saves its own
/// group left with one (a drop there that leaves it more), and otherwise drops a
/// random piece of the set on a random empty square, never into the mover's own eye (a
/// square all of whose moves for that piece land on his own pieces) and never leaving his
/// own group with one empty move unless the drop captures; it passes when no such drop is
/// legal, and two passes in a row end it. (Pure random play let walls around large areas
/// die in a third of the games.)
#[must_use]
pub fn rules_ownership(go: &Go, playouts: u32, seed: u64) -> Vec<f64> {
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
        for (square, owner) in game.owner().unwrap_or_default() {
            totals[square.index()] += owner.map_or(0, sign);
        }
    }
    let games = f64::from(playouts.max(1));
    let mut ownership = vec![0.0; MAX_SQUARES];
    for square in squares {
        ownership[square.index()] = f64::from(totals[square.index()]) / games;
    }
    ownership
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

/// SplitMix64 (Steele, Lea and Flood, 2014): a small, well-known seeded generator. These
/// games were measured and pinned (the tests against GNU Go's dead stones) with it, when
/// they lived in the engine, which takes no dependency for randomness; keeping it keeps
/// every estimate as it was.
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
