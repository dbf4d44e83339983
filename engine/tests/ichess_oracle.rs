//! Differential test of iChess against Fairy-Stockfish, through its Python binding
//! `pyffish` (see `tests/oracles/ichess_oracle.py` and `tests/oracles/ichess.ini`).
//!
//! Seeded random games are played through deployment and on for 100 plies and more; at
//! every position both sides must agree on the full set of legal turns, check, the board,
//! both hands, the side to move and the game's end. Late in each game the random player
//! prefers mates and checks, so that games end by mate often enough to test it.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use stonemate_engine::ichess::{Bare, IChess, IChessOptions};
use stonemate_engine::{Cell, Color, EndReason, Game, Outcome, Status, Turn};

const GAMES: u64 = 12;
/// Deployment takes 16 plies; then at least 100 plies of play unless the game ends.
const DEPLOYMENT: usize = 16;
const HUNT_FROM: usize = DEPLOYMENT + 110;
const MAX_PLIES: usize = DEPLOYMENT + 200;

const INSTALL: &str = "the iChess oracle needs python3 with pyffish 0.0.90: pip install -r .ci/requirements.txt";

struct Oracle {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Oracle {
    fn start() -> Oracle {
        let script: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "oracles", "ichess_oracle.py"].iter().collect();
        let mut child = Command::new("python3")
            .arg(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|error| panic!("cannot run python3 ({error}): {INSTALL}"));
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        Oracle { child, stdin, stdout }
    }

    fn ask(&mut self, request: Value) -> Value {
        let sent = writeln!(self.stdin, "{request}").and_then(|()| self.stdin.flush());
        let mut line = String::new();
        let read = self.stdout.read_line(&mut line);
        let reply: Value = match (sent, read) {
            (Ok(()), Ok(n)) if n > 0 => serde_json::from_str(&line).expect("the oracle answers JSON"),
            _ => panic!("the oracle stopped: {INSTALL}"),
        };
        if let Some(fatal) = reply.get("fatal") {
            panic!("{fatal}");
        }
        if let Some(error) = reply.get("error") {
            panic!("oracle error for {request}: {error}");
        }
        reply
    }
}

impl Drop for Oracle {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the games went through; asserted so that the test cannot pass vacuously.
#[derive(Debug, Default)]
struct Tally {
    positions: usize,
    play_drops: usize,
    promotions: usize,
    captures: usize,
    checks: usize,
    mates: usize,
    repetitions: usize,
    other_endings: usize,
    long_games: usize,
}

/// The UCI form Fairy-Stockfish uses: `R@a1`, `g4h2`, `c4c5+` (promotion).
fn uci(turn: Turn) -> String {
    match turn {
        Turn::Drop { role, to } => format!("{}@{to}", role.letter()),
        Turn::Move { from, to, promotion } => format!("{from}{to}{}", if promotion.is_some() { "+" } else { "" }),
        other => panic!("iChess lists no {other:?}"),
    }
}

/// The game's result for the side to move, as the oracle reports it.
fn result_for(game: &IChess, to_move: Color) -> Value {
    match game.status() {
        Status::Ongoing { .. } => Value::Null,
        Status::Finished(ending) => json!(match ending.outcome {
            Outcome::Draw => "draw",
            Outcome::Winner(winner) if winner == to_move => "win",
            Outcome::Winner(_) => "loss",
        }),
    }
}

fn compare(game: &IChess, oracle: &Value, record: &[String]) {
    let context = || format!("after {} ({}), at {}", record.len(), record.join(" "), game.fen());
    let to_move = if game.fen().ends_with(" w") { Color::White } else { Color::Black };
    let ended_by_repetition = matches!(
        game.status(),
        Status::Finished(e) if matches!(e.reason, EndReason::Repetition | EndReason::PerpetualCheck)
    );
    if !ended_by_repetition {
        let mut ours: Vec<String> = game.legal_turns().into_iter().map(uci).collect();
        ours.sort();
        let theirs: Vec<String> = serde_json::from_value(oracle["legal"].clone()).expect("legal list");
        let missing: Vec<&String> = theirs.iter().filter(|m| !ours.contains(m)).collect();
        let extra: Vec<&String> = ours.iter().filter(|m| !theirs.contains(m)).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "legal turns differ {}: missing {missing:?}, extra {extra:?}",
            context()
        );
    }
    assert_eq!(json!(game.view().rows()), oracle["board"], "board {}", context());
    let [white, black] = game.hands().expect("iChess has hands");
    assert_eq!(json!({"white": white.to_string(), "black": black.to_string()}), oracle["hands"], "hands {}", context());
    assert_eq!(json!(to_move.name()), oracle["to_move"], "side to move {}", context());
    assert_eq!(json!(Bare::of(game).in_check()), oracle["check"], "check {}", context());
    assert_eq!(result_for(game, to_move), oracle["end"], "game end {} ({:?})", context(), game.status());
}

