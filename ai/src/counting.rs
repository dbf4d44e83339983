//! Which pieces are dead in go's counting phase (rule 10): the proposal the service opens
//! counting with ([`estimate_dead`]) and the bot's own judgement of a proposal
//! ([`judge_dead`]).
//!
//! Both read the ownership of each square at the end of seeded random games. For a set
//! whose pieces act like stones (rooks, as in go: [`FastGo::supports`]) the games are
//! played on the incremental playout board with its heavy policy (MoGo's: answer ataris,
//! play go's 3x3 shapes), many times faster than the engine's; the estimate plays
//! [`FAST_PLAYOUTS`] of them, a few hundred milliseconds on a busy 19x19 board where the
//! engine's 32 took seconds (`ai/examples/estimate_speed.rs`), and groups in seki are kept
//! alive. Other sets (a rook with a knight, pawns, the Chinese knight) keep the engine's
//! estimate, [`Go::estimate_dead`], which plays any set by the rules.
//!
//! What the bot does with its judgement (accept, propose, resume) is the service's to
//! decide, given the proposal standing when the answer comes back.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use stonemate_engine::go::{DeadPieces, Go, PLAYOUTS, dead_from_ownership, playout_ownership};
use stonemate_engine::square::MAX_SQUARES;
use stonemate_engine::{AnyGame, Color, Game, SquareSet, Turn, catalogue};

use crate::fastgo::FastGo;

/// Light playouts of the estimate on the playout board: enough for a piece's ownership to
/// be stable to a few hundredths, cheap enough for a 19x19 board to be judged in well under
/// a second.
pub const FAST_PLAYOUTS: u32 = 512;

/// Random games the bot plays to judge the dead pieces through the engine, for the sets the
/// playout board does not play (four times the engine's opening proposal).
pub const JUDGE_PLAYOUTS: u32 = 4 * PLAYOUTS;

/// The fixed seed of [`estimate_dead`]: the same position gives the same proposal.
const ESTIMATE_SEED: u64 = 0x434f_554e_5449_4e47;

/// The pieces the service proposes as dead when `game` opens counting: deterministic for a
/// position. `None` unless the game is go in its counting phase.
#[must_use]
pub fn estimate_dead(game: &AnyGame) -> Option<DeadPieces> {
    let AnyGame::Go(go) = game else { return None };
    if !go.is_counting() {
        return None;
    }
    Some(fast_dead(go, FAST_PLAYOUTS, ESTIMATE_SEED).unwrap_or_else(|| go.estimate_dead()))
}

/// The pieces the bot judges dead in `game`, seeded by `seed`; `None` unless the game is
/// go in its counting phase. Twice the proposal's playouts on the playout board (four times
/// the engine's where the set needs the engine), with the job's own seed, so that the bot
/// looks harder than the proposal it answers.
#[must_use]
pub fn judge_dead(game: &AnyGame, seed: u64) -> Option<DeadPieces> {
    let AnyGame::Go(go) = game else { return None };
    if !go.is_counting() {
        return None;
    }
    if let Some(dead) = fast_dead(go, 2 * FAST_PLAYOUTS, seed) {
        return Some(dead);
    }
    let mut by_index = vec![0.0; MAX_SQUARES];
    for (square, share) in playout_ownership(go, JUDGE_PLAYOUTS, seed) {
        by_index[square.index()] = share;
    }
    Some(dead_from_ownership(go, |square| by_index[square.index()]))
}

/// The pieces `playouts` heavy playouts on the playout board lose, less those in seki;
/// `None` when the set does not fit the playout board.
fn fast_dead(go: &Go, playouts: u32, seed: u64) -> Option<DeadPieces> {
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
    let squares: Vec<stonemate_engine::Square> = board.squares().collect();
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
/// this position, indexed by [`Square::index`](stonemate_engine::Square::index): Black's
/// games minus White's, over the games (from -1, surely White's, to 1, surely Black's), on
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
    squares: Vec<stonemate_engine::Square>,
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

#[cfg(test)]
mod tests {
    use stonemate_engine::GameKind;

    use super::*;

    /// A 5x5 board split by two walls, Black's on the c-file and White's on the d-file;
    /// White's lone piece at a3 sits in Black's area next to Black's a2 and b3, with a4
    /// its last empty neighbour; then both pass.
    fn counting_game() -> AnyGame {
        let options = [("board", "5x5"), ("counting", "on")].map(|(k, v)| (k.to_owned(), v.to_owned()));
        let mut game = AnyGame::new(GameKind::Go, &options).expect("options");
        for turn in
            ["c1", "d1", "c2", "d2", "c3", "d3", "c4", "d4", "c5", "d5", "b3", "pass", "a2", "a3", "pass", "pass"]
        {
            game.play_text(turn).expect(turn);
        }
        game
    }

    #[test]
    fn only_a_counting_go_game_is_judged() {
        assert!(judge_dead(&AnyGame::new(GameKind::Go, &[]).expect("default"), 1).is_none());
        assert!(estimate_dead(&AnyGame::new(GameKind::Go, &[]).expect("default")).is_none());
        let judged = judge_dead(&counting_game(), 1).expect("counting");
        assert_eq!(judged, DeadPieces::new(["a3".parse().expect("a square")]));
        assert_eq!(estimate_dead(&counting_game()), Some(judged));
    }
}
