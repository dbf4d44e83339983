//! SGF, PGN and our own record: written by the engine, read back by independent readers
//! (`sgf-parse`, `w-pgn`, python-chess) and by our own `formats::read`.

use std::io::Write;
use std::process::{Command, Stdio};

use sgf_parse::go::{Move, Point, Prop};
use stonemate_engine::formats::{self, Date, Format, Imported, ReadError, Record, own, pgn, sgf};
use stonemate_engine::options::parse_option_text;
use stonemate_engine::{AnyGame, Color, GameKind};

/// A record of `kind` after replaying `turns`: the turns as printed, the ending the rules
/// give, the options with every key.
fn record(kind: GameKind, options: &str, turns: &[&str]) -> Record {
    named(kind, options, turns, ["alice", "bob [the \"second\"]"])
}

/// The same with these players' names, `[white, black]`.
fn named(kind: GameKind, options: &str, turns: &[&str], players: [&str; 2]) -> Record {
    let options = parse_option_text(options).unwrap();
    let replay = AnyGame::replay(kind, &options, turns).unwrap();
    assert_eq!(replay.error, None, "the test record must be legal");
    Record {
        kind,
        options: replay.game.option_pairs(),
        players: players.map(str::to_owned),
        turns: replay.played,
        ending: replay.game.status().ending(),
        date: Some(Date { year: 2026, month: 11, day: 24 }),
        title: Some("Stonemate #7".to_owned()),
        site: Some("home".to_owned()),
    }
}

/// A move as sgf-parse reads it: the colour and the point (`None` for a pass).
type SgfMove = (char, Option<(u8, u8)>);

/// The moves of the main line as sgf-parse reads them: the colour and the point (`None`
/// for a pass).
fn sgf_parse_moves(text: &str) -> (Vec<Prop>, Vec<SgfMove>) {
    let trees = sgf_parse::go::parse(text).expect("sgf-parse reads our SGF");
    assert_eq!(trees.len(), 1);
    let root = &trees[0];
    let moves = root
        .main_variation()
        .flat_map(|node| node.properties().cloned().collect::<Vec<_>>())
        .filter_map(|prop| match prop {
            Prop::B(Move::Move(Point { x, y })) => Some(('B', Some((x, y)))),
            Prop::W(Move::Move(Point { x, y })) => Some(('W', Some((x, y)))),
            Prop::B(Move::Pass) => Some(('B', None)),
            Prop::W(Move::Pass) => Some(('W', None)),
            _ => None,
        })
        .collect();
    (root.properties().cloned().collect(), moves)
}

#[test]
fn sgf_of_a_rook_game_on_19x19_reads_in_sgf_parse_with_the_same_moves() {
    let turns = ["a1", "s19", "d4", "q16", "s1", "pass", "j10", "pass", "pass"];
    let record = record(GameKind::Go, "komi=6.5", &turns);
    let text = sgf::write(&record).unwrap();
    let (root, moves) = sgf_parse_moves(&text);
    // Our a1 is the bottom-left corner, SGF's aa the top-left: (column, row from the top).
    let expected = [
        ('B', Some((0, 18))),
        ('W', Some((18, 0))),
        ('B', Some((3, 15))),
        ('W', Some((16, 3))),
        ('B', Some((18, 18))),
        ('W', None),
        ('B', Some((9, 9))),
        ('W', None),
        ('B', None),
    ];
    assert_eq!(moves, expected, "{text}");
    assert!(root.contains(&Prop::SZ((19, 19))), "{text}");
    assert!(root.contains(&Prop::KM(6.5)), "{text}");
    assert!(root.contains(&Prop::GM(1)) && root.contains(&Prop::FF(4)), "{text}");
    let simple = |id: &str| {
        root.iter().find_map(|prop| match prop {
            Prop::PB(value) if id == "PB" => Some(value.text.clone()),
            Prop::PW(value) if id == "PW" => Some(value.text.clone()),
            Prop::RE(value) if id == "RE" => Some(value.text.clone()),
            _ => None,
        })
    };
    assert_eq!(simple("PW").as_deref(), Some("alice"));
    assert_eq!(simple("PB").as_deref(), Some("bob [the \"second\"]"), "] is escaped");
    let score = AnyGame::replay(GameKind::Go, &record.options, &record.turns).unwrap().game.score().unwrap();
    let margin = score.black.as_f64() - score.white.as_f64();
    let expected = if margin > 0.0 { format!("B+{margin}") } else { format!("W+{}", -margin) };
    assert_eq!(simple("RE"), Some(expected), "{text}");
    assert!(!text.contains(sgf::PIECE_PROPERTY), "rook drops are plain go moves: {text}");
}

