//! The bot's own judgement of which pieces are dead in go's counting phase (rule 10): the
//! engine's playout ownership, with four times the playouts of the engine's opening
//! proposal and the job's own seed, so the bot looks harder than the estimate it answers.
//! What the bot does with it (accept, propose, resume) is the service's to decide, given
//! the proposal standing when the answer comes back.

use stonemate_engine::AnyGame;
use stonemate_engine::go::{DeadPieces, PLAYOUTS, dead_from_ownership, playout_ownership};
use stonemate_engine::square::MAX_SQUARES;

/// Random games the bot plays to judge the dead pieces.
pub const JUDGE_PLAYOUTS: u32 = 4 * PLAYOUTS;

/// The pieces the bot judges dead in `game`, seeded by `seed`; `None` unless the game is
/// go in its counting phase.
#[must_use]
pub fn judge_dead(game: &AnyGame, seed: u64) -> Option<DeadPieces> {
    let AnyGame::Go(go) = game else { return None };
    if !go.is_counting() {
        return None;
    }
    let mut by_index = vec![0.0; MAX_SQUARES];
    for (square, share) in playout_ownership(go, JUDGE_PLAYOUTS, seed) {
        by_index[square.index()] = share;
    }
    Some(dead_from_ownership(go, |square| by_index[square.index()]))
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
        let judged = judge_dead(&counting_game(), 1).expect("counting");
        assert_eq!(judged, DeadPieces::new(["a3".parse().expect("a square")]));
    }
}
