//! Load for the throughput harnesses (`benches/throughput.rs`, `bin/turn_player.rs`):
//! 19x19 games, each between two players of its own, played with random legal turns
//! through the service as fast as it confirms them. Pictures are not drawn (a bench
//! measures the store, not the renderer).

use std::sync::Arc;
use std::time::Instant;

use rand::seq::SliceRandom;
use rand::{SeedableRng, rngs::StdRng};
use stonemate_bot::clock::{ManualClock, Timestamp};
use stonemate_bot::service::{
    Caller, ChannelId, ColorChoice, Command, GameId, GuildId, Level, Service, Settings, User,
};
use stonemate_bot::store::Store;
use stonemate_engine::{AnyGame, Color, GameKind};

/// Players are numbered from `pair * 2`; give each thread and process its own range.
pub const PAIRS_PER_PLAYER: u64 = 1_000_000;

/// The service a load runs against: no pictures, a fixed clock.
pub fn service(store: impl Into<Store>) -> Service {
    let settings = Settings { render: |_| Vec::new(), ..Settings::default() };
    Service::new(store, Arc::new(ManualClock::at(Timestamp(1_700_000_000_000))), settings)
}

/// What one player did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Played {
    /// Turns the service confirmed (stored durably).
    pub confirmed: u64,
    /// Turns it refused: none are expected, since no one else plays these games.
    pub refused: u64,
}

/// A game in progress, kept locally so that choosing a turn needs no read.
struct Game {
    id: GameId,
    players: [User; 2],
    position: AnyGame,
}

/// Plays until `until` on games of players `first_pair * 2 ...`; returns what was played.
///
/// # Panics
/// When a game cannot be started (the service or store failed).
pub fn play_until(service: &Service, first_pair: u64, seed: u64, until: Instant) -> Played {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut played = Played::default();
    let mut pair = first_pair;
    let mut game: Option<Game> = None;
    while Instant::now() < until {
        let current = game.get_or_insert_with(|| {
            pair += 1;
            start(service, pair)
        });
        let mut legal: Vec<String> =
            current.position.legal_turn_texts().into_iter().filter(|turn| turn != "pass").collect();
        legal.shuffle(&mut rng);
        let (Some(side), Some(turn)) = (current.position.to_move(), legal.first()) else {
            game = None;
            continue;
        };
        let mover = &current.players[usize::from(side == Color::Black)];
        let caller = Caller::new(mover.clone(), ChannelId(1), Some(GuildId(1)));
        let command = Command::Move { notation: turn.clone(), game: Some(current.id) };
        if service.handle(&caller, command).reply.ok {
            played.confirmed += 1;
            current.position.play_text(turn).expect("a confirmed turn plays");
        } else {
            played.refused += 1;
            game = None;
        }
    }
    played
}

fn start(service: &Service, pair: u64) -> Game {
    let players = [User::new(pair * 2, "white"), User::new(pair * 2 + 1, "black")];
    let caller = |user: &User| Caller::new(user.clone(), ChannelId(1), Some(GuildId(1)));
    let options = "board=19x19";
    let challenge = Command::Challenge {
        opponent: Some(players[1].clone()),
        game: GameKind::Go,
        color: ColorChoice::White,
        days: Some(3),
        options: Some(options.into()),
        level: Level::Medium,
    };
    let reply = service.handle(&caller(&players[0]), challenge).reply;
    let id = reply.about.unwrap_or_else(|| panic!("no challenge: {}", reply.text()));
    let accepted = service.handle(&caller(&players[1]), Command::Accept { challenge: Some(id) }).reply;
    assert!(accepted.ok, "not accepted: {}", accepted.text());
    let position = AnyGame::new(GameKind::Go, &[("board".into(), "19x19".into())]).expect("a 19x19 game");
    Game { id, players, position }
}
