//! How the pieces of `docs/pieces.md` move on a board with holes.
//!
//! A piece's *moves* are the squares it could reach in one chess move: every empty square
//! along a ray plus the first occupied one; every existing target of a leap. Chego calls
//! this set "attacks", Go with chess pieces "can move to"; both games use this one function.
//!
//! Holes (ruling P1): rays of sliders stop before a hole; leapers jump over holes; the
//! nightrider passes over a hole it would land on; the Chinese knight is blocked by a hole
//! (or a piece) on the first orthogonal step of its leap.

use std::ops::ControlFlow;

use crate::piece::Role;
use crate::square::{Color, Shape, Square, SquareSet};

/// The (file, rank) steps of the pieces: a leaper takes one, a rider repeats it. Public
/// so that faster boards built over the engine (the ai's playout board) use the same ones.
pub mod steps {
    /// The rook's and wazir's directions.
    pub const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    /// The bishop's and ferz's directions.
    pub const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    /// The king's and queen's directions.
    pub const KING: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];
    /// The knight's leaps (and the nightrider's directions).
    pub const KNIGHT: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
    /// The dabbaba's leaps.
    pub const DABBABA: [(i32, i32); 4] = [(2, 0), (-2, 0), (0, 2), (0, -2)];
    /// The alfil's leaps.
    pub const ALFIL: [(i32, i32); 4] = [(2, 2), (2, -2), (-2, 2), (-2, -2)];
}

use steps::{ALFIL, DABBABA, DIAGONAL, KING, KNIGHT, ORTHOGONAL};

/// Calls `visit` with every square `role` (owned by `color`, standing on `from`) can move
/// to, given the occupied squares. Pawns go diagonally forward: White towards higher ranks.
///
/// `from` itself is never visited. The stone has no moves of its own here.
pub fn for_each_move(
    role: Role,
    color: Color,
    from: Square,
    shape: &Shape,
    occupied: &SquareSet,
    mut visit: impl FnMut(Square),
) {
    let _ = try_for_each_move(role, color, from, shape, occupied, |to| {
        visit(to);
        ControlFlow::<()>::Continue(())
    });
}

/// Like [`for_each_move`], but `visit` can stop the walk early by returning `Break`,
/// which this returns. Asking "has this piece any empty square to go to?" stops at the
/// first one, and for a rider that is usually its first step.
pub fn try_for_each_move<B>(
    role: Role,
    color: Color,
    from: Square,
    shape: &Shape,
    occupied: &SquareSet,
    mut visit: impl FnMut(Square) -> ControlFlow<B>,
) -> ControlFlow<B> {
    let visit = &mut visit;
    match role {
        Role::Queen => rays(&KING, Holes::Stop, from, shape, occupied, visit),
        Role::Rook => rays(&ORTHOGONAL, Holes::Stop, from, shape, occupied, visit),
        Role::Bishop => rays(&DIAGONAL, Holes::Stop, from, shape, occupied, visit),
        Role::King => leaps(&KING, from, shape, visit),
        Role::Knight => leaps(&KNIGHT, from, shape, visit),
        Role::Wazir => leaps(&ORTHOGONAL, from, shape, visit),
        Role::Ferz => leaps(&DIAGONAL, from, shape, visit),
        Role::Dabbaba => leaps(&DABBABA, from, shape, visit),
        Role::Alfil => leaps(&ALFIL, from, shape, visit),
        Role::Pawn => {
            let forward = if color == Color::White { 1 } else { -1 };
            leaps(&[(1, forward), (-1, forward)], from, shape, visit)
        }
        Role::Horse => horse(from, shape, occupied, visit),
        Role::Nightrider => rays(&KNIGHT, Holes::LeapedOver, from, shape, occupied, visit),
        Role::Stone => ControlFlow::Continue(()),
    }
}

/// What a hole in the board does to a ray.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holes {
    /// A slider's ray ends at a hole, as at the edge.
    Stop,
    /// A nightrider's ray of repeated leaps jumps over holes: a hole it would land on is
    /// skipped (neither visited nor a stop) and the ray goes on beyond it.
    LeapedOver,
}

/// The rays from `from` in each of `directions`, repeated steps of one offset: empty
/// squares, then the first occupied one; the edge stops a ray, a hole as `holes` says.
fn rays<B>(
    directions: &[(i32, i32)],
    holes: Holes,
    from: Square,
    shape: &Shape,
    occupied: &SquareSet,
    visit: &mut impl FnMut(Square) -> ControlFlow<B>,
) -> ControlFlow<B> {
    for &(df, dr) in directions {
        let mut at = from;
        while let Some(to) = shape.step(at, df, dr) {
            at = to;
            if !shape.contains(to) {
                match holes {
                    Holes::Stop => break,
                    Holes::LeapedOver => continue,
                }
            }
            visit(to)?;
            if occupied.contains(to) {
                break;
            }
        }
    }
    ControlFlow::Continue(())
}

fn leaps<B>(
    offsets: &[(i32, i32)],
    from: Square,
    shape: &Shape,
    visit: &mut impl FnMut(Square) -> ControlFlow<B>,
) -> ControlFlow<B> {
    for &(df, dr) in offsets {
        if let Some(to) = shape.step(from, df, dr).filter(|&to| shape.contains(to)) {
            visit(to)?;
        }
    }
    ControlFlow::Continue(())
}

