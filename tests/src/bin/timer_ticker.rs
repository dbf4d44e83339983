//! One of several processes ticking one PostgreSQL database at the same test time (the
//! two-process timer test of `tests/tests/stores/timers.rs`), as the bot's ticker and
//! outbox sender do: it ticks ([`Service::tick`]) and delivers what it claims from the
//! outbox ([`Service::deliver`]), `TICKS` times.
//!
//! It opens the store, prints `ready`, and starts only once its standard input closes, so
//! that the test starts every process at once. Then it prints `made GAME TEXT` for each
//! notice its ticks committed and `sent GAME TEXT` for each notice it delivered.
//!
//! Usage: `timer_ticker URL NOW_MS TICKS`

use std::io::{Read, Write};
use std::sync::Arc;

use stonemate_bot::clock::{ManualClock, Timestamp};
use stonemate_bot::service::{Delivery, Notice, Service, Settings, Timeouts};
use stonemate_bot::store::PostgresStore;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [url, now, ticks] = args.as_slice() else {
        anyhow::bail!("usage: timer_ticker URL NOW_MS TICKS");
    };
    let (now, ticks) = (Timestamp(now.parse()?), ticks.parse::<usize>()?);
    // With timeouts = "claim", a time out is one notice (to the waiting player), which the
    // test counts: the race is about committing each timer once, whatever it says.
    let settings = Settings { timeouts: Timeouts::Claim, ..Settings::default() };
    let service = Service::new(PostgresStore::open(url)?, Arc::new(ManualClock::at(now)), settings);
    let mut out = std::io::stdout().lock();
    writeln!(out, "ready")?;
    out.flush()?;
    std::io::stdin().read_to_end(&mut Vec::new())?;
    for _ in 0..ticks {
        for notice in service.tick() {
            writeln!(out, "made {}", line(&notice))?;
        }
        for notice in service.deliver(|_| Delivery::Sent) {
            writeln!(out, "sent {}", line(&notice))?;
        }
    }
    if let Some(failure) = service.stopped() {
        anyhow::bail!("the store failed: {failure}");
    }
    Ok(())
}

/// `GAME TEXT` on one line (`-` for a notice about no game).
fn line(notice: &Notice) -> String {
    let about = notice.about.map_or_else(|| "-".to_owned(), |id| id.0.to_string());
    format!("{about} {}", notice.text().replace('\n', " "))
}
