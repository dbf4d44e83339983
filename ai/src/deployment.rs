//! What an iChess deployment leaves en prise for the play phase.
//!
//! Pieces do not move during deployment (rule 3), so a piece that an enemy piece attacks,
//! or that an enemy drop onto a still-empty square of the enemy's zone could attack, stays
//! where it is until play begins, and the first play moves take it. Alpha-beta does not see
//! this in time: during deployment there are no captures for the quiescence search to
//! follow, and the capture itself lies beyond the deployment's remaining drops (up to 16
//! plies). Hard used to drop its queen early on the front of its zone, where its mobility
//! scores well, and lose it for a knight dropped against it (issue 42). The evaluation
//! therefore charges each side, while the deployment is on, the worst exchange its pieces
//! already face or can be made to face by one enemy drop ([`worst_threat`]).

use stonemate_engine::catalogue::steps::{DIAGONAL, KNIGHT, ORTHOGONAL};
use stonemate_engine::ichess::Bare;
use stonemate_engine::{Color, Piece, Role, Square};

use crate::material::value;

/// The board's side (iChess is played on 8x8).
const SIDE: i32 = 8;

/// A piece that will be lost, or lost in an exchange, when play begins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Threat {
    /// Where the threatened piece stands.
    pub square: Square,
    /// The threatened piece.
    pub piece: Piece,
    /// The attacker's role.
    pub attacker: Role,
    /// Where the attacker stands, or the empty square it can be dropped on.
    pub from: Square,
    /// Whether the attacker is still in hand (the threat is a drop away).
    pub dropped: bool,
    /// What the owner loses, in the search's centipawns: the piece's value less the
    /// attacker's (taken back) when the piece is defended or the attack is a drop away (a
    /// defender can still be dropped), the whole piece when an attacker already stands
    /// and nothing defends it.
    pub loss: i32,
}

/// The board as an array, for the many look-ups of one evaluation.
struct Grid([Option<Piece>; 64]);

impl Grid {
    fn of(position: &Bare) -> Grid {
        let mut cells = [None; 64];
        for (square, piece) in position.pieces() {
            cells[usize::from(square.rank()) * 8 + usize::from(square.file())] = Some(piece);
        }
        Grid(cells)
    }

    fn at(&self, file: i32, rank: i32) -> Option<Piece> {
        self.0[(rank * SIDE + file) as usize]
    }
}

/// Whether `(file, rank)` is on the board.
fn on_board(file: i32, rank: i32) -> bool {
    (0..SIDE).contains(&file) && (0..SIDE).contains(&rank)
}

/// Whether `rank` is in `color`'s drop zone (rule 2: the four ranks nearest him).
fn in_zone(color: Color, rank: i32) -> bool {
    match color {
        Color::White => rank < SIDE / 2,
        Color::Black => rank >= SIDE / 2,
    }
}

/// The square at `(file, rank)`, which is on the board.
fn square(file: i32, rank: i32) -> Square {
    Square::new(file as u8, rank as u8).expect("on the 8x8 board")
}

/// An attack on a square: the attacker's role, its square, whether it is still in hand.
type Attack = (Role, (i32, i32), bool);

/// The cheapest attack by `enemy` on `(file, rank)`: by its pieces on the board, or by a
/// piece of its hand dropped onto an empty square of its zone. Kings do not count (a king
/// takes only what nothing defends, and is dropped last), nor pawns in hand (there are
/// none before the first capture, which the deployment has not reached).
fn cheapest_attack(grid: &Grid, position: &Bare, enemy: Color, (file, rank): (i32, i32)) -> Option<Attack> {
    let hand = position.hand(enemy);
    let mut best: Option<Attack> = None;
    // The cheapest; at the same value, one that stands already (a drop may not come).
    let mut consider = |role: Role, at: (i32, i32), dropped: bool| {
        if best.is_none_or(|(cheapest, _, in_hand)| (value(role), dropped) < (value(cheapest), in_hand)) {
            best = Some((role, at, dropped));
        }
    };
    for (df, dr) in KNIGHT {
        let (f, r) = (file + df, rank + dr);
        if !on_board(f, r) {
            continue;
        }
        match grid.at(f, r) {
            Some(piece) if piece == Piece::new(enemy, Role::Knight) => consider(Role::Knight, (f, r), false),
            None if in_zone(enemy, r) && hand.contains(Role::Knight) => consider(Role::Knight, (f, r), true),
            _ => {}
        }
    }
    // A pawn takes straight forward: the enemy pawn that could take stands behind, as the
    // enemy looks.
    let behind = if enemy == Color::White { -1 } else { 1 };
    let step_piece = |df: i32, dr: i32| on_board(file + df, rank + dr).then(|| grid.at(file + df, rank + dr)).flatten();
    if step_piece(0, behind) == Some(Piece::new(enemy, Role::Pawn)) {
        consider(Role::Pawn, (file, rank + behind), false);
    }
    for (lines, slider) in [(DIAGONAL, Role::Bishop), (ORTHOGONAL, Role::Rook)] {
        for (df, dr) in lines {
            if slider == Role::Bishop && step_piece(df, dr) == Some(Piece::new(enemy, Role::Ferz)) {
                consider(Role::Ferz, (file + df, rank + dr), false);
            }
            let (mut f, mut r) = (file + df, rank + dr);
            while on_board(f, r) {
                match grid.at(f, r) {
                    None => {
                        if in_zone(enemy, r) {
                            for role in [slider, Role::Queen] {
                                if hand.contains(role) {
                                    consider(role, (f, r), true);
                                }
                            }
                        }
                    }
                    Some(piece) => {
                        if piece.color == enemy && (piece.role == slider || piece.role == Role::Queen) {
                            consider(piece.role, (f, r), false);
                        }
                        break;
                    }
                }
                f += df;
                r += dr;
            }
        }
    }
    best
}

/// The worst exchange `color`'s pieces on the board face when play begins (see
/// [`Threat::loss`]), if any loses something; `None` also once the deployment is over,
/// when pieces can move away and the search follows the captures itself.
#[must_use]
pub fn worst_threat(position: &Bare, color: Color) -> Option<Threat> {
    if !position.deploying() {
        return None;
    }
    worst(&Grid::of(position), position, color)
}

fn worst(grid: &Grid, position: &Bare, color: Color) -> Option<Threat> {
    let mut worst: Option<Threat> = None;
    for (square, piece) in position.pieces() {
        if piece.color != color || piece.role == Role::King {
            continue;
        }
        let at = (square.file() as i32, square.rank() as i32);
        let Some((attacker, from, dropped)) = cheapest_attack(grid, position, color.other(), at) else {
            continue;
        };
        let exchange = value(piece.role) - value(attacker);
        let loss = if dropped || position.attacked(square, color) { exchange } else { value(piece.role) };
        if loss > 0 && worst.is_none_or(|threat| loss > threat.loss) {
            worst = Some(Threat { square, piece, attacker, from: self::square(from.0, from.1), dropped, loss });
        }
    }
    worst
}

/// The worst threat's loss for each side (0 where there is none), by colour index: what
/// the evaluation charges while the deployment is on.
pub(crate) fn exposure(position: &Bare) -> [i32; 2] {
    if !position.deploying() {
        return [0, 0];
    }
    let grid = Grid::of(position);
    Color::BOTH.map(|color| worst(&grid, position, color).map_or(0, |threat| threat.loss))
}
