//! How long a turn takes through Discord: from the fake sending `/move` on the gateway to
//! receiving the reply with its board PNG, on the largest board (Go, 25x25). A
//! measurement, not a test: run it in a release build and read the numbers.
//!
//!     cargo test --release -p stonemate-tests --test main -- --ignored --nocapture discord::latency::turn_latency

use serde_json::json;
use stonemate_tests::fake_discord::{FakeDiscord, Origin, RequestKind};

use super::harness::*;

const TURNS: usize = 200;

/// Squares for 100 black and 100 white stones that never capture each other: Black fills
/// ranks 1-4, White ranks 10-13 of the 25x25 board.
fn turn_squares() -> Vec<String> {
    let files: Vec<char> = ('a'..='y').collect();
    let row = |rank: usize| files.iter().map(move |file| format!("{file}{rank}")).collect::<Vec<_>>();
    let black: Vec<String> = (1..=4).flat_map(row).collect();
    let white: Vec<String> = (10..=13).flat_map(row).collect();
    black.into_iter().zip(white).flat_map(|(b, w)| [b, w]).take(TURNS).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement: run with --release --ignored --nocapture"]
async fn turn_latency_on_the_largest_board() {
    init();
    let fake = FakeDiscord::start().await;
    let dir = scratch_dir("latency");
    let mut config = config(&fake, &dir);
    config.tick_seconds = 3600;
    let (bot, _) = Bot::start(&fake, config, real_service(&dir)).await;
    let (alice, bob) = (player(&fake, "alice"), player(&fake, "bob"));
    start_game(&fake, &alice, &bob).await;

    let mut times = Vec::with_capacity(TURNS);
    for (n, square) in turn_squares().iter().enumerate() {
        let mover = if n % 2 == 0 { &alice } else { &bob };
        let sent = fake.command(mover, "move", json!([text("notation", square)]));
        let played = answer(&fake, &sent).await;
        assert!(!played.is_private(), "{square}: {}", played.content());
        assert_eq!(played.files.len(), 1, "{square}: one board picture");
        times.push(played.at - sent.at);
        // The turn ping that follows; taken so the log stays short.
        let _ = fake.take(WAIT, |r| matches!(r.kind, RequestKind::ChannelMessage { .. })).await;
    }
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "turn latency, Go 25x25, {TURNS} turns: median {:?}, p90 {:?}, p99 {:?}, max {:?}",
        at(0.5),
        at(0.9),
        at(0.99),
        times[times.len() - 1]
    );
    bot.stop().await;
}

async fn start_game(fake: &FakeDiscord, alice: &Origin, bob: &Origin) {
    let options = json!([
        user("opponent", bob),
        text("game", "go"),
        text("color", "black"),
        integer("days", 0),
        text("options", "board=25x25"),
    ]);
    let challenge = command(fake, alice, "challenge", options).await;
    let accept = button(&challenge, "accept");
    let started = answer(fake, &fake.press(bob, &challenge.message.clone().expect("message"), &accept)).await;
    assert!(!started.is_private(), "{}", started.content());
}
