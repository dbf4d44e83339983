//! Property tests over seeded random playouts: the shared properties from the start
//! position, and from set-up positions (cities, crowded boards) every listed turn reads
//! back and plays, unlisted turns are refused without change, and after every turn no
//! enclosed piece is left and no trapped piece was moved alone (rules 6 and 9, recomputed
//! here from the board strings alone).

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use stonemate_engine::chogo::{Chogo, ChogoOptions};
use stonemate_engine::{Game, Turn};

use super::examples::city_position;
use super::{position, rows};
use crate::common::{Checks, check_properties, random_turn};

/// The character on (file, rank) from 0, `-` off the board.
fn at(rows: &[String], file: i32, rank: i32) -> char {
    let row = usize::try_from(6 - rank).ok().and_then(|r| rows.get(r));
    row.and_then(|row| row.chars().nth(usize::try_from(file).ok()?)).unwrap_or('-')
}

fn neighbours(rows: &[String], file: i32, rank: i32) -> [char; 4] {
    [at(rows, file - 1, rank), at(rows, file + 1, rank), at(rows, file, rank - 1), at(rows, file, rank + 1)]
}

fn is_enemy(piece: char, other: char) -> bool {
    other.is_ascii_alphabetic() && other.is_ascii_uppercase() != piece.is_ascii_uppercase()
}

fn naive_enclosed(rows: &[String], file: i32, rank: i32) -> bool {
    let piece = at(rows, file, rank);
    let around = neighbours(rows, file, rank);
    piece.is_ascii_alphabetic() && !around.contains(&'.') && around.iter().filter(|&&c| is_enemy(piece, c)).count() >= 2
}

fn naive_trapped(rows: &[String], file: i32, rank: i32) -> bool {
    let piece = at(rows, file, rank);
    let [west, east, south, north] = neighbours(rows, file, rank);
    (is_enemy(piece, west) && is_enemy(piece, east)) || (is_enemy(piece, south) && is_enemy(piece, north))
}

fn check_turn(game: &Chogo, turn: Turn) {
    let text = game.format_turn(turn);
    assert_eq!(game.parse_turn(&text), Ok(turn), "`{text}` reads back");
    let before = rows(game);
    if let Turn::Move { from, .. } = turn {
        let (file, rank) = (i32::from(from.file()), i32::from(from.rank()));
        assert!(!naive_trapped(&before, file, rank), "`{text}` moves a trapped piece in {before:?}");
    }
    let mut after = game.clone();
    after.play(turn).unwrap_or_else(|e| panic!("listed `{text}` refused: {e}"));
    let after = rows(&after);
    for (file, rank) in (0..8).flat_map(|file| (0..7).map(move |rank| (file, rank))) {
        assert!(!naive_enclosed(&after, file, rank), "after `{text}` an enclosed piece stays: {after:?}");
    }
}

fn check_from(start: Chogo, seed: u64, max_turns: usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = start;
    for _ in 0..max_turns {
        let legal = game.legal_turns();
        for &turn in &legal {
            check_turn(&game, turn);
        }
        for _ in 0..20 {
            let turn = random_turn(&mut rng, 8, 7);
            if !legal.contains(&turn) {
                let mut after = game.clone();
                assert!(after.play(turn).is_err(), "unlisted {turn:?} accepted");
                assert_eq!(format!("{after:?}"), format!("{game:?}"), "refused {turn:?} changed the game");
            }
        }
        let Some(&turn) = legal.choose(&mut rng) else { break };
        game.play(turn).expect("a listed turn plays");
    }
}

fn crowded() -> Chogo {
    position(
        ["--ssss--", "-ss..ss-", "..s..s..", "..SSk...", "..SS.K..", "-S....S-", "--S..S--"],
        stonemate_engine::Color::White,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn random_games_from_the_start_keep_the_shared_properties(seed in any::<u64>()) {
        check_properties(Chogo::new(ChogoOptions::default()), seed, Checks { max_turns: 80, ..Checks::default() });
    }

    #[test]
    fn random_games_from_a_city_keep_the_rules(seed in any::<u64>()) {
        check_from(city_position(), seed, 30);
    }

    #[test]
    fn random_games_from_a_crowded_board_keep_the_rules(seed in any::<u64>()) {
        check_from(crowded(), seed, 30);
    }
}
