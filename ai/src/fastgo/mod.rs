//! A go board for playouts: the rules of Go with chess pieces, incremental, for the sets
//! whose pieces act like stones.
//!
//! The engine's [`Go`](stonemate_engine::go::Go) copies its board and re-checks the life of
//! every piece after each turn, which is right for every set of pieces but costs
//! microseconds a turn. For a set whose pieces all reach the same *steps* (rook and wazir:
//! the four orthogonal neighbours; bishop and ferz: the diagonal ones; queen and king: all
//! eight; the knight, and the nightrider on a board without holes: the knight's leaps; the
//! dabbaba; the alfil), rule 3 is go's: a piece is alive exactly when the group of friendly
//! pieces connected to it by those steps has an empty step somewhere. A rider's first
//! square on a ray is its step, and only a piece without an empty step needs its defences,
//! which are then its occupied steps. So this board keeps groups (chains) and their
//! liberties incrementally, as go programs do, and answers legality, captures, ko and the
//! score without copying anything.
//!
//! Sets with pieces of different steps (a rook with a knight), the pawn (whose steps point
//! one way), the Chinese knight (blocked legs) and the nightrider on a board with holes
//! (its ray passes over them) do not fit, nor does `moving=on`; [`FastGo::supports`] says
//! so and the search keeps the engine for them.
//!
//! The differential test `ai/tests/fastgo.rs` plays many random games on both boards and
//! compares them after every turn.
//!
//! The board and what it reads from the engine are `board.rs`; the squares and their steps
//! `geometry.rs`; the rules of a turn `play.rs`; the tactics around a drop `tactics.rs`
//! (with go's shapes, `shapes.rs`); playouts `playout.rs`; the score `score.rs`.

mod board;
mod geometry;
mod play;
mod playout;
mod score;
mod shapes;
mod tactics;

pub use board::FastGo;
pub use playout::MAX_PLAYOUT_TURNS;
pub use tactics::Tactics;
