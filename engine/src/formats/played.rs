//! A record replayed for the writers: each turn as the game prints it, by whom, and the
//! turn itself (for formats that write squares). A record the rules refuse is not exported.

use super::error::ExportError;
use super::record::Record;
use crate::any::{AnyGame, ReplayError};
use crate::go::DeadPieces;
use crate::square::Color;
use crate::turn::Turn;

/// One turn of a replayed record.
#[derive(Debug, Clone)]
pub(super) struct Played {
    /// The turn as the game prints it.
    pub(super) text: String,
    /// The side that played it.
    pub(super) mover: Color,
    /// The turn itself, for formats that write squares.
    pub(super) turn: Turn,
}

/// Replays a record's turns: each turn played, then the game after the last one. A record
/// the rules refuse is not exported.
pub(super) fn replay(record: &Record) -> Result<(Vec<Played>, AnyGame), ExportError> {
    let mut game = AnyGame::new(record.kind, &record.options)?;
    let mut played = Vec::with_capacity(record.turns.len());
    for (index, text) in record.turns.iter().enumerate() {
        let failed = |error| ReplayError { index: index + 1, text: text.clone(), error };
        // The agreement that ends counting is no side's turn: the game keeps it
        // (`Go::agreed_dead`) for the formats that write it.
        if DeadPieces::is_entry(text) {
            game.play_text(text).map_err(failed)?;
            continue;
        }
        // A turn that `play` accepts is played by the side to move, which then exists.
        let mover = game.to_move().unwrap_or(Color::White);
        let turn = game.parse_turn(text).map_err(failed)?;
        let printed = game.format_turn(turn);
        game.play(turn).map_err(failed)?;
        played.push(Played { text: printed, mover, turn });
    }
    Ok((played, game))
}
