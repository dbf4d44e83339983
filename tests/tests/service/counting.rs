//! Counting in go (rule 10 of `go-with-pieces.md`, spec "Counting"): after two passes the
//! dead pieces are proposed on the board with Accept and Resume, `/dead` proposes others,
//! both accepting ends the game with that score, Resume plays on, a proposal stands when
//! the answering player's time runs out, and the record's `dead ...` entry replays.

use stonemate_bot::clock::Span;
use stonemate_bot::service::{Command, GameId, Response, Settings, Timeouts};
use stonemate_bot::store::{MemoryStore, Phase};
use stonemate_engine::{AnyGame, Color, EndReason, GameKind, GameResult};

use super::common::{Table, text, typed};

/// The Accept button of a reply.
fn accept_button(response: &Response) -> String {
    let button = response.reply.buttons.iter().find(|button| button.custom_id.starts_with("dead-accept:"));
    button.unwrap_or_else(|| panic!("no Accept in {:?}", response.reply)).custom_id.clone()
}

fn has_resume(response: &Response, id: GameId) -> bool {
    response.reply.buttons.iter().any(|button| button.custom_id == format!("resume:{}", id.0))
}

fn dead(squares: &str) -> super::common::Call {
    typed("dead", &[("squares", text(squares))])
}

/// Plays `turns` alternately, Black (bob) first.
fn play(table: &Table, id: GameId, turns: &[&str]) -> Response {
    let mut last = None;
    for (index, turn) in turns.iter().enumerate() {
        let who = if index % 2 == 0 { "bob" } else { "alice" };
        last = Some(table.ok(who, super::common::mv_in(turn, id)));
    }
    last.expect("some turns")
}

/// 5x5, Black (bob) walls the c-file, White (alice) the d-file; then Black passes, White
/// drops a rook at a3 inside Black's area, where it cannot live, and both pass: counting.
const WALLS: [&str; 14] = ["c1", "d1", "c2", "d2", "c3", "d3", "c4", "d4", "c5", "d5", "pass", "a3", "pass", "pass"];

fn counting_game(table: &Table, days: u8) -> (GameId, Response) {
    let id = table.go("alice", "bob", days, "board=5x5");
    let opened = play(table, id, &WALLS);
    (id, opened)
}

#[test]
fn go_challenges_count_dead_pieces_unless_told_off() {
    let table = Table::new();
    let on = table.go("alice", "bob", 3, "board=9x9");
    assert!(table.record(on).options.contains(&("counting".to_owned(), "on".to_owned())));
    let off = table.go("carol", "dave", 3, "board=9x9 counting=off");
    assert!(!table.record(off).options.iter().any(|(key, _)| key == "counting"), "off is the bare default");
    for (who, turn) in [("dave", "pass"), ("carol", "pass")] {
        table.ok(who, super::common::mv_in(turn, off));
    }
    assert_eq!(table.record(off).phase, Phase::Finished, "without counting the passes end it");
}

/// Rule 10 with rooks: the two passes open counting with the engine's proposal crossed
/// out on the board; a player's proposal stands once the other accepts it, the pieces
/// are removed as prisoners, and the board is scored without them.
#[test]
fn rule_10_dead_groups_of_rooks_are_agreed_removed_and_scored() {
    let table = Table::new();
    let (id, opened) = counting_game(&table, 3);
    let reply = &opened.reply;
    assert!(reply.text().contains("/dead") && reply.text().contains("engine proposes"), "{}", reply.text());
    assert!(reply.text().contains("dead: "), "the engine's estimate is shown: {}", reply.text());
    assert!(has_resume(&opened, id) && !reply.images.is_empty());
    assert_eq!(table.record(id).phase, Phase::Playing);
    // Bob, who passed first, is told and may answer.
    assert!(opened.notices.iter().any(|notice| notice.text().contains("both passed")), "{:?}", opened.notices);
    let proposed = table.ok("bob", dead("a3"));
    assert!(proposed.reply.message.mentions().contains(&super::common::user("alice").id));
    let over = table.service.press(&super::common::caller("alice"), &accept_button(&proposed));
    assert!(over.reply.ok, "{}", over.reply.text());
    let record = table.record(id);
    assert_eq!(record.turns.last().map(String::as_str), Some("dead a3"));
    let result = record.result.expect("over");
    assert_eq!((result.winner(), result.ending.reason), (Some(Color::Black), EndReason::Counted));
    // Black: ten squares of the a- and b-files and one prisoner; White: the e-file.
    assert!(over.reply.text().contains("B+6"), "{}", over.reply.text());
    assert!(over.reply.text().contains("black 11") && over.reply.text().contains("white 5"), "{}", over.reply.text());
}

