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

/// The Keep as conditional button of a reply, if it has one.
fn keep_button(reply: &stonemate_bot::service::Reply) -> Option<String> {
    reply.buttons.iter().find(|button| button.label == "Keep as conditional").map(|button| button.custom_id.clone())
}

#[test]
fn keep_as_conditional_stores_the_explored_line_as_conditional_would() {
    let table = Table::new();
    let id = table.go("alice", "bob", 3, "board=9x9");
    table.ok("bob", mv_in("e5", id));
    table.ok("alice", mv_in("d4", id));
    // Alice waits for bob: a line starting with his reply fits /conditional.
    let explored = table.ok("alice", explore(id, "c3 d3 c4 d5")).reply;
    let keep = keep_button(&explored).unwrap_or_else(|| panic!("no Keep in {:?}", explored.buttons));
    // Not offered where /conditional would refuse: an odd line, an illegal turn, the
    // caller to move, an onlooker.
    assert_eq!(keep_button(&table.ok("alice", explore(id, "c3 d3 c4")).reply), None, "pairs only");
    assert_eq!(keep_button(&table.ok("alice", explore(id, "c3 c3")).reply), None, "all legal");
    assert_eq!(keep_button(&table.ok("bob", explore(id, "c3 d3")).reply), None, "bob is to move");
    assert_eq!(keep_button(&table.ok("carol", explore(id, "c3 d3")).reply), None, "not carol's game");
    let kept = table.service.press(&super::common::caller("alice"), &keep);
    assert!(kept.reply.ok && kept.reply.private, "{}", kept.reply.text());
    assert!(kept.reply.text().contains("if R@c3 then R@d3, if R@c4 then R@d5"), "{}", kept.reply.text());
    let stored = &table.record(id).pending.conditionals;
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].turns, ["R@c3", "R@d3", "R@c4", "R@d5"]);
    // Pressed again (the record changed with the line stored), it stores nothing more.
    let again = table.press_refused("alice", &keep);
    assert!(again.contains("has changed since this line was explored"), "{again}");
    // And the line answers bob's turn as a /conditional line does.
    table.ok("bob", mv_in("c3", id));
    assert_eq!(table.record(id).turns.last().map(String::as_str), Some("R@d3"));
}