/// How the random player picks its turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    /// Uniformly at random; late in the game, mates first, then (often) checks.
    Random,
    /// As `Random`, but after a while it takes its own last move back whenever it can,
    /// so that positions repeat (ruling I3).
    Repeater,
}

/// The move that undoes `turn`, if it was a plain move.
fn reverse(turn: Turn) -> Option<Turn> {
    match turn {
        Turn::Move { from, to, promotion: None } => Some(Turn::Move { from: to, to: from, promotion: None }),
        _ => None,
    }
}

fn choose(game: &IChess, legal: &[Turn], ply: usize, own_last: Option<Turn>, style: Style, rng: &mut StdRng) -> Turn {
    if style == Style::Repeater && ply >= DEPLOYMENT + 30 {
        if let Some(back) = own_last.and_then(reverse).filter(|back| legal.contains(back)) {
            return back;
        }
    }
    if ply >= HUNT_FROM {
        let after = |turn: Turn| {
            let mut next = game.clone();
            next.play(turn).expect("a listed turn plays");
            next
        };
        let mates: Vec<Turn> = legal
            .iter()
            .copied()
            .filter(|&t| matches!(after(t).status(), Status::Finished(e) if e.reason == EndReason::Checkmate))
            .collect();
        if let Some(&mate) = mates.choose(rng) {
            return mate;
        }
        let checks: Vec<Turn> = legal.iter().copied().filter(|&t| Bare::of(&after(t)).in_check()).collect();
        if rng.gen_bool(0.7) {
            if let Some(&check) = checks.choose(rng) {
                return check;
            }
        }
    }
    *legal.choose(rng).expect("an ongoing game has a legal turn")
}

fn tally_turn(game: &IChess, turn: Turn, tally: &mut Tally) {
    match turn {
        Turn::Drop { .. } if !Bare::of(game).deploying() => tally.play_drops += 1,
        Turn::Move { to, promotion, .. } => {
            tally.promotions += usize::from(promotion.is_some());
            tally.captures += usize::from(game.view().cell(to) != Cell::Empty);
        }
        _ => {}
    }
}

fn play_game(oracle: &mut Oracle, seed: u64, style: Style, tally: &mut Tally) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = IChess::new(IChessOptions::default());
    let mut record = Vec::new();
    let mut turns: Vec<Turn> = Vec::new();
    oracle.ask(json!({"cmd": "new"}));
    for ply in 0..=MAX_PLIES {
        compare(&game, &oracle.ask(json!({"cmd": "state"})), &record);
        tally.positions += 1;
        tally.checks += usize::from(Bare::of(&game).in_check());
        if let Status::Finished(ending) = game.status() {
            match ending.reason {
                EndReason::Checkmate => tally.mates += 1,
                EndReason::Repetition | EndReason::PerpetualCheck => tally.repetitions += 1,
                _ => tally.other_endings += 1,
            }
            tally.long_games += usize::from(ply >= DEPLOYMENT + 100);
            return;
        }
        if ply == MAX_PLIES {
            tally.long_games += 1;
            return;
        }
        let legal = game.legal_turns();
        let own_last = turns.len().checked_sub(2).map(|i| turns[i]);
        let turn = choose(&game, &legal, ply, own_last, style, &mut rng);
        turns.push(turn);
        tally_turn(&game, turn, tally);
        record.push(uci(turn));
        oracle.ask(json!({"cmd": "play", "move": uci(turn)}));
        game.play(turn).expect("a listed turn plays");
    }
}

