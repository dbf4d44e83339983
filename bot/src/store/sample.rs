//! One game record to build on, for the tests, the benchmarks and the store harness: each
//! changes the fields it is about (`GameRecord { turns, ..sample_record(...) }`) instead of
//! spelling out every field, so that a field added to [`GameRecord`] is added here once.

use stonemate_engine::{AnyGame, Color, GameKind};

use super::record::{ColorChoice, GameRecord, Origin, Pending, Phase, Seat, Seats, TurnClock};
use crate::clock::{Span, Timestamp};
use crate::ids::{ChannelId, GameId, GuildId, UserId};

/// A game of `kind` with `options` (and the game's defaults for the rest) between `white`,
/// who challenged, and `black`, named `player<id>`; made at `now` in channel 1 of server 1,
/// three days a turn, playing, its first turn's clock running, no turn played; id and
/// version 0 (as [`super::Store::create`] takes them).
///
/// # Panics
/// When `options` are not valid options of `kind`.
#[doc(hidden)]
#[must_use]
pub fn sample_record(
    kind: GameKind,
    options: &[(String, String)],
    [white, black]: [UserId; 2],
    now: Timestamp,
) -> GameRecord {
    GameRecord {
        id: GameId(0),
        version: 0,
        kind,
        options: AnyGame::new(kind, options).expect("valid options").option_pairs(),
        days: 3,
        seats: Seats {
            challenger_side: Some(Color::White),
            ..Seats::new(
                Seat::new(white, format!("player{}", white.0)),
                Seat::new(black, format!("player{}", black.0)),
                ColorChoice::White,
            )
        },
        origin: Origin {
            channel: ChannelId(1),
            guild: Some(GuildId(1)),
            created: now,
            expires: now,
            rematch_of: None,
            tournament: None,
            thread: None,
        },
        phase: Phase::Playing,
        turns: Vec::new(),
        clock: Some(TurnClock::new(now, now + Span::days(3))),
        pending: Pending::default(),
        result: None,
    }
}