#[test]
fn sgf_results_name_resignation_time_draws_and_void_games() {
    use stonemate_engine::{EndReason, Ending, Outcome};
    let mut record = record(GameKind::Go, "board=9x9", &["e5"]);
    let cases = [
        (Outcome::Winner(Color::Black), EndReason::Resignation, "B+R"),
        (Outcome::Winner(Color::White), EndReason::Timeout, "W+T"),
        (Outcome::Winner(Color::Black), EndReason::Forfeit, "B+F"),
        (Outcome::Draw, EndReason::Agreement, "0"),
        (Outcome::Draw, EndReason::Aborted, "Void"),
    ];
    for (outcome, reason, expected) in cases {
        record.ending = Some(Ending { outcome, reason });
        let text = sgf::write(&record).unwrap();
        assert!(text.contains(&format!("RE[{expected}]")), "{reason}: {text}");
    }
}

#[test]
fn sgf_keeps_analysis_off_and_reads_it_back() {
    let record = record(GameKind::Go, "board=9x9 analysis=off", &["R@e5", "R@d4"]);
    assert!(record.options.contains(&("analysis".to_owned(), "off".to_owned())), "{:?}", record.options);
    let text = sgf::write(&record).unwrap();
    assert!(text.contains("analysis=off"), "{text}");
    let imported = formats::read(&text).unwrap();
    assert_eq!(imported.options, record.options, "analysis=off survives");
    let game = AnyGame::new(GameKind::Go, &imported.options).unwrap();
    assert_eq!(game.analysis(), stonemate_engine::Analysis::Off);
}

#[test]
fn sgf_of_a_go_game_with_knights_moves_and_holes_round_trips_through_read() {
    let options = "board=9x7:e4,c3 pieces=RN squares=all moving=on komi=6.5";
    let turns = ["R@b2", "N@g5", "b2-b6", "pass", "N@h2", "g5-e6"];
    let record = record(GameKind::Go, options, &turns);
    let text = sgf::write(&record).unwrap();
    assert!(text.contains("SZ[9:7]"), "{text}");
    assert!(text.contains(&format!("{}[N]", sgf::PIECE_PROPERTY)), "{text}");
    assert!(text.contains(&format!("{}[", sgf::FROM_PROPERTY)), "{text}");
    let imported = formats::read(&text).unwrap();
    assert_eq!(imported.format, Format::Sgf);
    assert_eq!(imported.kind, Some(GameKind::Go));
    assert_eq!(imported.options, record.options, "every option survives");
    assert_eq!(imported.turns, record.turns);
    assert_eq!(imported.players, [Some("alice".to_owned()), Some("bob [the \"second\"]".to_owned())]);
}

#[test]
fn sgf_from_a_go_program_with_a_byte_order_mark_reads_size_komi_passes_and_the_main_line() {
    let text = "(;GM[1]FF[3]SZ[9]KM[5.5]PB[Black]PW[White];B[ee];W[cc](;B[tt];W[])(;B[dd]))";
    let imported = formats::read(&format!("\u{feff}\n{text}")).unwrap();
    assert_eq!(imported.options, parse_option_text("board=9x9 komi=5.5").unwrap());
    assert_eq!(imported.turns, ["R@e5", "R@c7", "pass", "pass"]);
    let replay = AnyGame::replay(GameKind::Go, &imported.options, &imported.turns).unwrap();
    assert_eq!(replay.error, None);
}

