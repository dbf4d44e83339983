//! The two alpha-beta searches (iChess's and Chogo's), pinned: for positions of each game
//! (openings, middle games, mates in n) at fixed node budgets and no time limit, the turn
//! chosen, the nodes spent (in all and on that turn) and the value reported are exactly
//! what the searches gave when this test was written (`tests/data/pinned.txt`, recorded
//! from main at 11f2b4d, before the two searches came to share their root loop; the
//! deployment rows again with issue 42's deployment threats, see the data file). A
//! refactoring of the searches must leave every row as it is: a row that moves is a change
//! of behaviour, to be made on purpose and measured, not re-recorded.

use stonemate_ai::{Budget, Method, SearchConfig, search_with};
use stonemate_engine::chogo::Chogo;
use stonemate_engine::ichess::IChess;
use stonemate_engine::notation::record_tokens;
use stonemate_engine::{AnyGame, Color, GameKind};

/// The recorded rows (the file says what each column is).
const PINNED: &str = include_str!("data/pinned.txt");

/// The positions after the first turns of an example record, named by how many.
fn example(kind: GameKind, file: &str, plies: &[usize]) -> Vec<(String, AnyGame)> {
    let path = format!("{}/../examples/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the example record");
    let tokens = record_tokens(&text);
    plies
        .iter()
        .map(|&plies| {
            let replay = AnyGame::replay(kind, &[], &tokens[..plies]).expect("default options");
            assert!(replay.error.is_none(), "{file}: {:?}", replay.error);
            (format!("after {plies}"), replay.game)
        })
        .collect()
}

fn ichess_fen(fen: &str) -> AnyGame {
    AnyGame::IChess(IChess::from_fen(fen).expect("a legal set-up"))
}

fn chogo_setup(rows: &[&str], to_move: Color) -> AnyGame {
    AnyGame::Chogo(Chogo::from_setup(rows, to_move).expect("a valid set-up"))
}

/// iChess positions: the example game's deployment (0 to 16 turns), its middle game, its
/// mates in three (after 46) and two (after 48); set-ups with a mate in one, a mated
/// king, a rank to guard, a free queen, and a perpetual check to avoid.
fn ichess_positions() -> Vec<(String, AnyGame)> {
    let mut positions = example(GameKind::IChess, "ichess.txt", &[0, 4, 11, 16, 19, 24, 29, 34, 39, 46, 48]);
    let fens = [
        ("mate in 1", "k7/8/1K6/8/8/8/8/6Q1[] w"),
        ("mated", "k7/8/1K6/8/8/8/8/6Q1[] b"),
        ("guard the rank", "k7/p7/1K6/8/8/8/7Q/8[r] b"),
        ("free queen", "4k3/8/8/3q4/5N2/8/8/4K3[] w"),
    ];
    positions.extend(fens.map(|(name, fen)| (name.to_owned(), ichess_fen(fen))));
    let mut perpetual = ichess_fen("7k/8/8/8/8/8/8/K3Q3[] w");
    for turn in ["Qe5", "Kg8", "Qe6", "Kh8"] {
        perpetual.play_text(turn).expect("a legal turn");
    }
    positions.push(("perpetual".to_owned(), perpetual));
    positions
}

/// Chogo positions: the example game from the king drops to its king capture in one
/// (after 12; after 11 Green's king is threatened), and set-ups from the middle game.
fn chogo_positions() -> Vec<(String, AnyGame)> {
    let mut positions = example(GameKind::Chogo, "chogo.txt", &[0, 1, 2, 4, 5, 7, 8, 9, 10, 11, 12]);
    let setups = [
        ("even", ["--....--", "-......-", "...s....", "....k...", "...S...K", "-......-", "--....--"], Color::White),
        (
            "soldier up",
            ["--.s..--", "-s....s-", "..s.k...", "...S....", "S..S..SK", "-S....S-", "--....--"],
            Color::Black,
        ),
        (
            "capture threats",
            ["--....--", "-......-", "........", "sS..k...", "S......K", "-......-", "--....--"],
            Color::White,
        ),
    ];
    positions.extend(setups.map(|(name, rows, to_move)| (name.to_owned(), chogo_setup(&rows, to_move))));
    positions
}

/// The row each search gives, for each position and budget, as the data file writes it.
fn rows(game_name: &str, positions: Vec<(String, AnyGame)>, budgets: &[u64], method: Method) -> Vec<String> {
    let mut rows = Vec::new();
    for (name, game) in positions {
        for &budget in budgets {
            let result =
                search_with(&game, &SearchConfig::new(Budget::nodes(budget), 1), method).expect("an ongoing game");
            let turn = game.format_turn(result.turn);
            let chosen = result.root.iter().find(|root| root.turn == result.turn).expect("the chosen turn is listed");
            let (nodes, visits, value) = (result.nodes, chosen.visits, result.value);
            rows.push(format!("{game_name} | {name} | {budget} | {turn} | {nodes} | {visits} | {value:.6}"));
        }
    }
    rows
}

/// Compares the rows with the recorded ones of `game_name`, listing every one that moved
/// (and all of them, to read).
fn check(game_name: &str, actual: &[String]) {
    let expected: Vec<&str> = PINNED.lines().filter(|line| line.split(" | ").next() == Some(game_name)).collect();
    let moved: Vec<String> = actual
        .iter()
        .zip(&expected)
        .filter(|(a, e)| a != e)
        .map(|(a, e)| format!("expected {e}\n     got {a}"))
        .collect();
    assert!(
        moved.is_empty() && actual.len() == expected.len(),
        "{} rows recorded, {} searched\n{}\nall rows:\n{}",
        expected.len(),
        actual.len(),
        moved.join("\n"),
        actual.join("\n")
    );
}

#[test]
fn ichess_alpha_beta_chooses_the_same_turns_with_the_same_nodes() {
    // `Method::Strong` is iChess's alpha-beta at any budget: 20 of its nodes a budget node.
    check("ichess", &rows("ichess", ichess_positions(), &[500, 2_500], Method::Strong));
}

#[test]
fn chogo_alpha_beta_chooses_the_same_turns_with_the_same_nodes() {
    // Chogo's alpha-beta is the bot's search from hard's budget (40,000) on: 2 of its
    // nodes a budget node.
    check("chogo", &rows("chogo", chogo_positions(), &[40_000, 100_000], Method::Current));
}
