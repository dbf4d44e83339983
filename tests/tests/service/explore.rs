//! `/explore` (spec, fourth wave "following games"): privately, a line played on a copy of
//! the game with the engine's own checks, the board after its legal part, the first
//! illegal turn named with the game's reason; the game is not touched, and a line of any
//! length is answered within Discord's limits.

use stonemate_bot::service::GameId;
use stonemate_engine::{AnyGame, GameKind};

use super::common::{Table, mv_in, text, typed};

/// `/explore line:LINE` in game `id`.
fn explore(id: GameId, line: &str) -> super::common::Call {
    typed("explore", &[("line", text(line)), ("game", text(&id.0.to_string()))])
}

#[test]
fn explore_plays_a_legal_line_on_a_copy_and_shows_the_board_after_it() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv_in("e5", id));
    let before = table.record(id);
    let response = table.ok("alice", explore(id, "d4 c3 d3"));
    let reply = &response.reply;
    assert!(reply.private && response.notices.is_empty());
    assert_eq!(reply.images.len(), 1, "the board after the line");
    assert!(reply.text().contains("3 turns played: R@d4 R@c3 R@d3."), "{}", reply.text());
    assert!(reply.text().contains("after turn 3: black to move"), "{}", reply.text());
    assert!(!reply.text().contains("refused"), "{}", reply.text());
    assert_eq!(table.record(id), before, "the game is not touched");
    // An onlooker may explore too, and the game goes on as it was.
    table.ok("carol", explore(id, "d4"));
    table.ok("alice", mv_in("d4", id));
}

#[test]
fn explore_names_the_first_illegal_turn_with_the_engines_reason() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv_in("e5", id));
    let reply = table.ok("alice", explore(id, "d4 d4 c3")).reply;
    // The engine's own refusal of the same turn in the same position.
    let mut position = AnyGame::replay(GameKind::Go, &table.record(id).options, &["R@e5", "R@d4"]).unwrap().game;
    let error = position.parse_turn("d4").and_then(|turn| position.play_turn(turn)).unwrap_err();
    let reason = error.to_string();
    assert!(reply.text().contains("1 turn played: R@d4."), "{}", reply.text());
    assert!(
        reply.text().contains(&format!("Turn 2, `d4`, is refused: {}", reason.trim_end_matches('.'))),
        "{reason} in {}",
        reply.text()
    );
    assert!(reply.text().contains("after turn 1"), "the board after the legal part: {}", reply.text());
    assert!(!reply.text().contains("R@c3"), "nothing after the refused turn is played: {}", reply.text());
}

#[test]
fn explore_answers_a_10_kb_line_within_discords_limits() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=19x19");
    // 10 KB: legal drops across the board, then one very long word.
    let squares: Vec<String> = (0..19u8)
        .flat_map(|rank| (0..19u8).map(move |file| format!("{}{}", (b'a' + file) as char, rank + 1)))
        .collect();
    let mut line = squares.iter().take(300).cloned().collect::<Vec<_>>().join(" ");
    line.push(' ');
    line.push_str(&"z".repeat(10_240 - line.len()));
    assert_eq!(line.len(), 10_240);
    let reply = table.ok("bob", explore(id, &line)).reply;
    let shown = reply.text();
    assert!(shown.chars().count() <= 2000, "{} characters", shown.chars().count());
    assert!(!shown.contains(&"z".repeat(100)), "the line is never echoed whole");
    assert!(shown.contains("is refused"), "{shown}");
}
