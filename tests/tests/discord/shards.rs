//! `--shards`: two bots on one token, `0-0/2` and `1-1/2`, each identify on the gateway
//! with their own `[shard, total]`, and only the one running shard 0 registers the commands.

use std::sync::Arc;
use std::time::Duration;

use stonemate_bot::clock::SystemClock;
use stonemate_bot::service::{Service, Settings};
use stonemate_bot::store::MemoryStore;
use stonemate_tests::fake_discord::{FakeDiscord, RequestKind};
use tokio::sync::oneshot;

use super::harness::{WAIT, config, init, scratch_dir};

/// Starts `serve` with `shards`; the sender stops it.
fn start(fake: &FakeDiscord, shards: &str) -> (oneshot::Sender<()>, tokio::task::JoinHandle<anyhow::Result<()>>) {
    let mut config = config(fake, &scratch_dir(&format!("shards-{}", shards.replace('/', "of"))));
    config.shards = Some(shards.parse().expect("a shard range"));
    let service = Service::new(MemoryStore::new(), Arc::new(SystemClock), Settings::default());
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(stonemate_bot::discord::serve(config, service, async move {
        let _ = stopped.await;
    }));
    (stop, task)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_each_identify_with_their_own_shard_and_one_registers() {
    init();
    let fake = FakeDiscord::start().await;
    let (stop_second, second) = start(&fake, "1-1/2");
    let (stop_first, first) = start(&fake, "0-0/2");
    let mut shards = fake.identified_shards(2, WAIT).await;
    shards.sort_unstable();
    assert_eq!(shards, [[0, 2], [1, 2]], "each shard identifies once, with the total");
    let registered = fake.take(WAIT, |r| matches!(r.kind, RequestKind::Commands { .. })).await;
    assert!(registered.is_some(), "the process running shard 0 did not register the commands");
    let again = fake.take(Duration::from_secs(2), |r| matches!(r.kind, RequestKind::Commands { .. })).await;
    assert!(again.is_none(), "the commands were registered twice: {:?}", again.map(|r| r.kind));
    for (stop, task) in [(stop_first, first), (stop_second, second)] {
        let _ = stop.send(());
        let outcome = tokio::time::timeout(WAIT, task).await.expect("the bot did not stop");
        outcome.expect("the bot's task panicked").expect("the bot stopped with an error");
    }
}
