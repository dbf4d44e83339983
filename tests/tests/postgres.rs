//! The throwaway PostgreSQL of the tests: it starts, answers, and keeps tests apart.

use stonemate_tests::postgres as throwaway;

fn connect(database: &throwaway::Database) -> postgres::Client {
    postgres::Client::connect(&database.url, postgres::NoTls).expect("the test database accepts connections")
}

#[test]
fn a_test_database_answers_select_1() {
    let database = throwaway::database();
    let row = connect(&database).query_one("SELECT 1", &[]).unwrap();
    assert_eq!(row.get::<_, i32>(0), 1);
}

#[test]
fn each_test_gets_a_database_of_its_own() {
    let (first, second) = (throwaway::database(), throwaway::database());
    assert_ne!(first.name, second.name);
    connect(&first).batch_execute("CREATE TABLE mine (n int); INSERT INTO mine VALUES (7)").unwrap();
    let tables = connect(&second).query("SELECT 1 FROM pg_tables WHERE tablename = 'mine'", &[]).unwrap();
    assert!(tables.is_empty(), "a table of one test database shows in another");
}

#[test]
fn the_server_listens_on_localhost_only() {
    let database = throwaway::database();
    let row = connect(&database).query_one("SHOW listen_addresses", &[]).unwrap();
    assert_eq!(row.get::<_, String>(0), "127.0.0.1");
}
