//! The turn picker over random positions of all five games: every step offers at most 25
//! choices, each with a distinct value and leading to a legal turn; every legal turn is
//! reached by exactly one path, and the path names the turn that is then played.

use std::collections::HashSet;

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use stonemate_engine::options::parse_option_text;
use stonemate_engine::picker::MAX_CHOICES;
use stonemate_engine::{AnyGame, GameKind, Pick, Picker, Turn, preview};

/// Walks every path of the picker; returns each turn reached with the taps it took.
fn walk(picker: &Picker, game: &AnyGame) -> Vec<(Turn, usize)> {
    let mut reached = Vec::new();
    let mut stack: Vec<Vec<String>> = vec![Vec::new()];
    while let Some(path) = stack.pop() {
        match picker.at(&path).unwrap_or_else(|error| panic!("{path:?} in {game:?}: {error}")) {
            Pick::Done(turn) => reached.push((turn, path.len())),
            Pick::Choose(options) => {
                assert!(options.len() >= 2, "a step offers a real choice: {options:?} after {path:?}");
                assert!(options.len() <= MAX_CHOICES, "{} choices after {path:?}: {options:?}", options.len());
                let values: HashSet<&str> = options.iter().map(|option| option.value.as_str()).collect();
                assert_eq!(values.len(), options.len(), "distinct values after {path:?}: {options:?}");
                // A player reads labels: no two choices of a step may read the same.
                let labels: HashSet<&str> = options.iter().map(|option| option.label.as_str()).collect();
                assert_eq!(labels.len(), options.len(), "distinct labels after {path:?}: {options:?}");
                for option in options {
                    assert!(!option.value.is_empty() && !option.value.contains(['.', ':']), "{option:?}");
                    assert!(!option.label.is_empty() && option.label.chars().count() <= 100, "{option:?}");
                    let mut next = path.clone();
                    next.push(option.value);
                    stack.push(next);
                }
            }
        }
    }
    reached
}

/// Checks the picker of `game` against its legal turns; returns the taps of each turn.
fn check(game: &AnyGame) -> Vec<usize> {
    let legal: HashSet<Turn> = game.legal_turns().into_iter().collect();
    if legal.is_empty() {
        return Vec::new();
    }
    let picker = Picker::new(game);
    let reached = walk(&picker, game);
    let turns: HashSet<Turn> = reached.iter().map(|(turn, _)| *turn).collect();
    assert_eq!(turns.len(), reached.len(), "each turn by one path");
    assert_eq!(turns, legal, "the picker reaches exactly the legal turns of {game:?}");
    for (turn, taps) in reached.iter().step_by(7) {
        let path = picker.path_to(*turn).expect("a legal turn has a path");
        assert_eq!((path.len(), picker.turn(&path)), (*taps, Some(*turn)));
    }
    for (turn, _) in reached.iter().take(5) {
        let shown = preview(game, *turn).expect("a picked turn plays");
        assert!(shown.words.starts_with(&shown.notation));
    }
    reached.into_iter().map(|(_, taps)| taps).collect()
}

/// A random position of `kind` with these options after up to `turns` random turns.
fn position(kind: GameKind, options: &str, seed: u64, turns: usize) -> AnyGame {
    let mut rng = StdRng::seed_from_u64(seed);
    let pairs = parse_option_text(options).expect("options");
    let mut game = AnyGame::new(kind, &pairs).expect("a game");
    let played = rng.gen_range(0..=turns);
    for _ in 0..played {
        let legal = game.legal_turns();
        let Some(&turn) = legal.choose(&mut rng) else { break };
        game.play(turn).expect("a legal turn");
    }
    game
}

