//! Properties every game must have, checked over seeded random playouts:
//!
//! - every listed legal turn is accepted, and printing then parsing it gives it back;
//! - turns that are not listed are refused, and a refused turn (or unreadable text)
//!   leaves the game exactly as it was;
//! - replaying the printed record from the options gives the same position, directly and
//!   through `AnyGame`.
//!
//! Each game's test file includes this module and calls [`check_properties`] from a
//! `proptest!` block, so failures shrink to a seed.
#![allow(dead_code)]

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use stonemate_engine::{AnyGame, Game, GameOptions, Rect, Role, Square, Turn};

/// How much checking a playout does at each position.
#[derive(Debug, Clone, Copy)]
pub struct Checks {
    pub max_turns: usize,
    /// Legal turns per position that are applied and round-tripped (all if fewer).
    pub legal_sample: usize,
    /// Random turns per position that are checked against the legal list.
    pub random_turns: usize,
}

impl Default for Checks {
    fn default() -> Checks {
        Checks { max_turns: 60, legal_sample: 40, random_turns: 20 }
    }
}

/// Plays a seeded random game from `start`, checking the properties at every position.
/// Returns the record as printed.
pub fn check_properties<G: Game>(start: G, seed: u64, checks: Checks) -> Vec<String> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = start.clone();
    let mut record = Vec::new();
    let (width, height) = {
        let v = game.view();
        (v.width, v.height)
    };
    for _ in 0..checks.max_turns {
        let legal = game.legal_turns();
        check_listed_turns(&game, &legal, checks.legal_sample, &mut rng);
        check_random_turns(&game, &legal, checks.random_turns, width, height, &mut rng);
        check_junk_text(&game, &mut rng);
        let Some(&turn) = legal.choose(&mut rng) else { break };
        record.push(game.format_turn(turn));
        game.play(turn).expect("a listed turn plays");
    }
    check_replay(&start, &game, &record);
    record
}

fn check_listed_turns<G: Game>(game: &G, legal: &[Turn], sample: usize, rng: &mut StdRng) {
    let mut unique = legal.to_vec();
    unique.dedup();
    assert_eq!(unique.len(), legal.len(), "legal turns are listed once each");
    for &turn in legal.choose_multiple(rng, sample) {
        let text = game.format_turn(turn);
        assert_eq!(game.parse_turn(&text), Ok(turn), "`{text}` parses back to the turn it prints");
        let mut after = game.clone();
        assert_eq!(after.play(turn), Ok(()), "listed turn `{text}` plays in {game:?}");
    }
}

fn check_random_turns<G: Game>(game: &G, legal: &[Turn], count: usize, width: u8, height: u8, rng: &mut StdRng) {
    for _ in 0..count {
        let turn = random_turn(rng, width, height);
        let mut after = game.clone();
        let result = after.play(turn);
        if legal.contains(&turn) {
            assert!(result.is_ok(), "listed {turn:?} refused: {result:?}");
        } else {
            assert!(result.is_err(), "{turn:?} is not listed but was accepted in {game:?}");
            assert_eq!(format!("{after:?}"), format!("{game:?}"), "refused {turn:?} changed the game");
        }
    }
}

fn check_junk_text<G: Game>(game: &G, rng: &mut StdRng) {
    const PIECES: &[&str] =
        &["", "R", "N", "K", "P", "S", "x", "@", "=", "-", "e4", "a1", "z9", "pass", "#", "é", "99"];
    let text: String = (0..rng.gen_range(0..6)).map(|_| *PIECES.choose(rng).expect("not empty")).collect();
    let mut after = game.clone();
    if let Ok(turn) = after.parse_turn(&text) {
        let _ = after.play(turn);
    } else {
        assert_eq!(format!("{after:?}"), format!("{game:?}"), "parsing `{text}` changed the game");
    }
}

/// Replays the printed record from the same options, directly and through `AnyGame`.
fn check_replay<G: Game>(start: &G, end: &G, record: &[String]) {
    let mut replayed = G::new(start.options().clone());
    for text in record {
        replayed.play_text(text).unwrap_or_else(|e| panic!("`{text}` replays: {e}"));
    }
    assert_eq!(format!("{replayed:?}"), format!("{end:?}"), "replaying the record gives the same position");
    let pairs = start.options().to_pairs();
    assert_eq!(G::Options::from_pairs(&pairs).as_ref(), Ok(start.options()), "options round-trip through pairs");
    let any = AnyGame::replay(G::KIND, &pairs, record).expect("options are valid");
    assert!(any.error.is_none(), "AnyGame replays the record: {:?}", any.error);
    assert_eq!(any.game.view(), end.view(), "AnyGame replay gives the same view");
}

/// A random turn of any kind on a board of this size (mostly illegal, sometimes legal).
pub fn random_turn(rng: &mut StdRng, width: u8, height: u8) -> Turn {
    let mut square = || Square::new(rng.gen_range(0..width), rng.gen_range(0..height)).expect("on the grid");
    let (a, b, c) = (square(), square(), square());
    let role = Role::ALL[rng.gen_range(0..Role::ALL.len())];
    match rng.gen_range(0..6) {
        0 => Turn::Pass,
        1 | 2 => Turn::Drop { role, to: a },
        3 => Turn::Move { from: a, to: b, promotion: None },
        4 => Turn::Move { from: a, to: b, promotion: Some(role) },
        _ if rng.gen_bool(0.5) => Turn::Tandem { from: Rect::spanning(a, b), to: c },
        _ => Turn::Relocate { from: a, to: b },
    }
}

/// Plays a seeded random game of at most `max_turns` turns without checks.
pub fn random_game<G: Game>(start: G, seed: u64, max_turns: usize) -> (G, Vec<String>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = start;
    let mut record = Vec::new();
    for _ in 0..max_turns {
        let legal = game.legal_turns();
        let Some(&turn) = legal.choose(&mut rng) else { break };
        record.push(game.format_turn(turn));
        game.play(turn).expect("a listed turn plays");
    }
    (game, record)
}

pub fn sq(name: &str) -> Square {
    name.parse().unwrap_or_else(|_| panic!("{name} is a square"))
}

/// Options from `key=value` words, as a test writes them.
pub fn options<O: GameOptions>(text: &str) -> O {
    let pairs = stonemate_engine::options::parse_option_text(text).expect("option text");
    O::from_pairs(&pairs).unwrap_or_else(|e| panic!("options `{text}`: {e}"))
}

/// GNU Go in GTP mode, its standard input and output piped (Debian puts it in
/// `/usr/games`, which is not always on `PATH`).
pub fn spawn_gnugo() -> std::process::Child {
    spawn_gnugo_with(&[])
}

/// [`spawn_gnugo`] with more arguments, such as `--seed 2 --level 1`.
pub fn spawn_gnugo_with(arguments: &[&str]) -> std::process::Child {
    let binary = ["/usr/games/gnugo", "/usr/bin/gnugo"]
        .into_iter()
        .find(|path| std::path::Path::new(path).exists())
        .unwrap_or("gnugo");
    std::process::Command::new(binary)
        .args(["--mode", "gtp"])
        .args(arguments)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("GNU Go is needed for this test (apt-get install gnugo): {e}"))
}