/// Plays turn texts from a start both here and in the oracle, comparing every position.
fn play_script(oracle: &mut Oracle, mut game: IChess, turns: &[String]) -> IChess {
    let mut record = Vec::new();
    for text in turns {
        compare(&game, &oracle.ask(json!({"cmd": "state"})), &record);
        let turn = game.parse_turn(text).unwrap_or_else(|e| panic!("`{text}`: {e}"));
        record.push(uci(turn));
        oracle.ask(json!({"cmd": "play", "move": uci(turn)}));
        game.play(turn).unwrap_or_else(|e| panic!("`{text}`: {e}"));
    }
    compare(&game, &oracle.ask(json!({"cmd": "state"})), &record);
    game
}

fn script(text: &str) -> Vec<String> {
    stonemate_engine::notation::record_tokens(text)
}

#[test]
fn example_game_agrees_with_fairy_stockfish() {
    let mut oracle = Oracle::start();
    oracle.ask(json!({"cmd": "new"}));
    let turns = script(include_str!("../../examples/ichess.txt"));
    let game = play_script(&mut oracle, IChess::new(IChessOptions::default()), &turns);
    assert!(matches!(game.status(), Status::Finished(e) if e.reason == EndReason::Checkmate));
}

#[test]
fn repetition_and_perpetual_check_agree_with_fairy_stockfish() {
    let mut oracle = Oracle::start();
    let cases = [
        ("6nk/8/8/8/8/8/8/KN6 w", "Nc3 Nf6 Nb1 Ng8 Nc3 Nf6 Nb1 Ng8 Nc3 Nf6 Nb1 Ng8", EndReason::Repetition),
        (
            "7k/6p1/8/8/8/8/4Q3/K7 w",
            "Qh5 Kg8 Qe8 Kh7 Qh5 Kg8 Qe8 Kh7 Qh5 Kg8 Qe8 Kh7 Qh5 Kg8",
            EndReason::PerpetualCheck,
        ),
    ];
    for (fen, turns, reason) in cases {
        oracle.ask(json!({"cmd": "setup", "fen": fen}));
        let start = IChess::from_fen(fen).expect("a valid set-up");
        let game = play_script(&mut oracle, start, &script(turns));
        assert!(matches!(game.status(), Status::Finished(e) if e.reason == reason), "{fen}: {:?}", game.status());
    }
}

#[test]
fn ichess_agrees_with_fairy_stockfish() {
    let mut oracle = Oracle::start();
    let mut tally = Tally::default();
    for seed in 0..GAMES {
        let style = if seed % 6 == 5 { Style::Repeater } else { Style::Random };
        play_game(&mut oracle, seed, style, &mut tally);
    }
    eprintln!("{tally:?}");
    assert!(tally.play_drops > 0, "no drops after deployment: {tally:?}");
    assert!(tally.promotions > 0, "no promotions: {tally:?}");
    assert!(tally.captures > 0, "no captures: {tally:?}");
    assert!(tally.checks > 0, "no checks: {tally:?}");
    assert!(tally.mates > 0, "no game ended in mate: {tally:?}");
    assert!(tally.repetitions > 0, "no game ended by repetition: {tally:?}");
    assert!(
        tally.long_games * 2 >= GAMES as usize,
        "fewer than half the games went 100 plies past deployment: {tally:?}"
    );
}
