//! The service over its stores. What every store must do (compare-and-swap, indices kept
//! with the record, the same bytes on memory, sled and PostgreSQL) is the conformance
//! suite in `tests/tests/stores/`.

use stonemate_bot::service::Service;
use stonemate_bot::store::{MemoryStore, PostgresStore, SledStore};

#[test]
fn the_service_is_shareable_between_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<Service>();
    shareable::<SledStore>();
    shareable::<MemoryStore>();
    shareable::<PostgresStore>();
}
