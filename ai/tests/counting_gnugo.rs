//! The estimate of the dead stones against GNU Go's own (`gnugo --mode gtp`, installed by
//! `scripts/test`): GNU Go plays itself on 9x9 (seeded, level 1) until both pass, often
//! leaving stones it judges dead on the board; our game mirrors every move with
//! `counting=on`, and the estimate of the dead stones must be GNU Go's
//! `final_status_list dead` (seeds where it was measured to). That the agreed stones then
//! give GNU Go's `final_score` is the engine's rule 10 (`engine/tests/go_gnugo.rs`).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use stonemate_ai::counting::{Playouts, estimate_dead_with};
use stonemate_engine::go::DeadPieces;
use stonemate_engine::{AnyGame, Color, GameKind, Role, Square, Turn};

/// A GNU Go process spoken to over GTP, one command at a time.
struct GnuGo {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl GnuGo {
    /// GNU Go in GTP mode with these arguments (Debian puts it in `/usr/games`, which is
    /// not always on `PATH`).
    fn start(arguments: &[&str]) -> GnuGo {
        let binary = ["/usr/games/gnugo", "/usr/bin/gnugo"]
            .into_iter()
            .find(|path| std::path::Path::new(path).exists())
            .unwrap_or("gnugo");
        let mut child = Command::new(binary)
            .args(["--mode", "gtp"])
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("GNU Go is needed for this test (apt-get install gnugo): {e}"));
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        GnuGo { child, input, output }
    }

    /// Sends one command and reads its answer: `= text` or `? error`, ended by an empty line.
    fn command(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.input, "{command}").expect("GNU Go reads");
        self.input.flush().expect("GNU Go reads");
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

/// A GTP vertex (`F3`, letters without I) as our square.
fn square_of(vertex: &str) -> Square {
    let letters = "ABCDEFGHJKLMNOPQRST";
    let file = letters.find(vertex[..1].to_ascii_uppercase().as_str()).expect("a GTP column");
    let rank: u8 = vertex[1..].parse().expect("a GTP row");
    Square::new(file as u8, rank - 1).expect("on the board")
}

fn gtp_color(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The game GNU Go (seeded by `seed`, level 1) plays against itself on 9x9 to two passes,
/// mirrored with counting on, and GNU Go's dead stones at its end.
fn passed_out_by_gnu_go(seed: &str) -> (AnyGame, DeadPieces) {
    let mut gnugo = GnuGo::start(&["--seed", seed, "--level", "1"]);
    let options = [("board", "9x9"), ("komi", "6.5"), ("counting", "on")].map(|(k, v)| (k.to_owned(), v.to_owned()));
    let mut game = AnyGame::new(GameKind::Go, &options).expect("options");
    for command in ["boardsize 9", "clear_board", "komi 6.5"] {
        gnugo.command(command).expect(command);
    }
    while !game.is_counting() {
        let mover = game.to_move().unwrap_or_else(|| panic!("seed {seed}: the game ended without counting"));
        assert!(game.view().turns_played < 300, "seed {seed}: no end");
        let answer = gnugo.command(&format!("genmove {}", gtp_color(mover))).expect("GNU Go moves");
        let turn = match answer.to_ascii_lowercase().as_str() {
            "pass" => Turn::Pass,
            "resign" => panic!("seed {seed}: GNU Go resigned; pick a seed where it passes"),
            _ => Turn::Drop { role: Role::Rook, to: square_of(&answer) },
        };
        game.play(turn).unwrap_or_else(|e| panic!("seed {seed}: GNU Go's {answer} refused: {e}"));
    }
    let listed = gnugo.command("final_status_list dead").expect("dead stones");
    (game, DeadPieces::new(listed.split_whitespace().map(square_of)))
}

/// Both random games, by the rules and on the playout board, name GNU Go's dead stones in
/// three games that leave some.
#[test]
fn rule_10_the_estimate_names_gnu_go_s_dead_stones() {
    let mut games_with_dead_stones = 0;
    for seed in ["2", "4", "5"] {
        let (game, theirs) = passed_out_by_gnu_go(seed);
        for playouts in [Playouts::Rules, Playouts::PlayoutBoard] {
            let ours = estimate_dead_with(&game, playouts).expect("counting");
            assert_eq!(ours, theirs, "seed {seed}: the estimate ({playouts:?}) differs from GNU Go's dead stones");
        }
        games_with_dead_stones += usize::from(!theirs.is_empty());
    }
    assert_eq!(games_with_dead_stones, 3, "every game left dead stones to count");
}
