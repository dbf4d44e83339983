//! An alpha-beta searcher for Chogo: iterative deepening, principal variation search, a
//! quiescence search on the turns that can capture, killer turns and a history table,
//! and an evaluation of material, traps, pieces short of empty neighbours, king safety
//! and mobility.
//!
//! Chogo is tactical like iChess: a capture is one turn that fills the last empty cell
//! next to an enemy piece already touching one of ours, and the game ends with the king's
//! capture. The Monte Carlo search that scored every node by the evaluation at once (hard's
//! search of session 9) won only 62% against the plain UCT baseline: it averages where
//! the game wants the minimum, and has no plan once no capture is near. Alpha-beta with
//! iChess's recipe reads the same tactics exactly and picks the best plan the evaluation
//! sees. It works on the engine's own [`Chogo`] (cloned for each turn), so it plays by
//! exactly the engine's rules.
//!
//! A finished game scores by its outcome: a win `MATE - ply` (the sooner the better), a
//! draw (the 50-turn rule included) 0. The side that is ahead is urged to capture before
//! the 50-turn rule: the evaluation shrinks as the turns without a capture add up.

use std::time::Instant;

use stonemate_engine::chogo::Chogo;
use stonemate_engine::{Board, Color, Game, Outcome, Role, Square, Status, Turn};

use crate::deepening::{Deepen, Killers, Limits, MATE, Root, Window, deepen};
use crate::search::result::SearchResult;

/// The deepest the search goes (plies from the root, quiescence included).
const MAX_PLY: usize = 64;
/// Plies of quiescence (capturing turns only) after the full-width search.
const QUIESCENCE_PLIES: usize = 4;
/// A forced turn is still searched this many nodes, for its value.
const FORCED_TURN_NODES: u64 = 2_000;
/// A soldier on the board.
const SOLDIER: i32 = 100;
/// A trapped piece cannot move by itself (rule 6).
const TRAPPED: i32 = 25;
/// A piece with one empty neighbour left and an enemy beside it: one enemy turn into that
/// cell takes it.
const SHORT_OF_AIR: i32 = 20;
/// Each enemy piece next to a king.
const KING_ENEMY: i32 = 60;
/// A king with at most one empty neighbour.
const KING_HEMMED: i32 = 60;
/// Each empty cell a piece can slide or step to.
const MOBILITY: i32 = 2;
/// The turns without a capture over which the evaluation shrinks to nothing (ruling H3's
/// draw comes at 50).
const QUIET_HORIZON: i32 = 60;
/// The evaluation's units per unit of the logistic that turns a score into the expected
/// result the bot's decisions read (300: a soldier up is about 0.58).
const VALUE_SCALE: f64 = 300.0;
/// The directions of rule 5, as (file, rank) steps.
const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// The history table's squares (the coordinate space's indices).
const SQUARES: usize = 25 * 25;

/// The cell a turn moves its (leading) piece to.
fn target(turn: Turn) -> Option<Square> {
    match turn {
        Turn::Drop { to, .. } | Turn::Move { to, .. } | Turn::Tandem { to, .. } | Turn::Relocate { to, .. } => Some(to),
        Turn::Pass => None,
    }
}

/// The neighbours of `square` on the board.
fn neighbours(board: &Board, square: Square) -> impl Iterator<Item = Square> + '_ {
    DIRECTIONS.iter().filter_map(move |&(df, dr)| board.shape().step(square, df, dr))
}

/// The cells where a piece of `mover` would capture: the only empty neighbour of an enemy
/// piece that already has one of `mover`'s pieces beside it (rule 9), marked 2 when the
/// enemy piece is the king and 1 otherwise; indexed by [`Square::index`].
fn capture_cells(board: &Board, mover: Color) -> Vec<u8> {
    let mut cells = vec![0u8; SQUARES];
    for (square, piece) in board.pieces() {
        if piece.color == mover {
            continue;
        }
        let mut empty = None;
        let mut empties = 0;
        let mut ours = 0;
        for next in neighbours(board, square) {
            match board.get(next) {
                None if board.is_empty_square(next) => {
                    empties += 1;
                    empty = Some(next);
                }
                Some(other) if other.color == mover => ours += 1,
                _ => {}
            }
        }
        if let (1, Some(cell)) = (empties, empty)
            && ours >= 1
        {
            let mark = if piece.role == Role::King { 2 } else { 1 };
            cells[cell.index()] = cells[cell.index()].max(mark);
        }
    }
    cells
}