/// The end of a counted game says its go result once, and a draw as a draw.
#[test]
fn a_counted_result_is_written_once_and_a_counted_draw_as_a_draw() {
    for (options, result) in [
        ("board=5x5", "bob (black) wins by 6 points after counting (B+6) (white 5, black 11)"),
        // Komi 6 makes White's five points as many as Black's eleven.
        ("board=5x5 komi=6", "draw after counting (white 11, black 11)"),
    ] {
        let table = Table::new();
        let id = table.go("alice", "bob", 3, options);
        play(&table, id, &WALLS);
        let proposed = table.ok("bob", dead("a3"));
        let over = table.service.press(&super::common::caller("alice"), &accept_button(&proposed));
        let text = over.reply.text();
        assert!(text.starts_with(&format!("alice accepts: #1 is over: {result}. Ratings: ")), "{text}");
    }
}

/// Rule 10 with a mixed set: a rook and a knight of White's in Black's area are agreed dead
/// together (the opponent proposing the very set accepts it).
#[test]
fn rule_10_dead_groups_of_mixed_sets_are_agreed() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=5x5 pieces=RN");
    let mut turns: Vec<String> = WALLS[..10].iter().map(|square| format!("R@{square}")).collect();
    turns.extend(["pass", "R@a3", "pass", "N@b5", "pass", "pass"].map(str::to_owned));
    let turns: Vec<&str> = turns.iter().map(String::as_str).collect();
    play(&table, id, &turns);
    table.ok("alice", dead("none"));
    table.ok("bob", dead("b5 a3"));
    let over = table.ok("alice", dead("a3 b5"));
    let record = table.record(id);
    assert_eq!(record.turns.last().map(String::as_str), Some("dead a3 b5"));
    assert_eq!(record.result.expect("over").winner(), Some(Color::Black));
    // Black: the ten squares of the a- and b-files and two prisoners; White: five.
    assert!(over.reply.text().contains("B+7"), "{}", over.reply.text());
}

/// Rule 10: Resume plays on from the position of the two passes, the player who passed
/// first to move; two passes in a row lead to counting again.
#[test]
fn rule_10_a_resumed_game_that_passes_again_counts_again() {
    let table = Table::new();
    let (id, _) = counting_game(&table, 3);
    let resumed = table.service.press(&super::common::caller("alice"), &format!("resume:{}", id.0));
    assert!(resumed.reply.ok && resumed.reply.text().contains("bob to move"), "{}", resumed.reply.text());
    // bob's ping says what happened: the resume, not the pass from before the counting.
    let ping = resumed.notices.iter().map(|notice| notice.text()).find(|text| text.contains("your turn"));
    let ping = ping.expect("bob is pinged");
    assert!(ping.ends_with(" alice resumed play after the two passes."), "{ping}");
    assert!(!ping.contains("played pass"), "{ping}");
    assert!(table.record(id).pending.counting.is_none());
    assert!(table.refused("bob", dead("a3")).contains("not counting"));
    assert!(table.refused("alice", super::common::mv_in("b1", id)).contains("not your turn"));
    table.ok("bob", super::common::mv_in("b2", id));
    table.ok("alice", super::common::mv_in("pass", id));
    let again = table.ok("bob", super::common::mv_in("pass", id));
    assert!(again.reply.text().contains("Both passed") && has_resume(&again, id), "{}", again.reply.text());
    assert!(table.record(id).pending.counting.is_some());
    // A turn by the player to move resumes play too.
    table.ok("alice", super::common::mv_in("e1", id));
    assert!(table.record(id).pending.counting.is_none());
}