#[test]
fn sgf_that_is_not_one_of_our_go_games_is_refused_by_name() {
    let refused = |text: &str| formats::read(text).unwrap_err();
    assert!(matches!(refused("(;GM[3];B[aa])"), ReadError::NotGo { .. }));
    assert!(matches!(refused("(;SZ[9]AB[aa][bb];W[cc])"), ReadError::Setup { .. }));
    assert!(matches!(refused("(;SZ[9];W[cc])"), ReadError::OutOfTurn { index: 1, .. }));
    assert!(matches!(refused("(;SZ[9];B[cc]W[dd])"), ReadError::TwoMoves { index: 1 }));
    assert!(matches!(refused("(;SZ[9];B[zz])"), ReadError::BadPoint { index: 1, .. }));
    assert!(matches!(refused("(;SZ[9];B[cc]SMP[?])"), ReadError::BadPiece { index: 1, .. }));
    assert!(matches!(refused("(;SZ[9];B[cc"), ReadError::Syntax { format: Format::Sgf, .. }));
    assert!(matches!(refused("(;SZ[99])"), ReadError::Options(_)));
}

/// Runs python-chess's PGN reader on `text`: the tags, the result token, and what it takes
/// for moves.
fn python_chess(text: &str) -> serde_json::Value {
    let script = r#"
import chess, chess.pgn, io, json, sys

class Tokens(chess.pgn.BaseVisitor):
    def begin_game(self):
        self.found = {"headers": {}, "moves": [], "result": None}
    def visit_header(self, name, value):
        self.found["headers"][name] = value
    def parse_san(self, board, san):
        self.found["moves"].append(san)
        return chess.Move.null()
    def visit_result(self, result):
        self.found["result"] = result
    def handle_error(self, error):
        pass  # "unsupported variant: iChess": python-chess has no board for it
    def result(self):
        return self.found

print(json.dumps(chess.pgn.read_game(io.StringIO(sys.stdin.read()), Visitor=Tokens)))
"#;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 with chess (pip install -r .ci/requirements.txt)");
    child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "python-chess failed on:\n{text}");
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn pgn_of_the_example_ichess_game_reads_in_python_chess_with_the_same_tags() {
    let turns = stonemate_engine::notation::record_tokens(include_str!("../../examples/ichess.txt"));
    let turns: Vec<&str> = turns.iter().map(String::as_str).collect();
    let record = named(GameKind::IChess, "", &turns, ["alice", "Bob Ünal"]);
    let text = pgn::write(&record).unwrap();
    assert!(text.contains("\n\n1. R=a1 R=h8 2. B=f4 R=f8"), "{text}");
    assert!(text.lines().all(|line| line.len() < 80), "{text}");
    let found = python_chess(&text);
    let expected = serde_json::json!({
        "Event": "Stonemate #7", "Site": "home", "Date": "2026.11.24", "Round": "-",
        "White": "alice", "Black": "Bob Ünal", "Result": "1-0",
        "Variant": "iChess", "Termination": "normal",
    });
    assert_eq!(found["headers"], expected, "{text}");
    assert_eq!(found["result"], "1-0");
    // python-chess finds chess SAN inside our words (`a1` in `R=a1`), so it cannot give our
    // turns back; the PGN standard's tokenizer can: every movetext word is a move number,
    // a symbol token (a letter or digit, then letters, digits and `_+#=:-`), or the result.
    let movetext = text.split("\n\n").nth(1).unwrap();
    let symbol = |word: &str| {
        word.starts_with(|ch: char| ch.is_ascii_alphanumeric())
            && word.chars().all(|ch| ch.is_ascii_alphanumeric() || "_+#=:-".contains(ch))
    };
    let words: Vec<&str> = movetext.split_whitespace().collect();
    assert!(words.iter().all(|word| symbol(word) || word.trim_end_matches('.').parse::<u32>().is_ok()), "{text}");
    let turns: Vec<&str> = words.iter().copied().filter(|word| !word.ends_with('.') && *word != "1-0").collect();
    assert_eq!(turns, record.turns, "{text}");
}