/// The position's worth for White, in hundredths of a soldier (before the 50-turn scaling).
fn balance(chogo: &Chogo) -> i32 {
    let board = chogo.board();
    let mut score = 0;
    for (square, piece) in board.pieces() {
        let mut worth = 0;
        let mut empties = 0;
        let mut enemies = 0;
        for next in neighbours(board, square) {
            match board.get(next) {
                None if board.is_empty_square(next) => empties += 1,
                Some(other) if other.color != piece.color => enemies += 1,
                _ => {}
            }
        }
        if piece.role == Role::King {
            worth -= KING_ENEMY * enemies;
            if empties <= 1 {
                worth -= KING_HEMMED;
            }
            worth += MOBILITY * empties;
        } else {
            worth += SOLDIER;
            if chogo.is_trapped(square) {
                worth -= TRAPPED;
            } else {
                let mut reach = 0;
                for &(df, dr) in &DIRECTIONS {
                    let mut at = square;
                    while let Some(next) = board.shape().step(at, df, dr).filter(|&s| board.is_empty_square(s)) {
                        reach += 1;
                        at = next;
                    }
                }
                worth += MOBILITY * reach;
            }
            if empties == 1 && enemies >= 1 {
                worth -= SHORT_OF_AIR;
            }
        }
        score += if piece.color == Color::White { worth } else { -worth };
    }
    score
}

/// The evaluation for `side`: the balance, shrinking as the turns without a capture near
/// the 50-turn draw (so that the side ahead captures while it can).
fn evaluate(chogo: &Chogo, side: Color) -> i32 {
    let white = balance(chogo);
    let quiet = i32::try_from(chogo.quiet_turns()).unwrap_or(QUIET_HORIZON).min(QUIET_HORIZON);
    let scaled = white * (QUIET_HORIZON - quiet) / QUIET_HORIZON;
    if side == Color::White { scaled } else { -scaled }
}

struct Searcher {
    killers: Killers<Turn>,
    /// `[colour][target cell]`: how often a turn to that cell cut the search off.
    history: Vec<i32>,
    nodes: u64,
    limits: Limits,
    stopped: bool,
}

impl Searcher {
    /// Counts a node, unless the budget is spent (then the search stops): the search
    /// makes at most the budget's nodes.
    fn visit(&mut self) -> bool {
        if self.stopped || self.nodes >= self.limits.nodes || (self.nodes % 128 == 0 && self.limits.past_deadline()) {
            self.stopped = true;
            return false;
        }
        self.nodes += 1;
        true
    }

    /// Sorts `turns` best first: king captures, captures, the killers, then by history,
    /// turns next to enemy pieces before the rest.
    fn order(&self, chogo: &Chogo, turns: &mut [Turn], ply: usize) {
        let board = chogo.board();
        let mover = chogo.to_move().unwrap_or(Color::White);
        let captures = capture_cells(board, mover);
        let killers = self.killers.at(ply);
        turns.sort_by_cached_key(|&turn| {
            let Some(to) = target(turn) else { return 0 };
            let mark = captures[to.index()];
            let key = if mark == 2 {
                4_000_000
            } else if mark == 1 {
                3_000_000
            } else if killers.contains(&Some(turn)) {
                2_000_000
            } else {
                let near = neighbours(board, to).any(|n| board.get(n).is_some_and(|p| p.color != mover));
                i32::from(near) * 1_000 + self.history[mover.index() * SQUARES + to.index()].min(999)
            };
            -key
        });
    }

    /// The score of a finished game for `side`, `None` while it goes on.
    fn ended(chogo: &Chogo, side: Color, ply: usize) -> Option<i32> {
        let Status::Finished(ending) = chogo.status() else { return None };
        let ply = i32::try_from(ply).unwrap_or(0);
        Some(match ending.outcome {
            Outcome::Winner(winner) if winner == side => MATE - ply,
            Outcome::Winner(_) => -MATE + ply,
            Outcome::Draw => 0,
        })
    }

    fn alpha_beta(&mut self, chogo: &Chogo, side: Color, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if !self.visit() {
            return 0;
        }
        if let Some(score) = Self::ended(chogo, side, ply) {
            return score;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiescence(chogo, side, alpha, beta, ply, 0);
        }
        let mut turns = chogo.legal_turns();
        self.order(chogo, &mut turns, ply);
        let mut window = Window { alpha, beta, best: -MATE - 1 };
        for (n, &turn) in turns.iter().enumerate() {
            let mut next = chogo.clone();
            if next.play(turn).is_err() {
                continue;
            }
            let alpha = window.alpha;
            let score = if n == 0 {
                -self.alpha_beta(&next, side.other(), depth - 1, -beta, -alpha, ply + 1)
            } else {
                let probe = -self.alpha_beta(&next, side.other(), depth - 1, -alpha - 1, -alpha, ply + 1);
                if probe > alpha && probe < beta && !self.stopped {
                    -self.alpha_beta(&next, side.other(), depth - 1, -beta, -alpha, ply + 1)
                } else {
                    probe
                }
            };
            if self.stopped {
                return 0;
            }
            if window.raise(score) {
                self.killers.remember(ply, turn);
                if let Some(to) = target(turn) {
                    self.history[side.index() * SQUARES + to.index()] += depth * depth;
                }
                break;
            }
        }
        window.best
    }

