//! Gess legal moves checked against a second, deliberately naive generator.
//!
//! The naive generator below is written straight from the rules text and shares nothing
//! with the engine's: a 20x20 grid of characters instead of bit rows, every candidate move
//! simulated in full on a copy of the grid (lift, clear, put down, clear the outer ring),
//! and rings found by looking at all eight neighbours of every empty square. It is slow,
//! and simple enough to read against `docs/rules/gess.md` line by line.

use std::collections::{BTreeSet, HashSet};

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use stonemate_engine::gess::Gess;
use stonemate_engine::{Color, Game, Square, Turn};

const N: i32 = 20;
const EMPTY: char = '.';
/// The eight directions of rule 4 as (files, ranks).
const DIRECTIONS: [(i32, i32); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// `grid[file][rank]`, 0-based: `b` Black, `w` White, `.` empty.
type Grid = [[char; N as usize]; N as usize];

fn at(grid: &Grid, file: i32, rank: i32) -> char {
    if (0..N).contains(&file) && (0..N).contains(&rank) { grid[file as usize][rank as usize] } else { EMPTY }
}

fn put(grid: &mut Grid, file: i32, rank: i32, stone: char) {
    grid[file as usize][rank as usize] = stone;
}

fn inner(file: i32, rank: i32) -> bool {
    (1..=18).contains(&file) && (1..=18).contains(&rank)
}

fn name(file: i32, rank: i32) -> String {
    format!("{}{}", char::from(b'a' + file as u8), rank + 1)
}

/// Rule 7: an empty square whose eight neighbours all hold the player's stones.
fn has_ring(grid: &Grid, player: char) -> bool {
    (0..N).any(|file| {
        (0..N).any(|rank| {
            at(grid, file, rank) == EMPTY
                && (-1..=1).all(|df| (-1..=1).all(|dr| (df, dr) == (0, 0) || at(grid, file + df, rank + dr) == player))
        })
    })
}

/// Rule 6, literally: lift the piece, empty the new footprint, put the piece down, then
/// empty the outer ring.
fn after_move(grid: &Grid, player: char, from: (i32, i32), to: (i32, i32)) -> Grid {
    let mut next = *grid;
    let mut piece = Vec::new();
    for df in -1..=1 {
        for dr in -1..=1 {
            if at(grid, from.0 + df, from.1 + dr) == player {
                piece.push((df, dr));
                put(&mut next, from.0 + df, from.1 + dr, EMPTY);
            }
        }
    }
    for df in -1..=1 {
        for dr in -1..=1 {
            put(&mut next, to.0 + df, to.1 + dr, EMPTY);
        }
    }
    for (df, dr) in piece {
        put(&mut next, to.0 + df, to.1 + dr, player);
    }
    for i in 0..N {
        for (file, rank) in [(0, i), (N - 1, i), (i, 0), (i, N - 1)] {
            put(&mut next, file, rank, EMPTY);
        }
    }
    next
}

/// Rule 5: does the footprint centred on `at_centre` cover a stone outside the starting
/// footprint centred on `start`?
fn meets_a_stone(grid: &Grid, start: (i32, i32), at_centre: (i32, i32)) -> bool {
    (-1..=1).any(|df| {
        (-1..=1).any(|dr| {
            let (file, rank) = (at_centre.0 + df, at_centre.1 + dr);
            let in_start = (file - start.0).abs() <= 1 && (rank - start.1).abs() <= 1;
            !in_start && at(grid, file, rank) != EMPTY
        })
    })
}

/// Every legal move of `player`, as `from-to` texts.
fn naive_moves(grid: &Grid, player: char) -> BTreeSet<String> {
    let mut moves = BTreeSet::new();
    for cf in 1..=18 {
        for cr in 1..=18 {
            let area: Vec<char> = (-1..=1)
                .flat_map(|df| (-1..=1).map(move |dr| (df, dr)))
                .map(|(df, dr)| at(grid, cf + df, cr + dr))
                .collect();
            let own = area.iter().filter(|&&c| c == player).count();
            let enemy = area.iter().filter(|&&c| c != player && c != EMPTY).count();
            if own == 0 || enemy > 0 {
                continue;
            }
            let limit = if at(grid, cf, cr) == player { 100 } else { 3 };
            for (df, dr) in DIRECTIONS {
                if at(grid, cf + df, cr + dr) != player {
                    continue;
                }
                for distance in 1..=limit {
                    let to = (cf + df * distance, cr + dr * distance);
                    if !inner(to.0, to.1) {
                        break;
                    }
                    if has_ring(&after_move(grid, player, (cf, cr), to), player) {
                        moves.insert(format!("{}-{}", name(cf, cr), name(to.0, to.1)));
                    }
                    if meets_a_stone(grid, (cf, cr), to) {
                        break;
                    }
                }
            }
        }
    }
    moves
}

fn grid_of(game: &Gess) -> Grid {
    let mut grid = [[EMPTY; N as usize]; N as usize];
    let setup = game.setup();
    for (set, stone) in [(setup.black, 'b'), (setup.white, 'w')] {
        for square in set.iter() {
            put(&mut grid, i32::from(square.file()), i32::from(square.rank()), stone);
        }
    }
    grid
}

fn player(game: &Gess) -> char {
    match game.to_move() {
        Some(Color::White) => 'w',
        _ => 'b',
    }
}

fn engine_moves(game: &Gess) -> BTreeSet<String> {
    let turns = game.legal_turns();
    let texts: BTreeSet<String> = turns.iter().map(|&turn| game.format_turn(turn)).collect();
    assert_eq!(texts.len(), turns.len(), "no move is listed twice");
    texts
}

/// Rule 2 written out from the rules text, independently of the engine's table.
fn rule_2_grid() -> Grid {
    let mut grid = [[EMPTY; N as usize]; N as usize];
    let black = [(2, "ceghijklmnpr"), (3, "bcdfhijkmoqrs"), (4, "ceghijklmnpr"), (7, "cfilor")];
    for (rank, files) in black {
        for file in files.bytes().filter(u8::is_ascii_lowercase).map(|b| i32::from(b - b'a')) {
            put(&mut grid, file, rank - 1, 'b');
            put(&mut grid, file, N - rank, 'w');
        }
    }
    grid
}

/// The start position's move count, from the naive generator. Written out as a number
/// too, so that a change to either generator shows up as a changed count.
#[test]
fn rule_2_start_move_count_matches_the_naive_generator() {
    let game = Gess::new(Default::default());
    assert_eq!(grid_of(&game), rule_2_grid(), "the engine's start is rule 2's");
    let naive = naive_moves(&rule_2_grid(), 'b');
    assert_eq!(naive.len(), START_MOVES, "the naive count");
    assert_eq!(game.legal_turns().len(), START_MOVES);
    assert_eq!(game.legal_move_count(), START_MOVES);
    assert_eq!(engine_moves(&game), naive);
}

/// Black's legal moves at the start (rule 2 position), as the naive generator counts.
const START_MOVES: usize = 319;

/// The engine and the naive generator agree on every position of random games played to
/// the end.
#[test]
fn legal_moves_match_the_naive_generator_along_random_games() {
    for seed in 0..10 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = Gess::new(Default::default());
        while let Some(to_move) = game.to_move() {
            let naive = naive_moves(&grid_of(&game), player(&game));
            assert_eq!(engine_moves(&game), naive, "seed {seed} {game:?}");
            let turn = *game.legal_turns().choose(&mut rng).expect("a player with a ring can move");
            game.play(turn).expect("a listed move plays");
            // Rule 9: the game ends exactly when the opponent has no ring left.
            let opponent = if to_move == Color::Black { 'w' } else { 'b' };
            assert_eq!(game.to_move().is_none(), !has_ring(&grid_of(&game), opponent), "seed {seed} {game:?}");
        }
    }
}

/// `play` accepts exactly the listed moves: every pair of inner centres is tried.
#[test]
fn play_accepts_exactly_the_listed_moves() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut game = Gess::new(Default::default());
    for ply in 0..60 {
        if ply % 20 == 0 {
            let legal: HashSet<Turn> = game.legal_turns().into_iter().collect();
            let inner: Vec<Square> = (1..19).flat_map(|r| (1..19).filter_map(move |f| Square::new(f, r))).collect();
            for &from in &inner {
                for &to in &inner {
                    let turn = Turn::movement(from, to);
                    assert_eq!(game.is_legal(turn), legal.contains(&turn), "{turn} at ply {ply}");
                }
            }
        }
        let Some(&turn) = game.legal_turns().choose(&mut rng) else { break };
        game.play(turn).expect("a listed move plays");
    }
}
