//! An alpha-beta searcher for iChess: iterative deepening, a quiescence search on
//! captures, a material and mobility evaluation, move ordering (the transposition table's
//! move, captures by most valuable victim and least valuable attacker, killer turns, a
//! history table), and a transposition table.
//!
//! iChess is a tactical game of captures and drops, where Fairy-Stockfish (an alpha-beta
//! searcher) is the anchor; Monte Carlo playouts of a few random turns say little there.
//! The search works on the engine's bare position ([`Bare`]: bitboards, copied by value)
//! with the engine's own turn generator, so it plays by exactly the same rules.
//!
//! A position with no legal turn is lost for the side to move (checkmate, or ruling I2);
//! a position that repeats one of the game or of the search path scores as ruling I3
//! scores the repetition: lost for a player who gave check with every one of his turns
//! since the earlier occurrence (perpetual check), a draw otherwise. (The rule ends the
//! game at the fourth occurrence; the search does not wait for it: whoever could leave
//! the cycle had the chance to, in the search, already.)

use std::time::Instant;

use stonemate_engine::ichess::{Bare, BareTurn, IChess, history_checks, history_keys};
use stonemate_engine::{Color, Piece, Role};

// The limits are the shared ones; `search.rs` names them from here.
pub(crate) use crate::deepening::Limits;
use crate::deepening::{Deepen, Killers, MATE, MATE_BOUND, Root, Window, deepen};
use crate::material::value;
use crate::search::result::SearchResult;

/// The deepest the search goes (plies from the root, quiescence included).
const MAX_PLY: usize = 96;
/// The most entries of the transposition table (a power of two; 24 MiB); a smaller search
/// gets a table about its number of nodes.
const TT_ENTRIES: usize = 1 << 20;
/// Null-move pruning from this remaining depth on, searching the pass this much
/// shallower.
const NULL_MOVE_FROM_DEPTH: i32 = 3;
const NULL_MOVE_REDUCTION: i32 = 2;
/// Quiet turns from this place in the ordered list on are searched a ply shallower first.
const LATE_MOVE_FROM: usize = 4;
/// A forced turn is still searched this many nodes, for its value.
const FORCED_TURN_NODES: u64 = 5_000;
/// Mobility is worth this many centipawns a square.
const MOBILITY: i32 = 3;
/// Each square next to the enemy king that a piece attacks is worth this much.
const KING_PRESSURE: i32 = 6;
/// A piece in hand is worth a little more than on the board: it can go anywhere in the
/// own half at the moment it is needed.
const IN_HAND_BONUS: i32 = 15;
/// The evaluation's centipawns per unit of the logistic that turns a score into the
/// expected result the bot's decisions read (400: a rook up is about 0.78).
const VALUE_SCALE: f64 = 400.0;

/// The evaluation for the side to move, in centipawns: material on the board and in hand,
/// mobility, and pressure on the enemy king; during the deployment, less each side's worst
/// piece left en prise for the play phase (`deployment.rs`: the mobility a queen has on the
/// front of its zone is no gain if a knight dropped against it will take it).
fn evaluate(position: &Bare) -> i32 {
    let mut score = [0i32; 2];
    // Nothing once the deployment is over.
    let exposure = crate::deployment::exposure(position);
    score[0] -= exposure[0];
    score[1] -= exposure[1];
    for (_, piece) in position.pieces() {
        score[piece.color.index()] += value(piece.role);
    }
    for color in Color::BOTH {
        let hand = position.hand(color);
        for role in hand.roles() {
            score[color.index()] += (value(role) + IN_HAND_BONUS) * i32::from(hand.count(role));
        }
        let (mobility, pressure) = position.mobility(color);
        score[color.index()] += MOBILITY * mobility as i32 + KING_PRESSURE * pressure as i32;
    }
    let us = position.to_move().index();
    score[us] - score[1 - us]
}

/// Bound kinds of a transposition-table entry.
const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;

#[derive(Debug, Clone, Copy)]
struct Entry {
    key: u64,
    best: Option<BareTurn>,
    score: i32,
    depth: i8,
    bound: u8,
}