    /// Stand pat, or a turn that captures (by [`capture_cells`]), for a few plies.
    fn quiescence(&mut self, chogo: &Chogo, side: Color, alpha: i32, beta: i32, ply: usize, depth: usize) -> i32 {
        let stand = evaluate(chogo, side);
        if stand >= beta || depth >= QUIESCENCE_PLIES || ply >= MAX_PLY {
            return stand;
        }
        let captures = capture_cells(chogo.board(), side);
        if captures.iter().all(|&c| c == 0) {
            return stand;
        }
        let mut turns: Vec<Turn> = chogo
            .legal_turns()
            .into_iter()
            .filter(|&turn| target(turn).is_some_and(|to| captures[to.index()] > 0))
            .collect();
        turns.sort_by_key(|&turn| std::cmp::Reverse(target(turn).map_or(0, |to| captures[to.index()])));
        let mut window = Window { alpha: alpha.max(stand), beta, best: stand };
        for turn in turns {
            if !self.visit() {
                return 0;
            }
            let mut next = chogo.clone();
            if next.play(turn).is_err() {
                continue;
            }
            let score = match Self::ended(&next, side, ply + 1) {
                Some(score) => score,
                None => -self.quiescence(&next, side.other(), -beta, -window.alpha, ply + 1, depth + 1),
            };
            if self.stopped {
                return 0;
            }
            if window.raise(score) {
                break;
            }
        }
        window.best
    }
}

impl Deepen for Searcher {
    /// The position after a root turn, and its side to move.
    type Child = (Chogo, Color);

    fn score(&mut self, (child, side): &(Chogo, Color), depth: i32, alpha: i32, beta: i32) -> i32 {
        -self.alpha_beta(child, *side, depth, -beta, -alpha, 1)
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }

    fn stopped(&self) -> bool {
        self.stopped
    }
}

/// Searches a Chogo game by iterative deepening until the limits; `None` when the game is
/// over. The result's root lists every legal turn with the nodes spent on it (as
/// "visits") and its last score as a value; only the chosen turn's is exact.
pub(crate) fn search(game: &Chogo, limits: Limits, started: Instant) -> Option<SearchResult> {
    let side = game.to_move()?;
    let mut turns = game.legal_turns();
    if turns.is_empty() {
        return None;
    }
    let forced = turns.len() == 1;
    let limits = if forced { limits.capped(FORCED_TURN_NODES) } else { limits };
    let mut searcher =
        Searcher { killers: Killers::new(MAX_PLY), history: vec![0; 2 * SQUARES], nodes: 0, limits, stopped: false };
    // The engine's order stays the result's order; `order` is the search's.
    let listed = turns.clone();
    searcher.order(game, &mut turns, 0);
    let order = turns.iter().map(|turn| listed.iter().position(|t| t == turn).unwrap_or(0)).collect();
    let children = listed
        .iter()
        .map(|&turn| {
            let mut next = game.clone();
            next.play(turn).is_ok().then_some((next, side.other()))
        })
        .collect();
    let root =
        Root { children, order, guess: evaluate(game, side), max_depth: MAX_PLY as i32 / 2, one_iteration: forced };
    let deepened = deepen(&mut searcher, root);
    Some(crate::deepening::result(&listed, deepened, VALUE_SCALE, searcher.nodes, started))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position from board strings (top rank first), White to move.
    fn setup(rows: &[&str]) -> Chogo {
        Chogo::from_setup(rows, Color::White).expect("a valid set-up")
    }

    #[test]
    fn a_capture_cell_is_the_last_empty_neighbour_of_an_enemy_piece_touching_ours() {
        // Green's soldier on a4 has White's on b4 and a3 beside it and a5 empty: White
        // takes it on a5. White's soldier on a3 (a2 is missing) has Green's on a4 beside
        // it and b3 empty: Green takes it on b3. The kings have room.
        let game = setup(&["--....--", "-......-", "........", "sS..k...", "S......K", "-......-", "--....--"]);
        let marked = |color| {
            let cells = capture_cells(game.board(), color);
            (0..SQUARES)
                .filter(|&i| cells[i] > 0)
                .filter_map(Square::from_index)
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(marked(Color::White), ["a5"]);
        assert_eq!(marked(Color::Black), ["b3"]);
    }

    #[test]
    fn the_side_ahead_scores_more_and_the_score_is_symmetric() {
        let even = setup(&["--....--", "-......-", "...s....", "....k...", "...S...K", "-......-", "--....--"]);
        let ahead = setup(&["--....--", "-......-", "........", "....k...", "...S..SK", "-......-", "--....--"]);
        assert_eq!(evaluate(&even, Color::White), -evaluate(&even, Color::Black));
        assert!(evaluate(&ahead, Color::White) > evaluate(&even, Color::White) + SOLDIER / 2);
    }
}
