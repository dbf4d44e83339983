//! Legal turn generation for iChess, and perft.
//!
//! Turns are generated legal from the start (no make-and-test): the king steps only to
//! squares the opponent does not attack; in check, other pieces must capture the single
//! checker or block its line, and drops must block it; pinned pieces stay on their pin
//! line. Generation writes into a [`Sink`], so perft's last ply can count whole target sets
//! with one popcount instead of listing them.

use super::bitboard::{self as bb, Bitboard};
use super::position::{Mv, Position};
use crate::piece::Role;

/// Where generated turns go: a list, or a counter.
pub(crate) trait Sink {
    fn push(&mut self, mv: Mv);
    /// Plain moves (no promotion possible) of the piece on `from` to every target.
    fn moves(&mut self, from: u8, targets: Bitboard);
    fn drops(&mut self, role: Role, targets: Bitboard);
}

impl Sink for Vec<Mv> {
    fn push(&mut self, mv: Mv) {
        Vec::push(self, mv);
    }

    fn moves(&mut self, from: u8, targets: Bitboard) {
        self.extend(bb::squares(targets).map(|to| Mv::Move { from, to, promote: false }));
    }

    fn drops(&mut self, role: Role, targets: Bitboard) {
        self.extend(bb::squares(targets).map(|to| Mv::Drop { role, to }));
    }
}

/// Counts turns without listing them.
#[derive(Debug, Default)]
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    fn push(&mut self, _: Mv) {
        self.0 += 1;
    }

    fn moves(&mut self, _: u8, targets: Bitboard) {
        self.0 += u64::from(targets.count_ones());
    }

    fn drops(&mut self, _: Role, targets: Bitboard) {
        self.0 += u64::from(targets.count_ones());
    }
}

/// Every legal turn of the side to move (game endings by repetition are not considered).
pub(crate) fn generate<S: Sink>(position: &Position, sink: &mut S) {
    if position.deploying() {
        deployment(position, sink);
    } else {
        play_phase(position, sink);
    }
}

/// The legal turns as a list.
pub(crate) fn legal_moves(position: &Position) -> Vec<Mv> {
    let mut list = Vec::with_capacity(128);
    generate(position, &mut list);
    list
}

/// The number of legal turns.
pub(crate) fn count_legal(position: &Position) -> u64 {
    let mut counter = Counter::default();
    generate(position, &mut counter);
    counter.0
}

/// The number of turn sequences of `depth` plies from the position.
pub(crate) fn perft(position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal(position),
        _ => legal_moves(position)
            .into_iter()
            .map(|mv| {
                let mut next = *position;
                next.play(mv);
                perft(&next, depth - 1)
            })
            .sum(),
    }
}

/// Rules 3-4: drops onto empty squares of the own zone; the king last, and not onto an
/// attacked square.
fn deployment<S: Sink>(position: &Position, sink: &mut S) {
    let us = position.turn();
    let occupied = position.occupied();
    let empty = bb::drop_zone(us) & !occupied;
    let hand = position.hand(us);
    let others: Vec<Role> = hand.roles().filter(|&role| role != Role::King).collect();
    if !others.is_empty() {
        for role in others {
            sink.drops(role, drop_targets(position, role, empty));
        }
    } else if hand.contains(Role::King) {
        let them = us.other();
        let safe = bb::squares(empty)
            .filter(|&to| position.attackers(to, them, occupied) == 0)
            .fold(0, |set, to| set | bb::bit(to));
        sink.drops(Role::King, safe);
    }
}

/// Rule 9: no pawn drop on a file that holds an own unpromoted pawn.
#[inline]
fn drop_targets(position: &Position, role: Role, targets: Bitboard) -> Bitboard {
    if role == Role::Pawn { targets & !bb::files_of(position.pieces(position.turn(), Role::Pawn)) } else { targets }
}

