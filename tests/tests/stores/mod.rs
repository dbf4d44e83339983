//! One conformance suite for every store: each test below runs on the in-memory store, on
//! sled and on PostgreSQL (a throwaway cluster, see `stonemate_tests::postgres`), and the
//! stores must agree to the byte.

mod conformance;
mod outbox;
mod postgres;
mod race;
mod ratings;
mod timers;
mod tournaments;

use stonemate_bot::store::{MemoryStore, PostgresStore, SledStore, Store};

// The service tests' table and callers, shared: every store is driven as the service is.
use crate::service::common;

/// One of the stores under test.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    Memory,
    Sled,
    Postgres,
}

/// A new empty store of one kind, with what keeps it alive (sled's directory).
#[allow(missing_debug_implementations)]
pub struct Fresh {
    pub store: Store,
    _dir: Option<tempfile::TempDir>,
}

impl Kind {
    pub fn open(self) -> Fresh {
        match self {
            Kind::Memory => Fresh { store: MemoryStore::new().into(), _dir: None },
            Kind::Sled => {
                let dir = tempfile::tempdir().unwrap();
                Fresh { store: SledStore::open(dir.path()).unwrap().into(), _dir: Some(dir) }
            }
            Kind::Postgres => {
                let database = stonemate_tests::postgres::database();
                Fresh { store: PostgresStore::open(&database.url).unwrap().into(), _dir: None }
            }
        }
    }
}

/// Runs each named test of [`conformance`] once per store, as `memory::NAME`,
/// `sled::NAME` and `postgres_store::NAME`.
macro_rules! on_every_store {
    ($($test:ident),* $(,)?) => { on_every_store!(conformance: $($test),*); };
    ($module:ident: $($test:ident),* $(,)?) => {
        mod memory { $( #[test] fn $test() { crate::stores::$module::$test(crate::stores::Kind::Memory) } )* }
        mod sled { $( #[test] fn $test() { crate::stores::$module::$test(crate::stores::Kind::Sled) } )* }
        mod postgres_store { $( #[test] fn $test() { crate::stores::$module::$test(crate::stores::Kind::Postgres) } )* }
    };
}

on_every_store!(
    a_new_record_gets_the_next_id_at_version_1,
    a_stale_version_is_refused_and_nothing_is_written,
    updating_a_missing_record_is_refused,
    indices_follow_the_record_in_the_same_write,
    the_player_index_is_kept_by_server,
    user_settings_round_trip,
    a_session_leaves_the_same_bytes_as_in_memory,
    of_two_writers_of_one_version_exactly_one_wins,
    an_export_restores_to_the_same_bytes,
    restoring_into_a_store_with_games_is_refused,
    a_backup_is_claimed_once_per_period,
    a_scheduled_export_imports_to_the_same_games,
    ratings_are_written_with_the_result_by_server_and_game,
    a_stale_rating_refuses_the_whole_write,
    of_two_results_moving_one_rating_at_once_one_wins,
    an_export_keeps_the_ratings,
);

/// The notice outbox, on every store (`outbox::memory::NAME`, ...).
mod outbox_on {
    on_every_store!(
        outbox: notices_are_written_with_their_record_or_not_at_all,
        a_claimed_notice_is_not_claimed_again_until_its_lease_ends,
        claims_take_the_due_notices_oldest_first_up_to_the_limit,
        a_delivered_notice_is_gone_and_a_failed_one_waits_for_its_retry,
        concurrent_claims_never_take_one_notice_twice,
        a_refused_channel_is_reported_once,
    );
}

/// Tournaments, on every store (`tournaments_on::memory::NAME`, ...).
mod tournaments_on {
    on_every_store!(
        tournaments: a_start_writes_the_tournament_and_all_its_games_or_nothing,
        an_export_carries_tournaments,
    );
}
