//! One of several processes racing on one game in one PostgreSQL database (the two-process
//! race test of `tests/tests/stores/race.rs`): it plays random legal turns for whichever
//! side is to move, through the service, until the game has `TURNS` turns or ends. Each
//! submitted turn is printed as `ok TURN` (confirmed) or `no TURN` (refused).
//!
//! Usage: `race_player URL GAME_ID TURNS SEED`

use std::io::Write;
use std::sync::Arc;

use rand::seq::SliceRandom;
use rand::{SeedableRng, rngs::StdRng};
use stonemate_bot::clock::{ManualClock, Timestamp};
use stonemate_bot::service::{Caller, Command, GameId, Service, Settings, User};
use stonemate_bot::store::PostgresStore;
use stonemate_engine::AnyGame;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [url, id, turns, seed] = args.as_slice() else {
        anyhow::bail!("usage: race_player URL GAME_ID TURNS SEED");
    };
    let (id, turns, seed) = (GameId(id.parse()?), turns.parse::<usize>()?, seed.parse::<u64>()?);
    let store = PostgresStore::open(url)?;
    let clock = Arc::new(ManualClock::at(Timestamp(1_700_000_000_000)));
    let service = Service::new(store.clone(), clock, Settings::default());
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = std::io::stdout().lock();
    loop {
        let record = store.load(id)?.ok_or_else(|| anyhow::anyhow!("no game {}", id.0))?;
        let position = AnyGame::replay(record.kind, &record.options, &record.turns)?.game;
        let Some(side) = position.to_move() else { break };
        if record.turns.len() >= turns {
            break;
        }
        let mover = record.seats.player(side).ok_or_else(|| anyhow::anyhow!("no player"))?;
        let user = User::new(mover.0, record.name_of(mover));
        let caller = Caller::new(user, record.channel(), record.guild());
        let mut legal: Vec<String> = position.legal_turn_texts().into_iter().filter(|turn| turn != "pass").collect();
        legal.shuffle(&mut rng);
        let Some(turn) = legal.first() else { break };
        let command = Command::Move { notation: turn.clone(), game: Some(id) };
        let ok = service.handle(&caller, command).reply.ok;
        writeln!(out, "{} {turn}", if ok { "ok" } else { "no" })?;
    }
    Ok(())
}