struct Searcher {
    table: Vec<Option<Entry>>,
    /// The table's size less one (a power of two less one).
    mask: usize,
    killers: Killers<BareTurn>,
    /// Quiet turns that caused cut-offs, by target square and the moving or dropped role.
    history: Vec<i32>,
    /// The game's positions and then the search path's: each position's key, and whether
    /// its side to move is in check (the turn that made it gave check).
    path: Vec<(u64, bool)>,
    nodes: u64,
    limits: Limits,
    stopped: bool,
}

impl Searcher {
    fn out_of_budget(&mut self) -> bool {
        if !self.stopped && (self.nodes >= self.limits.nodes || (self.nodes % 1024 == 0 && self.limits.past_deadline()))
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & self.mask
    }

    fn history_index(position: &Bare, turn: BareTurn) -> usize {
        let role = turn.dropped().or_else(|| turn.origin().and_then(|from| position.piece_at(from)).map(|p| p.role));
        let role = role.map_or(0, Role::index) % 16;
        let target = turn.target();
        role * 64 + usize::from(target.rank()) * 8 + usize::from(target.file())
    }

    /// Sorts `turns` best first: the table's turn, captures (most valuable victim, then
    /// least valuable attacker), promotions, the killers, then by history.
    fn order(&self, position: &Bare, turns: &mut [BareTurn], best: Option<BareTurn>, ply: usize) {
        let mut keyed: Vec<(i32, BareTurn)> = turns
            .iter()
            .map(|&turn| {
                let key = if Some(turn) == best {
                    i32::MAX
                } else if let Some(victim) = victim(position, turn) {
                    let attacker = mover(position, turn).map_or(0, |p| value(p.role));
                    1_000_000 + 10 * value(victim.role) - attacker / 10
                } else if turn.promotes() {
                    900_000
                } else if self.killers.contains(ply, turn) {
                    800_000
                } else {
                    self.history[Self::history_index(position, turn)]
                };
                (key, turn)
            })
            .collect();
        keyed.sort_by_key(|&(key, _)| std::cmp::Reverse(key));
        for (slot, (_, turn)) in turns.iter_mut().zip(keyed) {
            *slot = turn;
        }
    }

    /// The score for the side to move of a position (`key`, `in_check`) that repeats one
    /// of the game or of the path, as ruling I3 scores it; `None` when it repeats nothing.
    fn repetition(&self, key: u64, in_check: bool, ply: usize) -> Option<i32> {
        let earlier = self.path.iter().rposition(|&(k, _)| k == key)?;
        Some(match repetition_loser(&self.path[earlier + 1..], in_check) {
            Some(Loser::ToMove) => -MATE + ply as i32,
            Some(Loser::LastMover) => MATE - ply as i32,
            None => 0,
        })
    }

