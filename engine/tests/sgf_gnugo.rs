//! The SGF of a game of Go with rooks is a go game: GNU Go loads it (`loadsgf`) and finds
//! the stones where our board has the rooks, captures included. This checks the
//! coordinates (our `a1` is the bottom-left corner) and that nothing in the file disturbs
//! a go program, against a program that has read SGF for decades.

use crate::common;

use std::io::Write;

use stonemate_engine::formats::{Record, sgf};
use stonemate_engine::go::Go;
use stonemate_engine::{AnyGame, Cell, Game, GameKind, Square};

use common::{options, random_game};

/// GNU Go's answers to `loadsgf FILE` then `list_stones` for both colours.
fn gnugo_stones(sgf_text: &str, name: &str) -> [Vec<String>; 2] {
    let path = std::env::temp_dir().join(format!("stonemate-{}-{name}.sgf", std::process::id()));
    std::fs::write(&path, sgf_text).unwrap();
    let mut child = common::spawn_gnugo();
    let commands = format!("loadsgf {}\nlist_stones white\nlist_stones black\nquit\n", path.display());
    child.stdin.take().unwrap().write_all(commands.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    let _ = std::fs::remove_file(&path);
    let text = String::from_utf8(output.stdout).unwrap();
    let answers: Vec<&str> = text.split("\n\n").map(str::trim).filter(|answer| !answer.is_empty()).collect();
    assert!(answers.len() >= 3 && answers[0].starts_with('='), "GNU Go refused the file: {text}\n{sgf_text}");
    let stones = |answer: &str| {
        let mut stones: Vec<String> = answer.trim_start_matches('=').split_whitespace().map(str::to_owned).collect();
        stones.sort();
        stones
    };
    [stones(answers[1]), stones(answers[2])]
}

/// A square as GTP names it: columns A..T without I, rows from 1 at the bottom.
fn gtp_vertex(square: Square) -> String {
    let column = (b'A'..=b'Z').filter(|&letter| letter != b'I').nth(usize::from(square.file())).unwrap();
    format!("{}{}", char::from(column), square.rank() + 1)
}

/// Our board's rooks of each colour, as GTP vertices.
fn our_stones(game: &AnyGame) -> [Vec<String>; 2] {
    let view = game.view();
    let mut stones = [Vec::new(), Vec::new()];
    for rank in 0..view.height {
        for file in 0..view.width {
            let square = Square::new(file, rank).unwrap();
            if let Cell::Piece(piece) = view.cell(square) {
                stones[piece.color.index()].push(gtp_vertex(square));
            }
        }
    }
    for list in &mut stones {
        list.sort();
    }
    stones
}

fn check(board: &str, seed: u64, turns: usize) {
    let text = format!("board={board}");
    let (_, played) = random_game(Go::new(options(&text)), seed, turns);
    let pairs = stonemate_engine::options::parse_option_text(&text).unwrap();
    let replay = AnyGame::replay(GameKind::Go, &pairs, &played).unwrap();
    let record = Record {
        kind: GameKind::Go,
        options: pairs,
        players: ["white".to_owned(), "black".to_owned()],
        turns: played,
        ending: replay.game.status().ending(),
        date: None,
        title: None,
        site: None,
    };
    let file = sgf::write(&record).unwrap();
    let ours = our_stones(&replay.game);
    assert!(ours.iter().all(|stones| !stones.is_empty()), "the game should leave stones of both colours");
    assert_eq!(gnugo_stones(&file, &format!("{board}-{seed}")), ours, "{file}");
}

#[test]
fn gnu_go_loads_a_random_rook_game_on_9x9_with_the_stones_where_ours_are() {
    check("9x9", 3, 120);
}

#[test]
fn gnu_go_loads_a_random_rook_game_on_19x19_with_the_stones_where_ours_are() {
    check("19x19", 5, 300);
}
