//! Differential test: Go with rooks against GNU Go (`gnugo --mode gtp`).
//!
//! With rooks, our rules are go with suicide forbidden and simple ko, which is GNU Go's
//! default (see the shared oracle notes). Seeded random games on 9x9, 13x13 and 19x19; at
//! every turn both programs must agree on the legality of every empty point, and after
//! every turn on the stones and the prisoner counts. The random policy seeks out ko
//! recaptures and tries suicides, and the test asserts that ko refusals, ko retakes after
//! the ko was lifted, and suicide refusals all happened.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use stonemate_engine::go::{DeadPieces, Go, GoError};
use stonemate_engine::{Color, Game, GameResult, Role, Square, Turn};

/// A GNU Go process spoken to over GTP.
struct GnuGo {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl GnuGo {
    fn start() -> GnuGo {
        GnuGo::start_with(&[])
    }

    fn start_with(arguments: &[&str]) -> GnuGo {
        let mut child = common::spawn_gnugo_with(arguments);
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        GnuGo { child, input, output }
    }

    /// Sends several commands at once and reads their answers in order (pipelined).
    fn batch(&mut self, commands: &[String]) -> Vec<Result<String, String>> {
        let mut text = commands.join("\n");
        text.push('\n');
        self.input.write_all(text.as_bytes()).expect("GNU Go reads");
        self.input.flush().expect("GNU Go reads");
        commands.iter().map(|_| self.answer()).collect()
    }

    fn command(&mut self, command: &str) -> Result<String, String> {
        self.batch(&[command.to_owned()]).remove(0)
    }

    /// One GTP answer: `= text` or `? error`, ended by an empty line.
    fn answer(&mut self) -> Result<String, String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            assert!(self.output.read_line(&mut line).expect("GNU Go answers") > 0, "GNU Go exited");
            let line = line.trim_end().to_owned();
            if line.is_empty() && !lines.is_empty() {
                break;
            }
            if !line.is_empty() {
                lines.push(line);
            }
        }
        let text = lines.join("\n");
        match text.strip_prefix('=') {
            Some(ok) => Ok(ok.trim().to_owned()),
            None => Err(text.trim_start_matches('?').trim().to_owned()),
        }
    }
}

impl Drop for GnuGo {
    fn drop(&mut self) {
        let _ = self.input.write_all(b"quit\n");
        let _ = self.child.wait();
    }
}

/// GTP names files A..T without I.
fn vertex(square: Square) -> String {
    let letters = b"ABCDEFGHJKLMNOPQRST";
    format!("{}{}", letters[usize::from(square.file())] as char, square.rank() + 1)
}

