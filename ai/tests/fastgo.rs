//! The playout board against the engine: many random games played on both, compared after
//! every turn (pieces, prisoners, the side to move, the score, the full list of legal
//! turns, and the board rebuilt from the engine's position, which reads the ko from it).

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use stonemate_ai::fastgo::FastGo;
use stonemate_engine::go::{Go, GoError, GoOptions};
use stonemate_engine::{Game, GameOptions, Square, Turn};

/// Options as `key, value` pairs.
type Pairs<'a> = &'a [(&'a str, &'a str)];

fn options(pairs: &[(&str, &str)]) -> GoOptions {
    let pairs: Vec<(String, String)> = pairs.iter().map(|&(k, v)| (k.to_owned(), v.to_owned())).collect();
    GoOptions::from_pairs(&pairs).expect("valid options")
}

/// Every difference between the engine's position and the playout board's; returns
/// whether the engine refused a drop for ko (rule 6) there, so that the test can show it
/// met kos.
fn compare(go: &Go, fast: &FastGo, context: &str) -> bool {
    for square in go.board().shape().squares() {
        assert_eq!(go.board().get(square), fast.get(square), "{context}: the piece on {square}");
    }
    assert_eq!(go.to_move(), fast.to_move(), "{context}: the side to move");
    assert_eq!(go.prisoners(), fast.prisoners(), "{context}: prisoners");
    assert_eq!(go.score(), Some(fast.score()), "{context}: the score");
    let legal = go.legal_turns();
    assert_eq!(legal, fast.legal_turns(), "{context}: the legal turns");
    let rebuilt = FastGo::from_go(go).expect("a supported set");
    assert_eq!(legal, rebuilt.legal_turns(), "{context}: the legal turns of the board rebuilt from the engine's");
    assert_eq!(fast.score(), rebuilt.score(), "{context}: the rebuilt board's score");
    let role = go.options().pieces[0];
    go.board()
        .shape()
        .squares()
        .filter(|&to| go.board().get(to).is_none())
        .any(|to| matches!(go.clone().play(Turn::Drop { role, to }), Err(GoError::Ko)))
}

/// Plays `games` random games with these options on both boards, comparing after every
/// turn; returns how many positions were compared, and in how many of them a ko forbade
/// a drop.
fn play_both(pairs: &[(&str, &str)], games: u64, max_turns: usize) -> (u64, u64) {
    let options = options(pairs);
    let mut compared = 0;
    let mut kos = 0;
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut go = Go::new(options.clone());
        let mut fast = FastGo::from_go(&go).expect("a supported set");
        for turn_number in 0..max_turns {
            let context = format!("{pairs:?} game {seed} turn {turn_number}");
            kos += u64::from(compare(&go, &fast, &context));
            compared += 1;
            if go.to_move().is_none() {
                break;
            }
            // Half the turns come from the playout policies, light or heavy (played on the
            // playout board first), half uniformly from the engine's list, passing seldom.
            let turn = if rng.gen_bool(0.5) {
                let turn =
                    if rng.gen_bool(0.5) { fast.playout_step(&mut rng) } else { fast.heavy_playout_step(&mut rng) };
                let turn = turn.expect("the game goes on");
                go.play(turn).unwrap_or_else(|e| panic!("{context}: the engine refuses the playout's {turn}: {e}"));
                turn
            } else {
                let legal = go.legal_turns();
                let drops: Vec<Turn> = legal.iter().copied().filter(|&t| t != Turn::Pass).collect();
                let turn = if drops.is_empty() || rng.gen_bool(0.03) {
                    Turn::Pass
                } else {
                    *drops.choose(&mut rng).expect("a drop")
                };
                go.play(turn).expect("a listed turn");
                assert!(fast.play(turn), "{context}: the playout board refuses {turn}");
                turn
            };
            // An illegal drop is refused by both (occupied squares, ko, suicide).
            let probe = Turn::Drop {
                role: options.pieces[0],
                to: Square::new(rng.gen_range(0..9), rng.gen_range(0..9)).unwrap(),
            };
            let engine_accepts = go.clone().play(probe).is_ok();
            assert_eq!(engine_accepts, fast.clone().play(probe), "{context}: after {turn}, the probe {probe}");
        }
    }
    (compared, kos)
}