    fn alpha_beta(&mut self, position: &Bare, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let key = position.key();
        let in_check = position.in_check();
        if ply > 0
            && let Some(score) = self.repetition(key, in_check, ply)
        {
            return score;
        }
        // A check is answered a ply deeper: its answers are few and forced.
        let depth = if in_check && ply < MAX_PLY / 2 { depth + 1 } else { depth };
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiescence(position, alpha, beta, ply);
        }
        let entry = self.table[self.slot(key)].filter(|entry| entry.key == key);
        if let Some(entry) = entry {
            if ply > 0 && i32::from(entry.depth) >= depth {
                let score = from_table(entry.score, ply);
                match entry.bound {
                    EXACT => return score,
                    LOWER if score >= beta => return score,
                    UPPER if score <= alpha => return score,
                    _ => {}
                }
            }
        }
        // Null move: if passing still leaves the side to move at or above beta after a
        // shallower search, a real turn would too (drops make zugzwang rare in iChess).
        if !in_check
            && ply > 0
            && depth >= NULL_MOVE_FROM_DEPTH
            && beta.abs() < MATE_BOUND
            && !position.deploying()
            && evaluate(position) >= beta
        {
            let mut passed = *position;
            passed.pass_turn();
            self.path.push((key, in_check));
            let score = -self.alpha_beta(&passed, depth - 1 - NULL_MOVE_REDUCTION, -beta, -beta + 1, ply + 1);
            self.path.pop();
            if self.stopped {
                return 0;
            }
            if score >= beta {
                // A mate (or a perpetual check: a cycle through the pass is no real
                // repetition) found after passing is not proven for the real turns.
                return if score > MATE_BOUND { beta } else { score };
            }
        }
        let mut turns = Vec::with_capacity(96);
        position.legal_turns(&mut turns);
        if turns.is_empty() {
            return -MATE + ply as i32;
        }
        self.order(position, &mut turns, entry.and_then(|e| e.best), ply);
        self.path.push((key, in_check));
        let original_alpha = alpha;
        let mut best = (-MATE - 1, None);
        for (i, &turn) in turns.iter().enumerate() {
            let mut next = *position;
            next.play(turn);
            // Principal variation search: the first turn with the full window, the others
            // with a null window, searched again only when they might be better.
            // Late quiet turns are first searched shallower (late move reductions).
            let quiet =
                victim(position, turn).is_none() && !turn.promotes() && !in_check && !self.killers.contains(ply, turn);
            let reduction =
                i32::from(quiet && i >= LATE_MOVE_FROM && depth >= 3) + i32::from(quiet && i >= 16 && depth >= 5);
            let score = if i == 0 {
                -self.alpha_beta(&next, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let mut probe = -self.alpha_beta(&next, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
                if reduction > 0 && probe > alpha && !self.stopped {
                    probe = -self.alpha_beta(&next, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if probe > alpha && probe < beta {
                    -self.alpha_beta(&next, depth - 1, -beta, -alpha, ply + 1)
                } else {
                    probe
                }
            };
            if self.stopped {
                self.path.pop();
                return 0;
            }
            if score > best.0 {
                best = (score, Some(turn));
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if victim(position, turn).is_none() {
                    self.killers.remember(ply, turn);
                    self.history[Self::history_index(position, turn)] += depth * depth;
                }
                break;
            }
        }
        self.path.pop();
        let bound = if best.0 >= beta {
            LOWER
        } else if best.0 > original_alpha {
            EXACT
        } else {
            UPPER
        };
        let slot = self.slot(key);
        self.table[slot] =
            Some(Entry { key, best: best.1, score: to_table(best.0, ply), depth: depth.min(100) as i8, bound });
        best.0
    }

    /// Captures (and, in check, every answer) until the position is quiet; the side to
    /// move may also stand on the evaluation when not in check.
    fn quiescence(&mut self, position: &Bare, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        let in_check = position.in_check();
        if !in_check {
            let stand = evaluate(position);
            if stand >= beta || ply >= MAX_PLY {
                return stand;
            }
            alpha = alpha.max(stand);
        }
        let mut turns = Vec::with_capacity(96);
        position.legal_turns(&mut turns);
        if turns.is_empty() {
            return -MATE + ply as i32;
        }
        if ply >= MAX_PLY {
            return evaluate(position);
        }
        if !in_check {
            turns.retain(|&turn| victim(position, turn).is_some());
        }
        self.order(position, &mut turns, None, ply);
        let best = if in_check { -MATE + ply as i32 } else { alpha };
        let mut window = Window { alpha, beta, best };
        for turn in turns {
            let mut next = *position;
            next.play(turn);
            let score = -self.quiescence(&next, -beta, -window.alpha, ply + 1);
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

/// Who loses a repetition by perpetual check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Loser {
    /// The side to move in the repeated position.
    ToMove,
    /// The side that just moved into it.
    LastMover,
}

/// Ruling I3 on a repetition: `since` are the positions after the earlier occurrence, up
/// to the one before the repeated position, each with whether the turn that made it gave
/// check; `check` is whether the turn into the repeated position did. The players
/// alternate from the last turn back: if every turn of one of them gave check and not
/// every turn of the other, the checker loses; otherwise it is a draw (`None`).
fn repetition_loser(since: &[(u64, bool)], check: bool) -> Option<Loser> {
    let checks = || since.iter().map(|&(_, check)| check).chain(std::iter::once(check)).rev();
    let last_mover_checked = checks().step_by(2).all(|check| check);
    let to_move_checked = checks().skip(1).step_by(2).all(|check| check);
    match (last_mover_checked, to_move_checked) {
        (true, false) => Some(Loser::LastMover),
        (false, true) => Some(Loser::ToMove),
        _ => None,
    }
}

/// The piece a turn captures.
fn victim(position: &Bare, turn: BareTurn) -> Option<Piece> {
    turn.origin()?;
    position.piece_at(turn.target())
}

/// The piece that makes a move (`None` for a drop).
fn mover(position: &Bare, turn: BareTurn) -> Option<Piece> {
    position.piece_at(turn.origin()?)
}

/// Mate scores are stored relative to the node, so that they stay right at another ply.
fn to_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl Deepen for Searcher {
    type Child = Bare;

    fn score(&mut self, child: &Bare, depth: i32, alpha: i32, beta: i32) -> i32 {
        -self.alpha_beta(child, depth, -beta, -alpha, 1)
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }

    fn stopped(&self) -> bool {
        self.stopped
    }
}

/// Searches an iChess game by iterative deepening until the limits; `None` when the game
/// is over. The result's root lists every legal turn with the nodes spent on it (as
/// "visits") and its last score as a value; only the chosen turn's is exact.
pub(crate) fn search(game: &IChess, limits: Limits, started: Instant) -> Option<SearchResult> {
    use stonemate_engine::Game;
    if game.legal_turns().is_empty() {
        return None;
    }
    let position = Bare::of(game);
    let mut turns = Vec::new();
    position.legal_turns(&mut turns);
    let forced = turns.len() == 1;
    let limits = if forced { limits.capped(FORCED_TURN_NODES) } else { limits };
    let entries = usize::try_from(limits.nodes).unwrap_or(usize::MAX).clamp(1 << 10, TT_ENTRIES).next_power_of_two();
    let mut searcher = Searcher {
        table: vec![None; entries],
        mask: entries - 1,
        killers: Killers::new(MAX_PLY),
        history: vec![0; 16 * 64],
        path: history_keys(game).into_iter().zip(history_checks(game)).collect(),
        nodes: 0,
        limits,
        stopped: false,
    };
    // The current position is the last of the game's: the root is not a repetition of it.
    searcher.path.pop();
    searcher.path.push((position.key(), position.in_check()));
    // The first iteration's order of the root turns: the search's ordering.
    let mut order: Vec<usize> = (0..turns.len()).collect();
    {
        let mut sorted = turns.clone();
        searcher.order(&position, &mut sorted, None, 0);
        order.sort_by_key(|&i| sorted.iter().position(|&t| t == turns[i]));
    }
    let children = turns
        .iter()
        .map(|&turn| {
            let mut next = position;
            next.play(turn);
            Some(next)
        })
        .collect();
    let root =
        Root { children, order, guess: evaluate(&position), max_depth: MAX_PLY as i32 / 2, one_iteration: false };
    let deepened = deepen(&mut searcher, root);
    let turns: Vec<_> = turns.iter().map(|turn| turn.turn()).collect();
    Some(crate::deepening::result(&turns, deepened, VALUE_SCALE, searcher.nodes, started))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions after an earlier occurrence, each with whether the turn into it checked.
    fn since(checks: &[bool]) -> Vec<(u64, bool)> {
        checks.iter().enumerate().map(|(i, &check)| (i as u64 + 10, check)).collect()
    }

    #[test]
    fn a_repetition_in_which_one_side_checked_every_turn_is_lost_by_that_side() {
        // Turns, oldest first: A, B, A, B(into the repeated position). B checked each time.
        assert_eq!(repetition_loser(&since(&[false, true, false]), true), Some(Loser::LastMover));
        // A checked each time; B (who made the last turn) did not.
        assert_eq!(repetition_loser(&since(&[true, false, true]), false), Some(Loser::ToMove));
    }

    #[test]
    fn a_repetition_without_perpetual_check_is_a_draw() {
        assert_eq!(repetition_loser(&since(&[false, false, false]), false), None);
        // Both checked every turn, or neither did every turn.
        assert_eq!(repetition_loser(&since(&[true, true, true]), true), None);
        assert_eq!(repetition_loser(&since(&[false, true, false, false, false]), true), None);
    }
}
