//! One of N processes of the throughput harness (`benches/throughput.rs`): it plays its
//! own games on one PostgreSQL database (see `stonemate_tests::load`) from the instant
//! `START_MS` (Unix milliseconds, so that all N begin together) for `SECONDS`, then prints
//! `confirmed N refused M`.
//!
//! Usage: `turn_player URL INDEX START_MS SECONDS`

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use stonemate_bot::store::PostgresStore;
use stonemate_tests::load::{PAIRS_PER_PLAYER, play_until, service};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [url, index, start_ms, seconds] = args.as_slice() else {
        anyhow::bail!("usage: turn_player URL INDEX START_MS SECONDS");
    };
    let (index, start_ms, seconds) = (index.parse::<u64>()?, start_ms.parse::<u64>()?, seconds.parse::<f64>()?);
    let service = service(PostgresStore::open(url)?);
    let now_ms = u64::try_from(SystemTime::now().duration_since(UNIX_EPOCH)?.as_millis())?;
    std::thread::sleep(Duration::from_millis(start_ms.saturating_sub(now_ms)));
    let until = Instant::now() + Duration::from_secs_f64(seconds);
    let played = play_until(&service, (index + 1) * PAIRS_PER_PLAYER, index, until);
    println!("confirmed {} refused {}", played.confirmed, played.refused);
    Ok(())
}