#[test]
fn pgn_round_trips_through_read() {
    let turns = stonemate_engine::notation::record_tokens(include_str!("../../examples/ichess.txt"));
    let turns: Vec<&str> = turns.iter().map(String::as_str).collect();
    let record = record(GameKind::IChess, "", &turns);
    let text = pgn::write(&record).unwrap();
    let imported = formats::read(&text).unwrap();
    let expected = Imported {
        format: Format::Pgn,
        kind: Some(GameKind::IChess),
        options: Vec::new(),
        players: [Some("alice".to_owned()), Some("bob [the \"second\"]".to_owned())],
        turns: record.turns.clone(),
    };
    assert_eq!(imported, expected);
}

#[test]
fn pgn_reading_skips_comments_variations_nags_and_stops_at_the_result() {
    let text =
        "[Event \"?\"]\n[Variant \"ichess\"]\n\n1. R=a1 {deploy} R=h8 (1... R=g8 2. N=c2) $1 2.B=f4!? R=f8 1-0 3. x";
    let imported = formats::read(text).unwrap();
    assert_eq!(imported.turns, ["R=a1", "R=h8", "B=f4", "R=f8"]);
    let chess = "[Event \"?\"]\n\n1. e4 e5 *";
    assert_eq!(formats::read(chess).unwrap_err(), ReadError::UnknownVariant { variant: String::new() });
}

#[test]
fn every_example_record_round_trips_through_our_own_format() {
    let examples = [
        (GameKind::Chego, "", include_str!("../../examples/chego.txt")),
        (GameKind::Gess, "", include_str!("../../examples/gess.txt")),
        (GameKind::IChess, "", include_str!("../../examples/ichess.txt")),
        (GameKind::Go, "board=9x9", include_str!("../../examples/go-9x9.txt")),
        (GameKind::Chogo, "", include_str!("../../examples/chogo.txt")),
    ];
    for (kind, options, example) in examples {
        let turns = stonemate_engine::notation::record_tokens(example);
        let turns: Vec<&str> = turns.iter().map(String::as_str).collect();
        let record = record(kind, options, &turns);
        let text = own::write(&record);
        let imported = formats::read(&text).unwrap();
        assert_eq!(imported.format, Format::Own, "{kind}");
        assert_eq!(imported.kind, Some(kind), "{text}");
        assert_eq!(imported.options, record.options, "{text}");
        // `#` starts a comment in our records, so a mate mark is not read back; the turns
        // are the same.
        let replayed = AnyGame::replay(kind, &imported.options, &imported.turns).unwrap();
        assert_eq!(replayed.error, None, "{text}");
        assert_eq!(replayed.played, record.turns, "{text}");
    }
}

#[test]
fn the_go_example_round_trips_through_sgf() {
    let turns = stonemate_engine::notation::record_tokens(include_str!("../../examples/go-9x9.txt"));
    let turns: Vec<&str> = turns.iter().map(String::as_str).collect();
    let record = record(GameKind::Go, "board=9x9", &turns);
    let imported = formats::read(&sgf::write(&record).unwrap()).unwrap();
    assert_eq!((imported.options, imported.turns), (record.options, record.turns));
}

#[test]
fn a_history_file_names_its_game_in_the_replay_line() {
    let text = "# Stonemate #1: go\n# options: board=9x9 komi=6.5\n\
                # replay: stonemate replay --game go --option board=9x9 game-1.txt\n1. R@e5 R@c3\n";
    let imported = formats::read(text).unwrap();
    assert_eq!(imported.kind, Some(GameKind::Go));
    assert_eq!(imported.options, parse_option_text("board=9x9 komi=6.5").unwrap());
    assert_eq!(imported.turns, ["R@e5", "R@c3"]);
    let bare = formats::read(include_str!("../../examples/gess.txt")).unwrap();
    assert_eq!((bare.format, bare.kind), (Format::Own, None));
}

#[test]
fn formats_refuse_the_other_games() {
    let go = record(GameKind::Go, "board=9x9", &["e5"]);
    let ichess = record(GameKind::IChess, "", &["R=a1"]);
    assert!(matches!(pgn::write(&go), Err(formats::ExportError::WrongGame { .. })));
    assert!(matches!(sgf::write(&ichess), Err(formats::ExportError::WrongGame { .. })));
    let mut illegal = go.clone();
    illegal.turns.push("e5".to_owned());
    assert!(matches!(sgf::write(&illegal), Err(formats::ExportError::Turn(error)) if error.index == 2));
}

