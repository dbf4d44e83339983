//! The two alpha-beta searches (iChess's and Chogo's), pinned: for positions of each game
//! (openings, middle games, mates in n) at fixed node budgets and no time limit, the turn
//! chosen, the nodes spent and the value reported are exactly what the searches gave when
//! this test was written (main at 11f2b4d, before the two searches came to share their
//! root loop). A refactoring of the searches must leave every row as it is: a row that
//! moves is a change of behaviour, to be made on purpose and measured, not re-recorded.

use stonemate_ai::{Budget, Method, SearchConfig, search_with};
use stonemate_engine::chogo::Chogo;
use stonemate_engine::ichess::IChess;
use stonemate_engine::notation::record_tokens;
use stonemate_engine::{AnyGame, Color, GameKind};

/// One pinned search: the position's name, the budget (the bot's nodes, before the
/// search's nodes-per-node factor), then what the search answered: the turn as the game
/// prints it, the nodes spent in all (mostly the whole budget) and on the chosen turn
/// (which follows the search's path), and the value (six decimals).
type Row = (&'static str, u64, &'static str, u64, u64, &'static str);

/// The position after the first `plies` turns of an example record.
fn example(kind: GameKind, file: &str, plies: usize) -> AnyGame {
    let path = format!("{}/../examples/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the example record");
    let tokens: Vec<String> = record_tokens(&text).into_iter().take(plies).collect();
    let replay = AnyGame::replay(kind, &[], &tokens).expect("default options");
    assert!(replay.error.is_none(), "{file}: {:?}", replay.error);
    replay.game
}

fn ichess_fen(fen: &str) -> AnyGame {
    AnyGame::IChess(IChess::from_fen(fen).expect("a legal set-up"))
}

/// The game after these turns from `start`.
fn played(mut game: AnyGame, turns: &[&str]) -> AnyGame {
    for text in turns {
        game.play_text(text).expect("a legal turn");
    }
    game
}

fn chogo_setup(rows: &[&str], to_move: Color) -> AnyGame {
    AnyGame::Chogo(Chogo::from_setup(rows, to_move).expect("a valid set-up"))
}

/// iChess positions: the deployment, the example game's middle game and its mates in
/// three, two and one, and set-ups with a mate, a free queen and a perpetual check.
fn ichess_positions() -> Vec<(&'static str, AnyGame)> {
    let example = |plies| example(GameKind::IChess, "ichess.txt", plies);
    vec![
        ("start", example(0)),
        ("deploying 4", example(4)),
        ("deploying 11", example(11)),
        ("deployed 16", example(16)),
        ("middle 19", example(19)),
        ("middle 24", example(24)),
        ("middle 29", example(29)),
        ("middle 34", example(34)),
        ("middle 39", example(39)),
        ("mate in 3", example(46)),
        ("mate in 2", example(48)),
        ("mate in 1", ichess_fen("k7/8/1K6/8/8/8/8/6Q1[] w")),
        ("mated", ichess_fen("k7/8/1K6/8/8/8/8/6Q1[] b")),
        ("guard the rank", ichess_fen("k7/p7/1K6/8/8/8/7Q/8[r] b")),
        ("free queen", ichess_fen("4k3/8/8/3q4/5N2/8/8/4K3[] w")),
        ("perpetual", played(ichess_fen("7k/8/8/8/8/8/8/K3Q3[] w"), &["Qe5", "Kg8", "Qe6", "Kh8"])),
    ]
}

/// Chogo positions: the king drops, the example game's turns up to its king capture in
/// one, and set-ups from the middle game.
fn chogo_positions() -> Vec<(&'static str, AnyGame)> {
    let example = |plies| example(GameKind::Chogo, "chogo.txt", plies);
    vec![
        ("start", example(0)),
        ("king drop", example(1)),
        ("opening 2", example(2)),
        ("opening 4", example(4)),
        ("opening 5", example(5)),
        ("middle 7", example(7)),
        ("middle 8", example(8)),
        ("middle 9", example(9)),
        ("middle 10", example(10)),
        ("threatened", example(11)),
        ("capture in 1", example(12)),
        (
            "even",
            chogo_setup(
                &["--....--", "-......-", "...s....", "....k...", "...S...K", "-......-", "--....--"],
                Color::White,
            ),
        ),
        (
            "soldier up",
            chogo_setup(
                &["--.s..--", "-s....s-", "..s.k...", "...S....", "S..S..SK", "-S....S-", "--....--"],
                Color::Black,
            ),
        ),
        (
            "capture threats",
            chogo_setup(
                &["--....--", "-......-", "........", "sS..k...", "S......K", "-......-", "--....--"],
                Color::White,
            ),
        ),
    ]
}

/// The row each search gives, for each position and budget.
fn rows(positions: Vec<(&'static str, AnyGame)>, budgets: &[u64], method: Method) -> Vec<Row> {
    let mut rows = Vec::new();
    for (name, game) in positions {
        for &budget in budgets {
            let result =
                search_with(&game, &SearchConfig::new(Budget::nodes(budget), 1), method).expect("an ongoing game");
            let turn: &'static str = Box::leak(game.format_turn(result.turn).into_boxed_str());
            let value: &'static str = Box::leak(format!("{:.6}", result.value).into_boxed_str());
            let chosen = result.root.iter().find(|root| root.turn == result.turn).expect("the chosen turn is listed");
            rows.push((name, budget, turn, result.nodes, chosen.visits, value));
        }
    }
    rows
}

/// Compares the rows, listing every one that moved (and the whole table, to read).
fn check(actual: &[Row], expected: &[Row]) {
    let moved: Vec<String> = actual
        .iter()
        .zip(expected)
        .filter(|(a, e)| a != e)
        .map(|(a, e)| format!("expected {e:?}\n     got {a:?}"))
        .collect();
    let table: String = actual.iter().map(|row| format!("    {row:?},\n")).collect();
    assert!(moved.is_empty() && actual.len() == expected.len(), "{}\nall rows:\n{table}", moved.join("\n"));
}

#[test]
fn ichess_alpha_beta_chooses_the_same_turns_with_the_same_nodes() {
    // `Method::Strong` is iChess's alpha-beta at any budget: 20 of its nodes a budget node.
    let actual = rows(ichess_positions(), &[500, 2_500], Method::Strong);
    check(&actual, ICHESS);
}

#[test]
fn chogo_alpha_beta_chooses_the_same_turns_with_the_same_nodes() {
    // Chogo's alpha-beta is the bot's search from hard's budget (40,000) on: 2 of its
    // nodes a budget node.
    let actual = rows(chogo_positions(), &[40_000, 100_000], Method::Current);
    check(&actual, CHOGO);
}

/// Recorded from main at 11f2b4d (the searches before sharing their root loop).
const ICHESS: &[Row] = &[
    ("start", 500, "Q=c4", 10000, 626, "0.505625"),
    ("start", 2500, "Q=c4", 50001, 8773, "0.500000"),
    ("deploying 4", 500, "Q=c4", 10000, 800, "0.503750"),
    ("deploying 4", 2500, "Q=c4", 50000, 11232, "0.503750"),
    ("deploying 11", 500, "Q=c5", 10000, 6069, "0.492501"),
    ("deploying 11", 2500, "Q=c5", 50000, 21196, "0.490626"),
    ("deployed 16", 500, "Nb4", 10000, 8070, "0.519365"),
    ("deployed 16", 2500, "Nb4", 50000, 28168, "0.367025"),
    ("middle 19", 500, "Pf5", 10000, 7428, "0.310561"),
    ("middle 19", 2500, "Pf5", 50000, 25773, "0.301009"),
    ("middle 24", 500, "B=f4", 10001, 4234, "0.500000"),
    ("middle 24", 2500, "B=f4", 50000, 31157, "0.793311"),
    ("middle 29", 500, "Pc4=F", 10000, 5589, "0.703183"),
    ("middle 29", 2500, "B=b7", 50000, 18413, "0.744121"),
    ("middle 34", 500, "PxNd4", 10000, 2435, "0.234154"),
    ("middle 34", 2500, "NxNd4", 50000, 38498, "0.322458"),
    ("middle 39", 500, "Pb5", 10000, 2964, "0.335146"),
    ("middle 39", 2500, "Q=d5", 50000, 11946, "0.335146"),
    ("mate in 3", 500, "QxBc5+", 10000, 6885, "0.995658"),
    ("mate in 3", 2500, "QxBc5+", 50000, 19976, "0.995722"),
    ("mate in 2", 500, "QxNc7+", 234, 14, "1.000000"),
    ("mate in 2", 2500, "QxNc7+", 234, 14, "1.000000"),
    ("mate in 1", 500, "Qg8#", 60, 2, "1.000000"),
    ("mate in 1", 2500, "Qg8#", 60, 2, "1.000000"),
    ("mated", 500, "Kb8", 61, 61, "0.000000"),
    ("mated", 2500, "Kb8", 61, 61, "0.000000"),
    ("guard the rank", 500, "R=g6+", 10000, 2935, "0.272892"),
    ("guard the rank", 2500, "R=b7+", 50001, 30297, "0.272892"),
    ("free queen", 500, "NxQd5", 10000, 9507, "0.969749"),
    ("free queen", 2500, "NxQd5", 50000, 48233, "0.970186"),
    ("perpetual", 500, "Qg6", 411, 4, "1.000000"),
    ("perpetual", 2500, "Qg6", 411, 4, "1.000000"),
];

/// Recorded from main at 11f2b4d, as [`ICHESS`].
const CHOGO: &[Row] = &[
    ("start", 40000, "K@b4", 80000, 40266, "0.548183"),
    ("start", 100000, "K@d4", 200000, 93694, "0.493334"),
    ("king drop", 40000, "K@c4", 80000, 41198, "0.549834"),
    ("king drop", 100000, "K@c4", 200000, 135654, "0.549834"),
    ("opening 2", 40000, "g2-g5", 80000, 25397, "0.555602"),
    ("opening 2", 100000, "g2-g5", 200000, 57326, "0.555602"),
    ("opening 4", 40000, "g2-g5", 80000, 40891, "0.619321"),
    ("opening 4", 100000, "g2-g5", 200000, 49280, "0.619321"),
    ("opening 5", 40000, "b6-b3", 80000, 24948, "0.422301"),
    ("opening 5", 100000, "e7f7-e3", 200000, 41147, "0.441930"),
    ("middle 7", 40000, "f7-f2", 80000, 12710, "0.426373"),
    ("middle 7", 100000, "f7-f2", 200000, 93395, "0.394923"),
    ("middle 8", 40000, "b2-b5", 80000, 20818, "0.668188"),
    ("middle 8", 100000, "b2-b5", 200000, 71766, "0.668188"),
    ("middle 9", 40000, "b6-b3", 80000, 24053, "0.439465"),
    ("middle 9", 100000, "b6-b3", 200000, 131781, "0.439465"),
    ("middle 10", 40000, "b2-b4", 80000, 30366, "0.654753"),
    ("middle 10", 100000, "b2-b4", 200000, 30366, "0.654753"),
    ("threatened", 40000, "b6-b3", 80000, 65561, "0.453468"),
    ("threatened", 100000, "b6-b3", 200000, 135919, "0.409347"),
    ("capture in 1", 40000, "d5-d6", 52, 1, "1.000000"),
    ("capture in 1", 100000, "d5-d6", 52, 1, "1.000000"),
    ("even", 40000, "h3-g3", 80000, 55041, "0.505833"),
    ("even", 100000, "d3-e3", 200000, 87662, "0.508333"),
    ("soldier up", 40000, "g6-g4", 80000, 48026, "0.390154"),
    ("soldier up", 100000, "g6-g4", 200000, 142040, "0.339991"),
    ("capture threats", 40000, "a3-c3", 80000, 29307, "0.631812"),
    ("capture threats", 100000, "a3-f3", 200000, 63011, "0.633362"),
];
