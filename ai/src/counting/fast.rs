//! Ownership from heavy playouts on the ai's playout board ([`FastGo`]), for the sets
//! whose pieces act like stones: the same reading of the games as by the rules, many times
//! faster, and groups in seki kept alive.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use stonemate_engine::go::{DeadPieces, Go};
use stonemate_engine::square::MAX_SQUARES;
use stonemate_engine::{Color, Game, Square, SquareSet, Turn, catalogue};

use super::dead::dead_from_ownership;
use crate::fastgo::FastGo;

/// The pieces `playouts` heavy playouts on the playout board lose, less those in seki;
/// `None` when the set does not fit the playout board.
pub(super) fn fast_dead(go: &Go, playouts: u32, seed: u64) -> Option<DeadPieces> {
    let ownership = fast_ownership(go, playouts, seed)?;
    let dead = dead_from_ownership(go, |square| ownership[square.index()]);
    without_seki(go, dead)
}

/// `dead` less its groups in seki: a group with two empty moves or more, each of which
/// its opponent cannot take without putting his own group in atari (and capturing
/// nothing). Random games break a seki, whoever fills a shared empty square first losing,
/// so its pieces lean to whoever won that race; GNU Go counts none of them dead, and
/// neither player can take them, so neither does the estimate.
fn without_seki(go: &Go, dead: DeadPieces) -> Option<DeadPieces> {
    let board = FastGo::from_go(go)?;
    let squares: Vec<Square> = board.squares().collect();
    // The board with the other side to move (after a pass), for that side's tactics.
    let mut other = board.clone();
    other.play(Turn::Pass);
    let dead_at: Vec<bool> = {
        let mut at = vec![false; squares.len()];
        for square in dead.squares() {
            if let Some(i) = board.index_of(square) {
                at[i] = true;
            }
        }
        at
    };
    let mut keep = vec![false; squares.len()];
    let mut seen = vec![false; squares.len()];
    for start in 0..squares.len() {
        if !dead_at[start] || seen[start] {
            continue;
        }
        let Some(piece) = board.get(squares[start]) else { continue };
        // The board keeps its chains: the group and its empty steps are read, not searched.
        let Some((group, liberties)) = board.chain_at(start) else { continue };
        for &i in &group {
            seen[i] = true;
        }
        let attacker = if board.to_move() == Some(piece.color) { &other } else { &board };
        let unapproachable =
            |i: &usize| attacker.tactics(squares[*i]).is_some_and(|tactics| tactics.self_atari && !tactics.captures);
        if liberties.len() >= 2 && liberties.iter().all(unapproachable) {
            for i in group {
                keep[i] = true;
            }
        }
    }
    Some(DeadPieces::new(dead.squares().filter(|&square| board.index_of(square).is_none_or(|i| !keep[i]))))
}

/// Who owns each square at the end of `playouts` heavy playouts on the playout board from
/// this position, indexed by [`Square::index`]: Black's games minus White's, over the games (from -1, surely White's, to 1, surely Black's), on
/// the scale [`dead_from_ownership`] reads. A piece owns its square; an empty square
/// belongs to the side whose pieces alone border its empty region (rule 8, which for these
/// sets is go's area). `None` when the set does not fit the playout board.
#[must_use]
pub fn fast_ownership(go: &Go, playouts: u32, seed: u64) -> Option<Vec<f64>> {
    let start = FastGo::from_go(go)?;
    let steps = Steps::of(go)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut totals = vec![0_i32; start.square_count()];
    let mut owners = vec![0_i8; start.square_count()];
    for _ in 0..playouts {
        let mut game = start.clone();
        game.heavy_rollout(&mut rng);
        steps.owners(&game, &mut owners);
        for (total, &owner) in totals.iter_mut().zip(&owners) {
            *total += i32::from(owner);
        }
    }
    let games = f64::from(playouts.max(1));
    let mut ownership = vec![0.0; MAX_SQUARES];
    for (square, total) in start.squares().zip(totals) {
        ownership[square.index()] = f64::from(total) / games;
    }
    Some(ownership)
}

/// The squares each square's pieces step to, by board index of the playout board: for the
/// sets it plays, one piece's moves on a full board (the first square of each ray), the
/// same for every piece of the set and both colours.
struct Steps {
    /// The squares of the board in board index order.
    squares: Vec<Square>,
    /// Each square's steps, as board indices.
    steps: Vec<Vec<usize>>,
}

impl Steps {
    fn of(go: &Go) -> Option<Steps> {
        let role = *go.options().pieces.first()?;
        let shape = go.board().shape();
        let squares: Vec<_> = shape.squares().collect();
        let mut index_of = vec![usize::MAX; MAX_SQUARES];
        for (i, square) in squares.iter().enumerate() {
            index_of[square.index()] = i;
        }
        let steps = squares
            .iter()
            .map(|&from| {
                let mut to = Vec::new();
                catalogue::for_each_move(role, Color::White, from, shape, &SquareSet::ALL, |square| {
                    if index_of[square.index()] != usize::MAX {
                        to.push(index_of[square.index()]);
                    }
                });
                to
            })
            .collect();
        Some(Steps { squares, steps })
    }

    /// Fills `owners` (by board index) with 1 for a square Black owns on `game`'s board, -1
    /// for White's, 0 for neither: pieces own their squares, and an empty region (empty
    /// squares joined by steps) belongs to the only colour that borders it.
    fn owners(&self, game: &FastGo, owners: &mut [i8]) {
        const UNSEEN: i8 = i8::MIN;
        let sign = |color: Color| if color == Color::Black { 1 } else { -1 };
        for (owner, &square) in owners.iter_mut().zip(&self.squares) {
            *owner = game.get(square).map_or(UNSEEN, |piece| sign(piece.color));
        }
        let mut region = Vec::new();
        let mut stack = Vec::new();
        for start in 0..owners.len() {
            if owners[start] != UNSEEN {
                continue;
            }
            // Marked as seen (neither side's) while flooding; set to the owner after.
            owners[start] = 0;
            stack.push(start);
            let mut borders = [false; 2];
            while let Some(at) = stack.pop() {
                region.push(at);
                for &to in &self.steps[at] {
                    match owners[to] {
                        UNSEEN => {
                            owners[to] = 0;
                            stack.push(to);
                        }
                        // A step from an empty square lands in its own region (0) or on a
                        // piece (±1): other regions are not steps away.
                        1 => borders[1] = true,
                        -1 => borders[0] = true,
                        _ => {}
                    }
                }
            }
            let owner = match borders {
                [true, false] => -1,
                [false, true] => 1,
                _ => 0,
            };
            for at in region.drain(..) {
                owners[at] = owner;
            }
        }
    }
}
