//! The priors of RAVE: what an AMAF table believes of each drop before any playout, from
//! the playout board's tactics and shapes (go) or nothing (Chego).

use crate::position::Position;

/// Virtual `[wins, visits]` an AMAF table starts with, for the side to move: captures,
/// saving an own chain in atari and ataris look good, self-ataris and filling an own eye
/// bad, the rest even (with little weight).
///
/// With `shapes` (the bot's search), a drop that matches one of go's 3x3 shapes looks
/// somewhat good, and one on the first line with nothing tactical about it somewhat bad.
pub(super) fn priors(game: &Position, shapes: bool) -> Option<Box<[[f32; 2]]>> {
    let go = match game {
        Position::Go(go) => go,
        // Chego: nothing known before the playouts; every drop starts even, lightly.
        Position::Engine(_) => return game.rave_size().map(|size| vec![[0.5f32, 1.0]; size].into_boxed_slice()),
    };
    let mover = go.to_move()?;
    let mut table = vec![[0.0f32; 2]; go.square_count()];
    for square in go.squares() {
        let Some(at) = go.index_of(square) else { continue };
        let Some(tactics) = go.tactics(square) else { continue };
        let (mean, weight) = if tactics.captures {
            (0.9, 10.0)
        } else if tactics.saves {
            (0.8, 10.0)
        } else if go.fills_own_eye(square, mover) {
            (0.05, 20.0)
        } else if tactics.self_atari {
            (0.15, 10.0)
        } else if tactics.ataris {
            (0.65, 6.0)
        } else if shapes && go.shape_at(square) {
            (0.6, 6.0)
        } else if shapes && go.on_first_line(square) {
            (0.35, 6.0)
        } else {
            (0.5, 3.0)
        };
        table[at] = [mean * weight, weight];
    }
    Some(table.into_boxed_slice())
}
