//! What the iChess pieces are worth, to the evaluation and to the deployment's threats.

use stonemate_engine::Role;

/// A role's material value in centipawns.
pub(crate) fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Ferz => 200,
        Role::Knight => 320,
        Role::Bishop => 340,
        Role::Rook => 500,
        Role::Queen => 950,
        _ => 0,
    }
}