fn gtp_color(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// What happened across all games, to show the interesting rules were exercised.
#[derive(Debug, Default)]
struct Tally {
    turns: usize,
    points_compared: usize,
    ko_refusals: usize,
    ko_retakes: usize,
    suicide_refusals: usize,
    suicide_attempts: usize,
    captures: usize,
}

fn play_game(gnugo: &mut GnuGo, size: u8, seed: u64, max_turns: usize, tally: &mut Tally) {
    let mut game = Go::new(common::options(&format!("board={size}x{size}")));
    let mut rng = StdRng::seed_from_u64(seed);
    gnugo.command(&format!("boardsize {size}")).expect("boardsize");
    gnugo.command("clear_board").expect("clear_board");
    gnugo.command("komi 0").expect("komi");
    let mut ko_points: Vec<Square> = Vec::new();
    let mut last_was_pass = false;
    for _ in 0..max_turns {
        // Two passes end the game (when neither side has a legal drop left).
        let Some(mover) = game.to_move() else { break };
        let refusals = compare_legality(gnugo, &game, mover, tally);
        try_illegal_turns(gnugo, &game, mover, &refusals, tally, &mut rng);
        ko_points.extend(refusals.iter().filter(|(_, e)| *e == GoError::Ko).map(|(s, _)| *s));
        let turn = choose_turn(&game, &ko_points, last_was_pass, &mut rng);
        let retakes_ko = matches!(turn, Turn::Drop { to, .. } if ko_points.contains(&to));
        if retakes_ko && is_single_capture(&game, turn) {
            tally.ko_retakes += 1;
        }
        play_both(gnugo, &mut game, mover, turn);
        last_was_pass = turn == Turn::Pass;
        tally.captures += game.view().captured.len();
        tally.turns += 1;
        compare_boards(gnugo, &game);
    }
}

/// Asks both programs about every empty point; returns our refusals with their rule.
fn compare_legality(gnugo: &mut GnuGo, game: &Go, mover: Color, tally: &mut Tally) -> Vec<(Square, GoError)> {
    let empty: Vec<Square> = game.board().shape().squares().filter(|&s| game.board().get(s).is_none()).collect();
    let commands: Vec<String> = empty.iter().map(|&s| format!("is_legal {} {}", gtp_color(mover), vertex(s))).collect();
    let answers = gnugo.batch(&commands);
    let mut refusals = Vec::new();
    for (&square, answer) in empty.iter().zip(answers) {
        let theirs = answer.expect("is_legal answers") == "1";
        let ours = game.clone().play(Turn::Drop { role: Role::Rook, to: square });
        assert_eq!(
            ours.is_ok(),
            theirs,
            "legality of {square} for {mover} differs (ours: {ours:?}) in\n{:?}",
            game.board()
        );
        if let Err(error) = ours {
            refusals.push((square, error));
        }
        tally.points_compared += 1;
    }
    tally.ko_refusals += refusals.iter().filter(|(_, e)| *e == GoError::Ko).count();
    tally.suicide_refusals += refusals.iter().filter(|(_, e)| matches!(e, GoError::Suicide { .. })).count();
    refusals
}

/// Now and then actually plays a refused point: both must refuse, and nothing changes.
fn try_illegal_turns(
    gnugo: &mut GnuGo,
    game: &Go,
    mover: Color,
    refusals: &[(Square, GoError)],
    tally: &mut Tally,
    rng: &mut StdRng,
) {
    let Some((square, _)) = refusals.choose(rng) else { return };
    if !rng.gen_bool(0.3) {
        return;
    }
    let mut attempt = game.clone();
    assert!(attempt.play(Turn::Drop { role: Role::Rook, to: *square }).is_err());
    assert_eq!(format!("{attempt:?}"), format!("{game:?}"), "a refused turn changes nothing");
    let answer = gnugo.command(&format!("play {} {}", gtp_color(mover), vertex(*square)));
    assert!(answer.is_err(), "GNU Go accepted {square}, which we refused");
    tally.suicide_attempts +=
        refusals.iter().any(|(s, e)| s == square && matches!(e, GoError::Suicide { .. })) as usize;
}

/// Mostly random drops; retakes a former ko point when it is legal again; rare passes.
fn choose_turn(game: &Go, ko_points: &[Square], last_was_pass: bool, rng: &mut StdRng) -> Turn {
    let legal: Vec<Turn> = game.legal_turns().into_iter().filter(|&t| t != Turn::Pass).collect();
    let retakes: Vec<Turn> =
        legal.iter().copied().filter(|t| matches!(t, Turn::Drop { to, .. } if ko_points.contains(to))).collect();
    if !retakes.is_empty() && rng.gen_bool(0.8) {
        return *retakes.choose(rng).expect("not empty");
    }
    let captures: Vec<Turn> = legal.iter().copied().filter(|&t| is_single_capture(game, t)).collect();
    if !captures.is_empty() && rng.gen_bool(0.5) {
        return *captures.choose(rng).expect("not empty");
    }
    if legal.is_empty() || (!last_was_pass && rng.gen_bool(0.02)) {
        return Turn::Pass;
    }
    *legal.choose(rng).expect("not empty")
}

fn is_single_capture(game: &Go, turn: Turn) -> bool {
    let mut after = game.clone();
    after.play(turn).is_ok() && after.view().captured.len() == 1
}

fn play_both(gnugo: &mut GnuGo, game: &mut Go, mover: Color, turn: Turn) {
    let move_text = match turn {
        Turn::Drop { to, .. } => vertex(to),
        _ => "pass".to_owned(),
    };
    game.play(turn).expect("chosen from the legal turns");
    gnugo.command(&format!("play {} {move_text}", gtp_color(mover))).expect("GNU Go accepts our legal turn");
}

fn compare_boards(gnugo: &mut GnuGo, game: &Go) {
    let answers = gnugo.batch(&[
        "list_stones black".into(),
        "list_stones white".into(),
        "captures black".into(),
        "captures white".into(),
    ]);
    let answers: Vec<String> = answers.into_iter().map(|a| a.expect("GNU Go answers")).collect();
    for (color, listed) in [(Color::Black, &answers[0]), (Color::White, &answers[1])] {
        let mut theirs: Vec<&str> = listed.split_whitespace().collect();
        theirs.sort_unstable();
        let ours: Vec<String> = game.board().squares_of(color).iter().map(vertex).collect();
        let mut ours: Vec<&str> = ours.iter().map(String::as_str).collect();
        ours.sort_unstable();
        assert_eq!(ours, theirs, "{color} stones differ in\n{:?}", game.board());
    }
    let [by_white, by_black] = game.prisoners();
    assert_eq!(answers[2], by_black.to_string(), "prisoners taken by black");
    assert_eq!(answers[3], by_white.to_string(), "prisoners taken by white");
}

#[test]
fn go_with_rooks_matches_gnu_go_on_9x9_13x13_and_19x19() {
    let mut gnugo = GnuGo::start();
    let mut tally = Tally::default();
    for (size, games, turns) in [(9, 6, 250), (13, 2, 350), (19, 1, 450)] {
        for seed in 0..games {
            play_game(&mut gnugo, size, 1000 * u64::from(size) + seed, turns, &mut tally);
        }
    }
    println!("{tally:?}");
    assert!(tally.ko_refusals > 0, "no ko refusal happened: {tally:?}");
    assert!(tally.ko_retakes > 0, "no ko was retaken after being lifted: {tally:?}");
    assert!(tally.suicide_refusals > 0 && tally.suicide_attempts > 0, "no suicide was tried: {tally:?}");
    assert!(tally.captures > 100, "too few captures: {tally:?}");
}

/// A GTP vertex (`F3`, letters without I) as our square.
fn square_of(vertex: &str) -> Square {
    let letters = "ABCDEFGHJKLMNOPQRST";
    let file = letters.find(vertex[..1].to_ascii_uppercase().as_str()).expect("a GTP column");
    let rank: u8 = vertex[1..].parse().expect("a GTP row");
    Square::new(file as u8, rank - 1).expect("on the board")
}

/// GNU Go plays itself on 9x9 (seeded, level 1) until both pass, often leaving stones that
/// it judges dead on the board. Our game mirrors every move with `counting=on`; the two
/// passes open counting, and agreeing on GNU Go's own dead stones must give GNU Go's
/// `final_score` exactly (rule 10 with rooks is go's territory scoring). (The ai's estimate
/// of the dead stones is checked against GNU Go's in the same games: `ai/tests/counting.rs`.)
#[test]
fn rule_10_counting_gives_gnu_go_s_final_score_with_its_dead_stones() {
    let mut games_with_dead_stones = 0;
    for seed in ["2", "4", "5"] {
        let mut gnugo = GnuGo::start_with(&["--seed", seed, "--level", "1"]);
        let mut game = Go::new(common::options("board=9x9 komi=6.5 counting=on"));
        for command in ["boardsize 9", "clear_board", "komi 6.5"] {
            gnugo.command(command).expect(command);
        }
        while !game.is_counting() {
            assert!(game.status().to_move().is_some() && game.view().turns_played < 300, "seed {seed}: no end");
            let mover = game.to_move().expect("ongoing");
            let answer = gnugo.command(&format!("genmove {}", gtp_color(mover))).expect("GNU Go moves");
            let turn = match answer.to_ascii_lowercase().as_str() {
                "pass" => Turn::Pass,
                "resign" => panic!("seed {seed}: GNU Go resigned; pick a seed where it passes"),
                _ => Turn::Drop { role: Role::Rook, to: square_of(&answer) },
            };
            game.play(turn).unwrap_or_else(|e| panic!("seed {seed}: GNU Go's {answer} refused: {e}"));
        }
        let listed = gnugo.command("final_status_list dead").expect("dead stones");
        let theirs = DeadPieces::new(listed.split_whitespace().map(square_of));
        let their_score = gnugo.command("final_score").expect("a score");
        games_with_dead_stones += usize::from(!theirs.is_empty());
        game.agree_dead(&theirs).expect("GNU Go's dead stones are on the board");
        let ending = game.status().ending().expect("counted");
        assert_eq!(GameResult::new(ending, game.score()).to_string(), their_score, "seed {seed}: {theirs}");
    }
    assert_eq!(games_with_dead_stones, 3, "every game left dead stones to count");
}
