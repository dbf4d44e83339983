//! A record replayed position by position: what an animated replay, a step-by-step view or
//! a picture of an earlier position draws. Built on the one replay loop,
//! [`AnyGame::replay_seen`], so a record stops at the same turn here as everywhere else.

use crate::any::{AnyGame, NewGameError, ReplayError};
use crate::game::GameKind;

/// Every position of a record from the start (the start position first, then the one after
/// each turn played), up to the first turn that cannot be read or is refused, and that turn.
///
/// A record of `n` turns that plays through gives `n + 1` positions and no error; one that
/// stops at turn `k` (counted from 1) gives the `k` positions before it. Only options the
/// game refuses give an `Err`: there is no position to show then.
///
/// ```
/// use stonemate_engine::{GameKind, replay};
///
/// let (positions, error) = replay::positions(GameKind::Go, &[], &["d4", "e5", "d4"])?;
/// assert_eq!(positions.len(), 3, "the start and the two turns before the refused one");
/// assert_eq!(error.map(|error| error.index), Some(3));
/// # Ok::<(), stonemate_engine::NewGameError>(())
/// ```
pub fn positions<S: AsRef<str>>(
    kind: GameKind,
    options: &[(String, String)],
    turns: &[S],
) -> Result<(Vec<AnyGame>, Option<ReplayError>), NewGameError> {
    let mut positions = Vec::with_capacity(turns.len() + 1);
    let replay = AnyGame::replay_seen(kind, options, turns, |position| positions.push(position.clone()))?;
    Ok((positions, replay.error))
}