#[test]
fn the_playout_board_plays_exactly_as_the_engine() {
    let sets: &[(Pairs, u64, usize)] = &[
        (&[("board", "9x9"), ("komi", "6.5")], 12, 250),
        (&[("board", "5x5")], 40, 150),
        (&[("board", "4x4")], 40, 120),
        (&[("board", "3x3"), ("komi", "0.5")], 40, 80),
        (&[("board", "7x5:c3,d3,e2"), ("pieces", "RW")], 25, 150),
        (&[("board", "6x6"), ("pieces", "W")], 25, 150),
        (&[("board", "6x6"), ("pieces", "QK")], 25, 150),
        (&[("board", "7x7"), ("pieces", "B")], 25, 150),
        (&[("board", "6x6"), ("pieces", "F"), ("squares", "all")], 20, 150),
        (&[("board", "7x7"), ("pieces", "N")], 20, 150),
        (&[("board", "6x6"), ("pieces", "G")], 20, 150),
        (&[("board", "7x7"), ("pieces", "D"), ("komi", "1")], 15, 150),
        (&[("board", "8x8"), ("pieces", "A")], 15, 150),
        (&[("board", "6x6"), ("pieces", "R"), ("squares", "dark")], 15, 100),
    ];
    let (mut total, mut total_kos) = (0, 0);
    for &(pairs, games, max_turns) in sets {
        let (compared, kos) = play_both(pairs, games, max_turns);
        eprintln!("{pairs:?}: {compared} positions compared, {kos} with a ko");
        total += compared;
        total_kos += kos;
    }
    eprintln!("positions compared in all: {total}, {total_kos} of them with a ko");
    assert!(total > 20_000, "{total}");
    assert!(total_kos > 20, "the games met too few kos to test rule 6: {total_kos}");
}

#[test]
fn sets_that_do_not_act_like_stones_keep_the_engine() {
    for pairs in [
        &[("pieces", "RN")][..],
        &[("pieces", "P")],
        &[("pieces", "H")],
        &[("pieces", "R"), ("moving", "on")],
        &[("board", "7x7:d4"), ("pieces", "G")],
    ] {
        assert!(!FastGo::supports(&options(pairs)), "{pairs:?}");
    }
    assert!(FastGo::supports(&options(&[("pieces", "RW")])));
}

#[test]
fn a_chain_is_read_with_its_pieces_and_distinct_empty_steps() {
    let pairs = [("board".to_owned(), "5x5".to_owned())];
    let mut game = stonemate_engine::AnyGame::new(stonemate_engine::GameKind::Go, &pairs).expect("valid options");
    // Black: b2, b3, c2 (one chain); White: d4, d3 (one chain).
    for turn in ["b2", "d4", "b3", "d3", "c2"] {
        game.play_text(turn).expect(turn);
    }
    let stonemate_engine::AnyGame::Go(go) = &game else { unreachable!("a go game") };
    let fast = FastGo::from_go(go).expect("rooks act like stones");
    let squares = |names: &str| {
        let mut squares: Vec<Square> = names.split(' ').map(|name| name.parse().expect("a square")).collect();
        squares.sort_by_key(|square| square.index());
        squares
    };
    let read = |at: &str| {
        let at = fast.index_of(at.parse().expect("a square")).expect("on the board");
        let (pieces, liberties) = fast.chain_at(at).expect("a piece");
        let named = |indices: Vec<usize>| {
            let all: Vec<Square> = fast.squares().collect();
            let mut named: Vec<Square> = indices.into_iter().map(|i| all[i]).collect();
            named.sort_by_key(|square| square.index());
            assert!(named.windows(2).all(|pair| pair[0] != pair[1]), "no repeats: {named:?}");
            named
        };
        (named(pieces), named(liberties))
    };
    for at in ["b2", "b3", "c2"] {
        assert_eq!(read(at), (squares("b2 b3 c2"), squares("a2 b1 a3 b4 c3 c1 d2")), "from {at}");
    }
    assert_eq!(read("d3"), (squares("d4 d3"), squares("d5 c4 e4 c3 e3 d2")));
    let empty = fast.index_of("a1".parse().expect("a square")).expect("on the board");
    assert_eq!(fast.chain_at(empty), None);
    assert_eq!(fast.chain_at(fast.square_count()), None);
}
