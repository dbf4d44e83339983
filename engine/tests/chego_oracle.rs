//! Differential test of Chego's attack geometry against python-chess (an independent chess
//! library): on 8x8 boards with K Q R B N P, the squares each piece attacks, how many
//! pieces of each side attack every square, and so which squares are neutral or controlled
//! (definitions 1-2 of `docs/rules/chego.md`; docs/pieces.md's pawn is the chess pawn's capture).
//!
//! Positions are of two kinds: arbitrary placements (pawns on any rank included) and the
//! positions of random Chego games. Needs `python3` with `chess` (`pip install
//! chess==1.11.2`, listed in `.ci/requirements.txt`); fails, saying so, without them.

use crate::common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::random_game;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use stonemate_engine::catalogue::moves;
use stonemate_engine::chego::{AttackMap, Chego, ChegoOptions};
use stonemate_engine::{Board, Color, Game, Piece, Role, Shape, Square};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/oracles/chego_attacks.py");
const INSTALL: &str = "install python3 and python-chess: pip install chess==1.11.2 (see .ci/requirements.txt)";
const ROLES: [Role; 6] = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn];

/// What python-chess says about one square.
#[derive(Debug, PartialEq)]
struct OracleCell {
    counts: [u16; 2],
    attacks: u64,
}

#[test]
fn attack_sets_and_control_match_python_chess() {
    let mut rng = StdRng::seed_from_u64(0xC4E60);
    let boards: Vec<Board> = (0..800).map(|_| random_placement(&mut rng)).collect();
    let oracle = ask_python_chess(&boards);
    assert_eq!(oracle.len(), boards.len(), "python-chess answers every board");
    for (board, cells) in boards.iter().zip(&oracle) {
        compare(board, cells);
    }
}

#[test]
fn game_positions_and_owner_maps_match_python_chess() {
    let games = game_states(20);
    let boards: Vec<Board> = games.iter().map(|game| game.board().clone()).collect();
    let oracle = ask_python_chess(&boards);
    assert_eq!(oracle.len(), boards.len(), "python-chess answers every board");
    for (game, cells) in games.iter().zip(&oracle) {
        compare(game.board(), cells);
        for (square, owner) in game.owner().expect("Chego has owners") {
            let [white, black] = cells[index(square)].counts;
            assert_eq!(owner, control(cells[index(square)].counts), "owner of {square} ({white}:{black})");
        }
    }
}

/// Definition 2 applied to the oracle's counts.
fn control([white, black]: [u16; 2]) -> Option<Color> {
    match white.cmp(&black) {
        std::cmp::Ordering::Greater => Some(Color::White),
        std::cmp::Ordering::Less => Some(Color::Black),
        std::cmp::Ordering::Equal => None,
    }
}

/// Our attack sets (catalogue), attacker counts and control (attack map) against the oracle.
fn compare(board: &Board, cells: &[OracleCell]) {
    let map = AttackMap::of(board);
    for square in board.shape().squares() {
        let cell = &cells[index(square)];
        assert_eq!(map.counts(square), cell.counts, "attackers of {square} in\n{board:?}");
        assert_eq!(map.controller(square), control(cell.counts), "control of {square} in\n{board:?}");
        let ours = board.get(square).map_or(0, |piece| {
            moves(piece.role, piece.color, square, board.shape(), board.occupied()).iter().map(bit).sum()
        });
        assert_eq!(ours, cell.attacks, "attacks of the piece on {square} in\n{board:?}");
    }
}

fn index(square: Square) -> usize {
    usize::from(square.rank()) * 8 + usize::from(square.file())
}

fn bit(square: Square) -> u64 {
    1 << index(square)
}

/// A random 8x8 placement of 0..40 chess pieces of both sides.
fn random_placement(rng: &mut StdRng) -> Board {
    let mut board = Board::empty(Shape::rectangle(8, 8));
    let mut squares: Vec<Square> = board.shape().squares().collect();
    squares.shuffle(rng);
    for &square in squares.iter().take(rng.gen_range(0..40)) {
        let color = if rng.gen_bool(0.5) { Color::White } else { Color::Black };
        board.set(square, Piece::new(color, ROLES[rng.gen_range(0..ROLES.len())]));
    }
    board
}

/// The positions after every turn of a few seeded random games with the chess set.
fn game_states(games: u64) -> Vec<Chego> {
    let mut states = Vec::new();
    for seed in 0..games {
        let start = Chego::new(ChegoOptions::default());
        let (_, record) = random_game(start.clone(), seed, 40);
        let mut game = start;
        for text in &record {
            game.play_text(text).expect("the record replays");
            states.push(game.clone());
        }
    }
    states
}

fn placement(board: &Board) -> String {
    let rows: Vec<String> = (0..8u8)
        .rev()
        .map(|rank| {
            let mut row = String::new();
            let mut empty = 0;
            for square in (0..8u8).filter_map(|file| Square::new(file, rank)) {
                match board.get(square) {
                    Some(piece) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(piece.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            row
        })
        .collect();
    rows.join("/")
}

/// Runs the python-chess script once over all boards.
fn ask_python_chess(boards: &[Board]) -> Vec<Vec<OracleCell>> {
    let mut child = Command::new("python3")
        .arg(SCRIPT)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run python3 ({e}): {INSTALL}"));
    let input: String = boards.iter().map(|board| placement(board) + "\n").collect();
    let mut stdin = child.stdin.take().expect("piped stdin");
    // Write from a thread so a full output pipe cannot block the writer.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("python3 runs");
    writer.join().expect("writer thread").expect("python3 reads the boards");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the python-chess oracle failed ({}): {stderr}\n{INSTALL}", output.status);
    String::from_utf8(output.stdout).expect("utf-8").lines().map(parse_line).collect()
}

fn parse_line(line: &str) -> Vec<OracleCell> {
    line.split(' ')
        .map(|cell| {
            let parts: Vec<&str> = cell.split(':').collect();
            let [white, black, mask] = parts[..] else { panic!("bad oracle cell `{cell}`") };
            let number = |text: &str| text.parse::<u16>().unwrap_or_else(|_| panic!("bad count `{text}`"));
            let attacks = u64::from_str_radix(mask, 16).unwrap_or_else(|_| panic!("bad mask `{mask}`"));
            OracleCell { counts: [number(white), number(black)], attacks }
        })
        .collect()
}