mod random_games {
    use proptest::prelude::*;
    use stonemate_engine::formats::{self, pgn, sgf};
    use stonemate_engine::go::Go;
    use stonemate_engine::ichess::IChess;
    use stonemate_engine::{Game, GameKind};

    use crate::common::{options, random_game};

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// Drops of three kinds, moves, passes, captures and holes: whatever a game of Go
        /// with chess pieces plays comes back from its SGF.
        #[test]
        fn a_random_go_game_round_trips_through_sgf(seed in any::<u64>()) {
            let text = "board=7x5:c3 pieces=RNB moving=on komi=2.5";
            let (_, turns) = random_game(Go::new(options(text)), seed, 80);
            let turns: Vec<&str> = turns.iter().map(String::as_str).collect();
            let record = super::record(GameKind::Go, text, &turns);
            let imported = formats::read(&sgf::write(&record).unwrap()).unwrap();
            prop_assert_eq!(imported.options, record.options);
            prop_assert_eq!(imported.turns, record.turns);
        }

        #[test]
        fn a_random_ichess_game_round_trips_through_pgn(seed in any::<u64>()) {
            let (_, turns) = random_game(IChess::new(options("")), seed, 120);
            let turns: Vec<&str> = turns.iter().map(String::as_str).collect();
            let record = super::record(GameKind::IChess, "", &turns);
            let imported = formats::read(&pgn::write(&record).unwrap()).unwrap();
            prop_assert_eq!(imported.turns, record.turns);
        }
    }
}

mod hostile {
    use proptest::prelude::*;
    use stonemate_engine::formats;

    /// Text made of the pieces of a format: each piece valid somewhere, in any order.
    fn pieces(vocabulary: &'static [&'static str]) -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            4 => proptest::sample::select(vocabulary).prop_map(str::to_owned),
            2 => "[a-zA-Z]{1,3}",
            1 => "[0-9]{1,3}",
            1 => ".{0,3}",
        ];
        proptest::collection::vec(piece, 0..60).prop_map(|pieces| pieces.concat())
    }

    const SGF: &[&str] = &[
        "(",
        ")",
        ";",
        "[",
        "]",
        "\\",
        "B[",
        "W[",
        "SZ[",
        "KM[",
        "GM[",
        "AB[",
        "SMO[",
        "SMP[",
        "SMF[",
        "C[",
        "board=",
        "komi=",
        "pieces=",
        "moving=on",
        ":",
        "x",
        "tt",
        " ",
    ];

    const PGN: &[&str] = &[
        "[",
        "]",
        "\"",
        "\\",
        "Variant ",
        "iChess",
        "StonemateOptions ",
        "{",
        "}",
        "(",
        ")",
        ";",
        "\n",
        "$",
        ".",
        "...",
        "1-0",
        "*",
        "=",
        "@",
        "x",
        "+",
        "#",
        " ",
    ];

    /// SGF that is well formed, with properties ours reads and values of any kind.
    fn sgf_nodes() -> impl Strategy<Value = String> {
        let id = proptest::sample::select(&["B", "W", "SZ", "KM", "GM", "AB", "SMO", "SMP", "SMF", "C", "PB"][..]);
        let value = prop_oneof![
            "[a-zA-Z]{0,3}",
            "[0-9:.]{0,5}",
            ".{0,4}",
            Just("board=9x9 pieces=RN moving=on".to_owned()),
            Just("board=5x3:a1".to_owned()),
        ];
        let property = (id, value).prop_map(|(id, value)| format!("{id}[{}]", value.replace(['\\', ']'], "")));
        let node = proptest::collection::vec(property, 0..3).prop_map(|properties| format!(";{}", properties.concat()));
        proptest::collection::vec(node, 1..12).prop_map(|nodes| format!("({})", nodes.concat()))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

        #[test]
        fn well_formed_sgf_with_any_values_never_panics(text in sgf_nodes()) {
            let _ = formats::read(&text);
        }

        #[test]
        fn arbitrary_text_never_panics(text in ".{0,300}") {
            let _ = formats::read(&text);
        }

        #[test]
        fn sgf_like_text_never_panics(text in pieces(SGF)) {
            let _ = formats::read(&format!("(;{text}"));
        }

        #[test]
        fn pgn_like_text_never_panics(text in pieces(PGN)) {
            let _ = formats::read(&format!("[{text}"));
        }
    }
}