/// The moves as a set (convenient where speed does not matter).
#[must_use]
pub fn moves(role: Role, color: Color, from: Square, shape: &Shape, occupied: &SquareSet) -> SquareSet {
    let mut set = SquareSet::EMPTY;
    for_each_move(role, color, from, shape, occupied, |to| set.insert(to));
    set
}

/// The Chinese knight: a knight leap whose first orthogonal step (along the longer leg)
/// must be an existing, empty square.
fn horse<B>(
    from: Square,
    shape: &Shape,
    occupied: &SquareSet,
    visit: &mut impl FnMut(Square) -> ControlFlow<B>,
) -> ControlFlow<B> {
    for &(df, dr) in &KNIGHT {
        let (leg_f, leg_r) = if df.abs() == 2 { (df.signum(), 0) } else { (0, dr.signum()) };
        let Some(leg) = shape.step(from, leg_f, leg_r) else { continue };
        if !shape.contains(leg) || occupied.contains(leg) {
            continue;
        }
        if let Some(to) = shape.step(from, df, dr).filter(|&to| shape.contains(to)) {
            visit(to)?;
        }
    }
    ControlFlow::Continue(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn names(set: SquareSet) -> Vec<String> {
        set.iter().map(|s| s.to_string()).collect()
    }

    fn set(names: &[&str]) -> SquareSet {
        names.iter().map(|n| sq(n)).collect()
    }

    #[test]
    fn rook_ray_includes_first_occupied_square() {
        let shape = Shape::rectangle(5, 5);
        let got = moves(Role::Rook, Color::White, sq("a1"), &shape, &set(&["a3", "c1"]));
        assert_eq!(names(got), ["b1", "c1", "a2", "a3"]);
    }

    #[test]
    fn sliders_stop_before_holes() {
        let shape = Shape::rectangle(5, 5).with_holes([sq("c3")]);
        let got = moves(Role::Bishop, Color::White, sq("a1"), &shape, &SquareSet::EMPTY);
        assert_eq!(names(got), ["b2"]);
    }

    #[test]
    fn leapers_jump_over_holes_but_never_land_on_them() {
        let shape = Shape::rectangle(5, 5).with_holes([sq("b1"), sq("c1")]);
        let got = moves(Role::Dabbaba, Color::White, sq("a1"), &shape, &SquareSet::EMPTY);
        assert_eq!(names(got), ["a3"]);
    }

    #[test]
    fn pawns_attack_diagonally_forward_by_colour() {
        let shape = Shape::rectangle(5, 5);
        assert_eq!(names(moves(Role::Pawn, Color::White, sq("c3"), &shape, &SquareSet::EMPTY)), ["b4", "d4"]);
        assert_eq!(names(moves(Role::Pawn, Color::Black, sq("c3"), &shape, &SquareSet::EMPTY)), ["b2", "d2"]);
        assert!(moves(Role::Pawn, Color::White, sq("c5"), &shape, &SquareSet::EMPTY).is_empty());
    }

    #[test]
    fn chinese_knight_is_blocked_on_its_first_step() {
        let shape = Shape::rectangle(5, 5);
        let free = moves(Role::Horse, Color::White, sq("c3"), &shape, &SquareSet::EMPTY);
        assert_eq!(free.len(), 8);
        let blocked = moves(Role::Horse, Color::White, sq("c3"), &shape, &set(&["c4"]));
        assert_eq!(names(blocked), ["b1", "d1", "a2", "e2", "a4", "e4"]);
        let holed = Shape::rectangle(5, 5).with_holes([sq("d3")]);
        let got = moves(Role::Horse, Color::White, sq("c3"), &holed, &SquareSet::EMPTY);
        assert!(!got.contains(sq("e2")) && !got.contains(sq("e4")) && got.contains(sq("d5")));
    }

    #[test]
    fn nightrider_rides_over_holes_and_stops_at_pieces() {
        let shape = Shape::rectangle(9, 9).with_holes([sq("b3")]);
        let got = moves(Role::Nightrider, Color::White, sq("a1"), &shape, &set(&["e9"]));
        // (1,2) ray: b3 hole skipped, c5, d7, then e9 occupied; (2,1) ray: c2, e3, g4, i5.
        assert_eq!(names(got), ["c2", "e3", "g4", "c5", "i5", "d7", "e9"]);
        let blocked = moves(Role::Nightrider, Color::White, sq("a1"), &Shape::rectangle(9, 9), &set(&["c5"]));
        assert!(blocked.contains(sq("c5")) && !blocked.contains(sq("d7")));
    }

    #[test]
    fn every_leaper_has_its_offsets() {
        let shape = Shape::rectangle(9, 9);
        let counts = [
            (Role::King, 8),
            (Role::Knight, 8),
            (Role::Wazir, 4),
            (Role::Ferz, 4),
            (Role::Dabbaba, 4),
            (Role::Alfil, 4),
            (Role::Queen, 32),
            (Role::Rook, 16),
            (Role::Bishop, 16),
        ];
        for (role, count) in counts {
            assert_eq!(moves(role, Color::White, sq("e5"), &shape, &SquareSet::EMPTY).len(), count, "{role}");
        }
    }
}