/// The Accept button names its proposal: once another replaces it, the old button is
/// refused; a player cannot accept his own proposal twice; `/dead` alone shows the
/// standing proposal privately.
#[test]
fn a_new_proposal_clears_acceptances_and_old_buttons() {
    let table = Table::new();
    let (id, opened) = counting_game(&table, 3);
    let first = accept_button(&opened);
    table.service.press(&super::common::caller("alice"), &first);
    assert_eq!(table.record(id).pending.counting.expect("counting").by, Some(Color::White));
    assert!(table.press_refused("alice", &first).contains("already accepted"));
    let engine = table.record(id).pending.counting.expect("counting").proposal;
    let other = if engine == "dead a3" { "none" } else { "a3" };
    table.ok("bob", dead(other));
    assert!(table.press_refused("alice", &first).contains("changed"));
    let shown = table.ok("alice", typed("dead", &[]));
    let squares = if other == "none" { "dead: none" } else { "dead: a3" };
    assert!(shown.reply.private && shown.reply.text().contains(squares), "{}", shown.reply.text());
    assert_eq!(table.record(id).pending.counting.expect("counting").by, Some(Color::Black));
    let refused = table.refused("alice", dead("a4"));
    assert!(refused.contains("a4"), "{refused}");
    assert_eq!(table.record(id).phase, Phase::Playing);
}

/// Rule 10: a proposal waits on the clock of the player who must answer it; when that
/// clock runs out, it stands.
#[test]
fn rule_10_a_proposal_stands_when_the_clock_runs_out() {
    let table = Table::new();
    let (id, _) = counting_game(&table, 1);
    table.ok("bob", dead("a3"));
    assert!(table.refused("bob", Command::Claim { game: Some(id) }).contains("counting"));
    table.advance(Span::HOUR * 23);
    let reminded = table.service.tick();
    assert!(reminded.iter().any(|notice| notice.text().contains("if time runs out, it stands")), "{reminded:?}");
    table.advance(Span::HOUR * 2);
    let notices = table.service.tick();
    // Every message of the result, the players' own too, says it stood on time.
    let told: Vec<String> =
        notices.iter().map(|notice| notice.text()).filter(|text| text.contains("is over")).collect();
    assert_eq!(told.len(), 3, "the channel and both players: {told:?}");
    assert!(
        told.iter().all(|text| text.contains("alice's time to answer the proposal ran out, so it stands")),
        "{told:?}"
    );
    let record = table.record(id);
    assert_eq!(record.turns.last().map(String::as_str), Some("dead a3"));
    assert_eq!(record.result.expect("over").winner(), Some(Color::Black));
}

/// Rule 10 and the time-out setting agree: whether time-outs are automatic (the default)
/// or claimed, an answering player whose clock runs out does not lose on time; the
/// proposal stands, also the engine's own one that nobody accepted.
#[test]
fn rule_10_a_proposal_stands_whatever_the_timeout_setting() {
    for timeouts in [Timeouts::Automatic, Timeouts::Claim] {
        let table = Table::with(MemoryStore::new(), Settings { timeouts, ..Settings::default() });
        let (id, _) = counting_game(&table, 1);
        let proposal = table.record(id).pending.counting.expect("counting").proposal;
        table.advance(Span::days(2));
        let notices = table.service.tick();
        assert!(notices.iter().any(|notice| notice.text().contains("so it stands")), "{timeouts:?}: {notices:?}");
        let record = table.record(id);
        assert_eq!(record.turns.last(), Some(&proposal), "{timeouts:?}");
        let result = record.result.expect("over");
        assert_eq!(result.ending.reason, EndReason::Counted, "{timeouts:?}: not a loss on time");
    }
}

