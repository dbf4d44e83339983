//! Who plays a turn in the arena: the trait every player answers, and the uniformly
//! random player.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use stonemate_engine::{AnyGame, Turn};

/// Why a player or a referee failed, as text for the game's line.
pub(crate) type Failure = String;

/// Someone who picks turns.
pub(crate) trait Player {
    fn name(&self) -> String;
    /// The turn to play in `game`, reached from `start` by `history`.
    fn choose(&mut self, start: &AnyGame, history: &[Turn], game: &AnyGame, seed: u64) -> Result<Turn, Failure>;
}

pub(crate) struct Random;

impl Player for Random {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, _: &AnyGame, _: &[Turn], game: &AnyGame, seed: u64) -> Result<Turn, Failure> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        game.legal_turns().choose(&mut rng).copied().ok_or_else(|| "no legal turn".into())
    }
}