/// A counted game on 5x5 (rule 10): walls on the b- and d-files, a White rook on a3 agreed
/// dead after the two passes.
const COUNTED: [&str; 15] =
    ["b1", "d1", "b2", "d2", "b3", "d3", "b4", "d4", "b5", "d5", "pass", "a3", "pass", "pass", "dead a3"];

#[test]
fn sgf_of_a_counted_game_writes_the_dead_stones_the_count_and_the_result_and_reads_back() {
    let mut record = record(GameKind::Go, "board=5x5 counting=on", &COUNTED);
    assert_eq!(record.turns.last().map(String::as_str), Some("dead a3"));
    let ending = record.ending.expect("the agreement ends the game");
    assert_eq!(ending.reason, stonemate_engine::EndReason::Counted);
    let text = sgf::write(&record).unwrap();
    assert!(text.contains(&format!("{}[ac]", sgf::DEAD_PROPERTY)), "{text}");
    assert!(text.contains("RE[B+1]"), "Black 5 squares and a prisoner, White 5: {text}");
    let trees = sgf_parse::go::parse(&text).expect("sgf-parse reads it");
    let last = trees[0].main_variation().last().expect("nodes");
    let points = |wanted: &str| {
        let mut found: Vec<(u8, u8)> = last
            .properties()
            .filter_map(|prop| match (prop, wanted) {
                (Prop::TB(points), "TB") | (Prop::TW(points), "TW") => Some(points.iter().map(|p| (p.x, p.y))),
                _ => None,
            })
            .flatten()
            .collect();
        found.sort_unstable();
        found
    };
    let a_file: Vec<(u8, u8)> = (0..5).map(|y| (0, y)).collect();
    assert_eq!(points("TB"), a_file, "Black's area with the dead rook's point");
    assert_eq!(points("TW"), (0..5).map(|y| (4, y)).collect::<Vec<_>>(), "White's e-file");
    let imported = formats::read(&text).unwrap();
    assert_eq!(imported.turns, record.turns, "the agreement reads back as the record's last entry");
    let replayed = AnyGame::replay(GameKind::Go, &imported.options, &imported.turns).unwrap();
    assert_eq!(replayed.error, None);
    assert_eq!(replayed.game.status().ending(), Some(ending));

    record.turns[14] = "dead -".to_owned();
    record.ending = None;
    let text = sgf::write(&record).unwrap();
    assert!(text.contains(&format!("{}[]", sgf::DEAD_PROPERTY)), "{text}");
    assert_eq!(formats::read(&text).unwrap().turns.last().map(String::as_str), Some("dead -"));
}

/// Regression: the count listed a dead piece's point twice, once as the opponent's
/// territory (the point is empty after the removal) and once as a dead stone, while
/// FF\[4\]'s `TB`/`TW` are lists of points that name each point once.
#[test]
fn sgf_count_lists_each_point_once_though_dead_stones_stand_in_territory() {
    let record = record(GameKind::Go, "board=5x5 counting=on", &COUNTED);
    let text = sgf::write(&record).unwrap();
    // sgf-parse reads `TB`/`TW` of a go game (GM[1]) into sets, which would hide a repeat;
    // read as a game of unknown type, a property keeps its values as written.
    let trees = sgf_parse::parse(&text.replacen("GM[1]", "GM[0]", 1)).expect("sgf-parse reads it");
    let sgf_parse::GameTree::Unknown(root) = &trees[0] else { panic!("GM[0] is no known game: {text}") };
    let last = root.main_variation().last().expect("nodes");
    let written = |wanted: &str| -> Vec<String> {
        let values = last.properties().find_map(|prop| match prop {
            sgf_parse::unknown_game::Prop::Unknown(id, values) if id == wanted => Some(values.clone()),
            _ => None,
        });
        values.unwrap_or_else(|| panic!("no {wanted} in {text}"))
    };
    let (black, white) = (written("TB"), written("TW"));
    for (id, points) in [("TB", &black), ("TW", &white)] {
        let mut unique = points.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), points.len(), "{id} repeats a point: {text}");
    }
    assert!(black.iter().all(|point| !white.contains(point)), "a point counted for both sides: {text}");
    // The dead White rook stood on a3, SGF point `ac` on 5x5: Black's territory holds it once.
    assert_eq!(black.iter().filter(|point| *point == "ac").count(), 1, "{text}");
    assert_eq!(black.len(), 5, "Black's a-file: {text}");
}

