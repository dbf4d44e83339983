//! What only the PostgreSQL store has: migrations, and errors fit for players.

use postgres::NoTls;
use stonemate_bot::store::{PostgresStore, StoreError};

#[test]
fn migrations_run_once_and_a_second_process_opens_the_same_schema() {
    let database = stonemate_tests::postgres::database();
    let first = PostgresStore::open(&database.url).unwrap();
    let second = PostgresStore::open(&database.url).unwrap();
    assert!(first.dump().unwrap().is_empty() && second.dump().unwrap().is_empty());
    let mut client = postgres::Client::connect(&database.url, NoTls).unwrap();
    let versions: Vec<i32> = client
        .query("SELECT version FROM schema_migrations ORDER BY version", &[])
        .unwrap()
        .iter()
        .map(|row| row.get(0))
        .collect();
    assert_eq!(versions, [1, 2]);
}

#[test]
fn an_unreachable_server_is_reported_without_the_user_or_the_address() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("postgres://secret_user@127.0.0.1:{port}/nowhere?connect_timeout=2");
    let error = PostgresStore::open(&url).unwrap_err();
    assert!(matches!(error, StoreError::Unreachable(_)), "{error:?}");
    let text = error.to_string();
    assert!(text.contains("cannot be reached"), "{text}");
    assert!(!text.contains("secret_user") && !text.contains(&port.to_string()), "{text}");
}

/// A server that answers and refuses is not waited for (`stonemate run` waits only for an
/// unreachable one), and its text, which names the user, stays in the log.
#[test]
fn a_refused_login_is_not_unreachable_and_does_not_name_the_user() {
    let database = stonemate_tests::postgres::database();
    let url = database.url.replacen("postgres://postgres@", "postgres://secret_user@", 1);
    assert_ne!(url, database.url);
    let error = PostgresStore::open(&url).unwrap_err();
    assert!(matches!(error, StoreError::Database(_)), "{error:?}");
    let text = error.to_string();
    assert!(text.contains("PostgreSQL refused the connection (code 28"), "{text}");
    assert!(!text.contains("secret_user"), "{text}");
}

/// Two bots (two stores, each with its own export directory) on one database, checking
/// for the scheduled export at the same moments: each period exactly one of them writes it.
#[test]
fn two_processes_on_one_database_write_each_scheduled_export_once() {
    use stonemate_bot::backup::Backups;
    use stonemate_bot::clock::{Span, Timestamp};

    let database = stonemate_tests::postgres::database();
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let bots: Vec<(PostgresStore, Backups)> = dirs
        .iter()
        .map(|dir| (PostgresStore::open(&database.url).unwrap(), Backups::new(dir.path().into(), Span::HOUR, 100)))
        .collect();
    let start = Timestamp(1_800_000_000_000);
    for step in 0..24 {
        // Every 20 minutes: a third of the checks fall due.
        let now = start + Span::MINUTE * (20 * step);
        let barrier = std::sync::Barrier::new(bots.len());
        std::thread::scope(|scope| {
            for (store, backups) in &bots {
                let barrier = &barrier;
                scope.spawn(move || {
                    barrier.wait();
                    backups.run_if_due(store, now).unwrap()
                });
            }
        });
    }
    let written: usize = dirs.iter().map(|dir| std::fs::read_dir(dir.path()).unwrap().count()).sum();
    assert_eq!(written, 8, "one export per hour over 8 hours, from either process");
}

/// A `COMMIT` cut off by a lost connection may or may not have been applied: the store
/// says the outcome is unknown (and so stops), never that nothing changed. A deferred
/// trigger ends the server process in the middle of the commit.
#[test]
fn a_commit_whose_connection_is_lost_has_an_unknown_outcome() {
    let database = stonemate_tests::postgres::database();
    let store = PostgresStore::open(&database.url).unwrap();
    let mut client = postgres::Client::connect(&database.url, NoTls).unwrap();
    client
        .batch_execute(
            "CREATE FUNCTION cut_off() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NULL; END $$;
             CREATE CONSTRAINT TRIGGER cut_off AFTER INSERT ON games DEFERRABLE INITIALLY DEFERRED
             FOR EACH ROW EXECUTE FUNCTION cut_off();",
        )
        .unwrap();
    let error = store.create(super::conformance::challenge_record()).unwrap_err();
    assert!(matches!(error, StoreError::Unsure(_)), "{error:?}");
    assert!(error.is_storage_failure());
    // A refusal with a reason is no lost answer: nothing was applied, and it says so.
    client.batch_execute("DROP TRIGGER cut_off ON games").unwrap();
    let mut stale = store.create(super::conformance::challenge_record()).unwrap();
    stale.version = 7;
    assert!(matches!(store.update_with(&stale, &[], &[]), Err(StoreError::Conflict)));
}