/// Options of every game, board sizes from the smallest to the largest.
fn settings() -> Vec<(GameKind, String, usize)> {
    let mut all = vec![
        (GameKind::IChess, String::new(), 80),
        (GameKind::Gess, String::new(), 40),
        (GameKind::Chogo, String::new(), 80),
        (GameKind::Chego, String::new(), 40),
        (GameKind::Chego, "board=4x4".to_owned(), 20),
        (GameKind::Chego, "board=16x16".to_owned(), 60),
        (GameKind::Go, "pieces=RNBPHG moving=on board=6x5:c3,d4".to_owned(), 40),
        (GameKind::Go, "pieces=QRBN board=13x13".to_owned(), 60),
    ];
    for side in [2, 5, 9, 19, 25] {
        all.push((GameKind::Go, format!("board={side}x{side}"), 60));
    }
    all
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    #[test]
    fn every_legal_turn_by_one_path_of_small_steps(seed in any::<u64>()) {
        for (kind, options, turns) in settings() {
            check(&position(kind, &options, seed, turns));
        }
    }
}

#[test]
fn the_picked_turn_is_the_one_played() {
    let game = position(GameKind::Chogo, "", 7, 30);
    let picker = Picker::new(&game);
    let mut path: Vec<String> = Vec::new();
    let turn = loop {
        match picker.at(&path).unwrap() {
            Pick::Done(turn) => break turn,
            Pick::Choose(options) => path.push(options[options.len() / 2].value.clone()),
        }
    };
    let mut played = game.clone();
    played.play(turn).unwrap();
    assert_eq!(preview(&game, turn).unwrap().after.view(), played.view());
}

/// Taps per turn, median over every legal turn of random positions, for the notes:
/// `cargo test -p stonemate-engine --test main picker::taps -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check"]
fn taps_per_turn() {
    for (kind, options, turns) in settings() {
        let mut medians = Vec::new();
        let mut all = Vec::new();
        for seed in 0..40 {
            let mut taps = check(&position(kind, &options, seed, turns));
            if taps.is_empty() {
                continue;
            }
            taps.sort_unstable();
            medians.push(taps[taps.len() / 2]);
            all.extend(taps);
        }
        medians.sort_unstable();
        all.sort_unstable();
        let mean = all.iter().sum::<usize>() as f64 / all.len().max(1) as f64;
        println!(
            "{kind} {options:?}: median over positions {}, over turns {}, mean {mean:.2}, max {}",
            medians[medians.len() / 2],
            all[all.len() / 2],
            all.last().unwrap_or(&0)
        );
    }
}

/// Every phase and kind of turn is met by the checks: random games are searched for
/// positions that offer each (deployment drops, promotions, tandems, mole drops, king
/// drops, passes, moves of go pieces and of Gess blocks), and the picker of each is checked.
#[test]
fn every_kind_of_turn_is_picked() {
    type Wanted = (&'static str, GameKind, &'static str, fn(&Turn) -> bool);
    let wanted: [Wanted; 7] = [
        ("deployment drop", GameKind::IChess, "", |turn| matches!(turn, Turn::Drop { .. })),
        ("promotion", GameKind::IChess, "", |turn| matches!(turn, Turn::Move { promotion: Some(_), .. })),
        ("tandem", GameKind::Chogo, "", |turn| matches!(turn, Turn::Tandem { .. })),
        ("mole drop", GameKind::Chogo, "", |turn| matches!(turn, Turn::Relocate { .. })),
        ("king drop", GameKind::Chogo, "", |turn| matches!(turn, Turn::Drop { .. })),
        ("go move", GameKind::Go, "board=7x7 pieces=RN moving=on", |turn| matches!(turn, Turn::Move { .. })),
        ("chego pass", GameKind::Chego, "", |turn| matches!(turn, Turn::Pass)),
    ];
    for (name, kind, options, fits) in wanted {
        let found = (0..300u64).find_map(|seed| {
            let game = position(kind, options, seed, 200);
            game.legal_turns().iter().any(fits).then_some(game)
        });
        let game = found.unwrap_or_else(|| panic!("no position offers a {name}"));
        let taps = check(&game);
        assert!(!taps.is_empty(), "{name}");
    }
}