fn play_phase<S: Sink>(position: &Position, sink: &mut S) {
    let us = position.turn();
    let Some(king) = position.king(us) else { return };
    let checkers = position.checkers();
    king_moves(position, king, sink);
    if checkers.count_ones() > 1 {
        return;
    }
    let own = position.color(us);
    let occupied = position.occupied();
    let (move_targets, drop_squares) = if checkers == 0 {
        (!own, !occupied)
    } else {
        let checker = usize::from(checkers.trailing_zeros() as u8);
        let line = bb::BETWEEN[usize::from(king)][checker];
        (line | checkers, line)
    };
    let pinned = pinned(position, king);
    piece_moves(position, king, pinned, move_targets, sink);
    pawn_moves(position, king, pinned, move_targets, sink);
    let empty = drop_squares & bb::drop_zone(us) & !occupied;
    for role in position.hand(us).roles() {
        sink.drops(role, drop_targets(position, role, empty));
    }
}

/// The king steps to squares not attacked once it has left its own (rule 10).
fn king_moves<S: Sink>(position: &Position, king: u8, sink: &mut S) {
    let us = position.turn();
    let without_king = position.occupied() ^ bb::bit(king);
    let targets = bb::KING[usize::from(king)] & !position.color(us);
    let safe = bb::squares(targets)
        .filter(|&to| position.attackers(to, us.other(), without_king) == 0)
        .fold(0, |set, to| set | bb::bit(to));
    sink.moves(king, safe);
}

/// Own pieces that stand alone between the king and an enemy slider on its line.
fn pinned(position: &Position, king: u8) -> Bitboard {
    let us = position.turn();
    let them = us.other();
    let queens = position.pieces(them, Role::Queen);
    let snipers = (bb::rook_rays(king) & (position.pieces(them, Role::Rook) | queens))
        | (bb::bishop_rays(king) & (position.pieces(them, Role::Bishop) | queens));
    let occupied = position.occupied();
    let mut pinned = 0;
    for sniper in bb::squares(snipers) {
        let between = bb::BETWEEN[usize::from(king)][usize::from(sniper)] & occupied;
        if between.count_ones() == 1 {
            pinned |= between & position.color(us);
        }
    }
    pinned
}

fn piece_moves<S: Sink>(position: &Position, king: u8, pinned: Bitboard, targets: Bitboard, sink: &mut S) {
    let us = position.turn();
    let occupied = position.occupied();
    for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Ferz] {
        for from in bb::squares(position.pieces(us, role)) {
            let mut reach = Position::attacks(role, us, from, occupied) & targets;
            if pinned & bb::bit(from) != 0 {
                reach &= bb::LINE[usize::from(king)][usize::from(from)];
            }
            sink.moves(from, reach);
        }
    }
}

/// Rules 6-7: one step forward; promotion optional in the zone, forced on the last rank.
fn pawn_moves<S: Sink>(position: &Position, king: u8, pinned: Bitboard, targets: Bitboard, sink: &mut S) {
    let us = position.turn();
    for from in bb::squares(position.pieces(us, Role::Pawn)) {
        let mut reach = bb::PAWN[us.index()][usize::from(from)] & targets;
        if pinned & bb::bit(from) != 0 {
            reach &= bb::LINE[usize::from(king)][usize::from(from)];
        }
        if reach == 0 {
            continue;
        }
        let to = reach.trailing_zeros() as u8;
        if reach & bb::last_rank(us) != 0 {
            sink.push(Mv::Move { from, to, promote: true });
        } else if reach & bb::promotion_zone(us) != 0 {
            sink.push(Mv::Move { from, to, promote: false });
            sink.push(Mv::Move { from, to, promote: true });
        } else {
            sink.push(Mv::Move { from, to, promote: false });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_has_only_non_king_drops() {
        let start = Position::start();
        // Q R B N on the 32 - 8 empty squares of ranks 1-4.
        assert_eq!(perft(&start, 1), 4 * 24);
        assert!(legal_moves(&start).iter().all(|mv| matches!(mv, Mv::Drop { role, .. } if *role != Role::King)));
    }
}
