//! The estimate of the dead pieces, by whichever random games fit the set: the proposal
//! the service opens counting with, and the bot's judgement of a proposal.

use stonemate_engine::AnyGame;
use stonemate_engine::go::DeadPieces;

use super::fast::fast_dead;
use super::rules::{RULES_PLAYOUTS, rules_dead};

/// Light playouts of the estimate on the playout board: enough for a piece's ownership to
/// be stable to a few hundredths, cheap enough for a 19x19 board to be judged in well under
/// a second.
pub const FAST_PLAYOUTS: u32 = 512;

/// Random games the bot plays by the rules to judge the dead pieces, for the sets the
/// playout board does not play (four times the opening proposal's).
pub const JUDGE_PLAYOUTS: u32 = 4 * RULES_PLAYOUTS;

/// The fixed seed of [`estimate_dead`] on the playout board: the same position gives the
/// same proposal.
const ESTIMATE_SEED: u64 = 0x434f_554e_5449_4e47;

/// The fixed seed of [`estimate_dead`]'s random games by the rules (the one they had in the
/// engine, so that every proposal stays as it was).
const RULES_SEED: u64 = 0x5354_4f4e_454d_4154;

/// Which random games an estimate of the dead pieces plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Playouts {
    /// [`FAST_PLAYOUTS`] heavy playouts on the playout board, groups in seki kept alive,
    /// for the sets it plays; for the others, as [`Playouts::Rules`]. The service's
    /// proposal ([`estimate_dead`]).
    PlayoutBoard,
    /// [`RULES_PLAYOUTS`] random games by the engine's rules on its own board, for any set:
    /// what the playout board falls back on, and for rooks the baseline it is measured
    /// against.
    Rules,
}

/// The pieces the service proposes as dead when `game` opens counting: deterministic for a
/// position. `None` unless the game is go in its counting phase.
#[must_use]
pub fn estimate_dead(game: &AnyGame) -> Option<DeadPieces> {
    estimate_dead_with(game, Playouts::PlayoutBoard)
}

/// [`estimate_dead`] by the given random games, for measurements and tests of each.
#[must_use]
pub fn estimate_dead_with(game: &AnyGame, playouts: Playouts) -> Option<DeadPieces> {
    let AnyGame::Go(go) = game else { return None };
    if !go.is_counting() {
        return None;
    }
    let fast = match playouts {
        Playouts::PlayoutBoard => fast_dead(go, FAST_PLAYOUTS, ESTIMATE_SEED),
        Playouts::Rules => None,
    };
    Some(fast.unwrap_or_else(|| rules_dead(go, RULES_PLAYOUTS, RULES_SEED)))
}

/// The pieces the bot judges dead in `game`, seeded by `seed`; `None` unless the game is
/// go in its counting phase. Twice the proposal's playouts on the playout board (four times
/// the proposal's random games by the rules where the set needs them), with the job's own
/// seed, so that the bot looks harder than the proposal it answers.
#[must_use]
pub fn judge_dead(game: &AnyGame, seed: u64) -> Option<DeadPieces> {
    let AnyGame::Go(go) = game else { return None };
    if !go.is_counting() {
        return None;
    }
    Some(fast_dead(go, 2 * FAST_PLAYOUTS, seed).unwrap_or_else(|| rules_dead(go, JUDGE_PLAYOUTS, seed)))
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
