//! What only the PostgreSQL store has: migrations, and errors fit for players.

use postgres::NoTls;
use stonemate_bot::store::{GameStore, PostgresStore, StoreError};

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
fn an_unreachable_server_is_reported_without_the_drivers_text() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("postgres://secret_user@127.0.0.1:{port}/nowhere?connect_timeout=2");
    let error = PostgresStore::open(&url).unwrap_err();
    assert!(matches!(error, StoreError::Database(_)), "{error:?}");
    let text = error.to_string();
    assert!(!text.contains("secret_user") && !text.contains(&port.to_string()), "{text}");
}