/// Rule 10: the record keeps the agreement as its last entry, and replaying the record
/// (as `stonemate replay` and `/history` do) removes those pieces and scores the same.
#[test]
fn rule_10_replay_of_a_record_with_dead() {
    let table = Table::new();
    let (id, _) = counting_game(&table, 3);
    table.ok("bob", dead("a3"));
    table.ok("alice", dead("a3"));
    let record = table.record(id);
    let replay = AnyGame::replay(GameKind::Go, &record.options, &record.turns).expect("options");
    assert!(replay.error.is_none(), "{:?}", replay.error);
    let ending = replay.game.status().ending().expect("over");
    assert_eq!(GameResult::new(ending, replay.game.score()).to_string(), "B+6");
    let history = table.ok("alice", Command::History { game: Some(id) });
    let file = history.reply.files.iter().find(|file| file.name.ends_with(".txt")).expect("the record");
    let written = String::from_utf8(file.bytes.clone()).expect("text");
    assert!(written.contains("dead a3"), "{written}");
    let sgf = history.reply.files.iter().find(|file| file.name.ends_with(".sgf")).expect("an SGF");
    assert!(String::from_utf8_lossy(&sgf.bytes).contains("RE[B+6]"));
}

/// A GNU Go process spoken to over GTP (`/usr/games/gnugo --mode gtp`).
struct GnuGo {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: std::io::BufReader<std::process::ChildStdout>,
}

impl GnuGo {
    fn start(arguments: &[&str]) -> GnuGo {
        let binary = ["/usr/games/gnugo", "/usr/bin/gnugo"]
            .into_iter()
            .find(|path| std::path::Path::new(path).exists())
            .unwrap_or("gnugo");
        let mut child = std::process::Command::new(binary)
            .args(["--mode", "gtp"])
            .args(arguments)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("GNU Go is needed for this test (apt-get install gnugo): {e}"));
        let input = child.stdin.take().expect("piped");
        let output = std::io::BufReader::new(child.stdout.take().expect("piped"));
        GnuGo { child, input, output }
    }

    /// One command and its answer (`= text`), which must not be an error.
    fn command(&mut self, command: &str) -> String {
        use std::io::{BufRead, Write};
        writeln!(self.input, "{command}").expect("GNU Go reads");
        self.input.flush().expect("GNU Go reads");
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            assert!(self.output.read_line(&mut line).expect("GNU Go answers") > 0, "GNU Go exited");
            if line.trim().is_empty() && !answer.is_empty() {
                break;
            }
            answer.push_str(line.trim_end());
            answer.push(' ');
        }
        let answer = answer.trim();
        assert!(answer.starts_with('='), "GNU Go refused `{command}`: {answer}");
        answer.trim_start_matches('=').trim().to_owned()
    }
}