#[test]
fn our_own_record_keeps_the_agreement_as_its_last_entry() {
    let record = record(GameKind::Go, "board=5x5 counting=on", &COUNTED);
    let text = own::write(&record);
    assert!(text.contains("counting=on"), "{text}");
    assert!(text.contains("# result: black won by counting"), "{text}");
    let imported = formats::read(&text).unwrap();
    assert_eq!(imported.turns, record.turns);
    let bare = "b1 d1 b2 d2 b3 d3 b4 d4 b5 d5\npass a3 pass pass\n# agreed:\ndead\n  a3 # the rook\n";
    assert_eq!(formats::read(bare).unwrap().turns.last(), record.turns.last(), "the entry may span lines");
    let options = parse_option_text("board=5x5 counting=on").unwrap();
    let before = AnyGame::replay(GameKind::Go, &options, &record.turns[..14]).unwrap();
    assert!(before.game.is_counting(), "the two passes opened counting");
    let replay = AnyGame::replay(GameKind::Go, &options, &formats::read(bare).unwrap().turns).unwrap();
    assert!(!replay.game.is_counting());
    assert_eq!(replay.played.last().map(String::as_str), Some("dead a3"), "printed as records keep it");
    let score = replay.game.score().unwrap();
    assert_eq!((score.black.to_string(), score.white.to_string()), ("6".to_owned(), "5".to_owned()));
}

#[test]
fn results_are_written_the_go_way() {
    use stonemate_engine::{EndReason, Ending, GameResult, HalfPoints, Outcome, Score};
    let win = |color, reason| Ending { outcome: Outcome::Winner(color), reason };
    let score = Score { white: HalfPoints(13), black: HalfPoints::whole(3) };
    let cases = [
        (win(Color::White, EndReason::Counted), Some(score), "W+3.5"),
        (win(Color::Black, EndReason::TwoPasses), Some(Score { white: HalfPoints(0), black: HalfPoints(6) }), "B+3"),
        (win(Color::Black, EndReason::Resignation), Some(score), "B+R"),
        (win(Color::White, EndReason::Timeout), None, "W+T"),
        (win(Color::White, EndReason::Forfeit), None, "W+F"),
        (win(Color::White, EndReason::Checkmate), None, "W+"),
        (Ending { outcome: Outcome::Draw, reason: EndReason::Counted }, Some(Score::default()), "0"),
        (Ending { outcome: Outcome::Draw, reason: EndReason::Aborted }, None, "Void"),
    ];
    for (ending, score, text) in cases {
        let result = GameResult::new(ending, score);
        assert_eq!(result.to_string(), text);
        assert_eq!(text.parse::<GameResult>(), Ok(result), "{text} reads back");
    }
    assert_eq!("Draw".parse::<GameResult>(), Ok(GameResult::Draw));
    assert_eq!("B+Resign".parse::<GameResult>(), Ok(GameResult::Resignation(Color::Black)));
    assert_eq!("W+Forfeit".parse::<GameResult>(), Ok(GameResult::Forfeit(Color::White)));
    assert_eq!("W+6.5".parse::<GameResult>().map(GameResult::winner), Ok(Some(Color::White)));
    for bad in ["", "X+3", "B+0", "B+x", "W+6.25", "B+-2"] {
        assert!(bad.parse::<GameResult>().is_err(), "`{bad}` is refused");
    }
}