impl Drop for GnuGo {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A GTP vertex (`F3`; columns skip I) in our notation (`f3`).
fn square_of(vertex: &str) -> String {
    let letters = "ABCDEFGHJKLMNOPQRST";
    let file = letters.find(&vertex[..1].to_ascii_uppercase()).expect("a GTP column");
    format!("{}{}", char::from(b'a' + u8::try_from(file).expect("small")), &vertex[1..])
}

/// GNU Go plays both sides of a game through the service, on 9x9 with komi 6.5, and
/// passes with stones it judges dead still on the board. Counting opens with the engine's
/// estimate, which names GNU Go's dead stones; the players agree on them, and the game
/// ends with GNU Go's own `final_score`, in the reply and in the SGF.
#[test]
fn rule_10_a_game_against_gnu_go_is_counted_as_gnu_go_counts_it() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9 komi=6.5");
    let mut gnugo = GnuGo::start(&["--seed", "2", "--level", "1"]);
    for command in ["boardsize 9", "clear_board", "komi 6.5"] {
        gnugo.command(command);
    }
    let mut passed_with_dead = None;
    for turn in 0..300 {
        let (who, color) = if turn % 2 == 0 { ("bob", "b") } else { ("alice", "w") };
        let answer = gnugo.command(&format!("genmove {color}"));
        assert_ne!(answer.to_ascii_lowercase(), "resign", "pick a seed where GNU Go passes");
        let notation = if answer.eq_ignore_ascii_case("pass") { "pass".to_owned() } else { square_of(&answer) };
        let response = table.ok(who, super::common::mv_in(&notation, id));
        if table.record(id).pending.counting.is_some() {
            passed_with_dead = Some(response);
            break;
        }
    }
    let opened = passed_with_dead.expect("GNU Go passed twice");
    let listed = gnugo.command("final_status_list dead");
    let theirs: Vec<String> = listed.split_whitespace().map(square_of).collect();
    assert!(!theirs.is_empty(), "GNU Go passed with dead stones on the board");
    let score = gnugo.command("final_score");
    let engine = table.record(id).pending.counting.expect("counting").proposal;
    let mut ours: Vec<&str> = engine.split_whitespace().skip(1).collect();
    let mut expected: Vec<&str> = theirs.iter().map(String::as_str).collect();
    ours.sort_unstable();
    expected.sort_unstable();
    assert_eq!(ours, expected, "the engine's proposal is GNU Go's dead stones");
    assert!(opened.reply.text().contains(&format!("counted so, {score}")), "{score}: {}", opened.reply.text());
    // Bob proposes GNU Go's list, Alice accepts it with the button.
    let proposed = table.ok("bob", dead(&theirs.join(" ")));
    let over = table.service.press(&super::common::caller("alice"), &accept_button(&proposed));
    assert!(over.reply.text().contains(&score), "GNU Go's {score}: {}", over.reply.text());
    let record = table.record(id);
    assert_eq!(record.phase, Phase::Finished);
    assert!(record.turns.last().is_some_and(|entry| entry.starts_with("dead ")));
    let history = table.ok("alice", Command::History { game: Some(id) });
    let sgf = history.reply.files.iter().find(|file| file.name.ends_with(".sgf")).expect("an SGF");
    assert!(String::from_utf8_lossy(&sgf.bytes).contains(&format!("RE[{score}]")));
}

/// A table whose "pictures" are the score and whether territory is marked, as text.
fn score_table() -> Table {
    let settings = Settings {
        render: |picture| format!("{:?} territory:{}", picture.view.score, picture.view.owner.is_some()).into_bytes(),
        ..Settings::default()
    };
    Table::with(MemoryStore::new(), settings)
}

/// The counting screens agree (issue 41): a proposal's picture shows the score its text
/// states and the territory that goes with it, and `/board` names whose answer is due,
/// also after one acceptance, without offering Play.
#[test]
fn a_proposals_picture_shows_its_counted_score_and_board_names_who_answers() {
    let table = score_table();
    let (id, _) = counting_game(&table, 3);
    let proposed = table.ok("bob", dead("a3"));
    assert!(proposed.reply.text().contains("counted so, B+6 (white 5, black 11)"), "{}", proposed.reply.text());
    let picture = String::from_utf8(proposed.reply.images[0].bytes.clone()).unwrap();
    assert!(picture.contains("white: HalfPoints(10), black: HalfPoints(22)"), "the counted score: {picture}");
    assert!(picture.ends_with("territory:true"), "{picture}");
    let board = table.ok("carol", typed("board", &[("game", text(&id.0.to_string()))]));
    let shown = board.reply.text();
    assert!(shown.contains("counting: alice to answer the proposal of dead pieces"), "{shown}");
    assert!(!shown.contains("to move"), "{shown}");
    let for_alice = table.ok("alice", typed("board", &[("game", text(&id.0.to_string()))]));
    assert!(
        for_alice.reply.buttons.iter().all(|button| !button.custom_id.starts_with("play:")),
        "no Play while counting"
    );
    // Bob accepts the engine's own proposal instead in another game: then alice answers it.
    let (other, _) = counting_game(&table, 3);
    let before = table.ok("carol", typed("board", &[("game", text(&other.0.to_string()))])).reply.text();
    assert!(before.contains("counting: bob to answer"), "the engine's proposal goes to the first passer: {before}");
    let accepted = table.service.press(
        &super::common::caller("bob"),
        &accept_button(&table.ok("bob", typed("dead", &[("game", text(&other.0.to_string()))]))),
    );
    assert!(accepted.reply.ok, "{}", accepted.reply.text());
    let after = table.ok("carol", typed("board", &[("game", text(&other.0.to_string()))])).reply.text();
    assert!(after.contains("counting: alice to answer"), "after bob's acceptance alice answers: {after}");
}

/// The points of property `id` in the last node of `sgf`, as written: read as a game of
/// unknown type, since sgf-parse reads a go game's `TB`/`TW` into sets, which would hide a
/// point written twice.
fn count_points(sgf: &str, id: &str) -> Vec<String> {
    let trees = sgf_parse::parse(&sgf.replacen("GM[1]", "GM[0]", 1)).expect("sgf-parse reads it");
    let sgf_parse::GameTree::Unknown(root) = &trees[0] else { panic!("GM[0] is no known game: {sgf}") };
    let last = root.main_variation().last().expect("nodes");
    let values = last.properties().find_map(|prop| match prop {
        sgf_parse::unknown_game::Prop::Unknown(name, values) if name == id => Some(values.clone()),
        _ => None,
    });
    values.unwrap_or_default()
}

/// FF\[4\]: a list of points holds each point at most once, and the count's `TB` and `TW`
/// share none. Regression: a dead piece's point was written as territory and again as a
/// prisoner, and a piece agreed dead in its own side's area landed in both lists.
#[test]
fn the_sgf_of_a_counted_game_lists_each_point_once_and_for_one_side() {
    // a3: White's rook in Black's area (SGF `ac`); e3: one in White's own (`ec`).
    for (white_drop, point) in [("a3", "ac"), ("e3", "ec")] {
        let table = Table::new();
        let id = table.go("alice", "bob", 3, "board=5x5");
        play(&table, id, &WALLS[..10]);
        table.ok("bob", Command::Pass { game: Some(id) });
        table.ok("alice", super::common::mv_in(white_drop, id));
        table.ok("bob", Command::Pass { game: Some(id) });
        table.ok("alice", Command::Pass { game: Some(id) });
        let proposed = table.ok("bob", dead(white_drop));
        let over = table.service.press(&super::common::caller("alice"), &accept_button(&proposed));
        assert!(over.reply.ok && table.record(id).phase == Phase::Finished, "{}", over.reply.text());
        let history = table.ok("carol", Command::History { game: Some(id) });
        let file = history.reply.files.iter().find(|file| file.name.ends_with(".sgf")).expect("an SGF");
        let sgf = String::from_utf8(file.bytes.clone()).expect("text");
        let (black, white) = (count_points(&sgf, "TB"), count_points(&sgf, "TW"));
        for (id, points) in [("TB", &black), ("TW", &white)] {
            let mut unique = points.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(unique.len(), points.len(), "{id} repeats a point: {sgf}");
        }
        assert!(black.iter().all(|point| !white.contains(point)), "a point in both TB and TW: {sgf}");
        let listed = black.iter().chain(&white).filter(|listed| *listed == point).count();
        assert_eq!(listed, 1, "the dead rook's point {point}, once: {sgf}");
    }
}
