//! The turn picker (`/play`, the Play button, issue 26): walked through the service from
//! random positions of every game to the turn it offers, each step's choices exactly the
//! engine's; Back, Cancel, stale pickers, a second Confirm and presses by others refused
//! without change; `/settings confirm:on` previews a typed turn.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use stonemate_bot::service::commands::Value;
use stonemate_bot::service::{Command, GameId, GameStatus, NotifyMode, Reply, Settings};
use stonemate_bot::store::MemoryStore;
use stonemate_engine::picker::MAX_CHOICES;
use stonemate_engine::{AnyGame, Color, Picker, Turn};

use super::common::{Table, caller, game_opt, mv, mv_in, text, typed};

/// A table that draws no pictures (the walks make hundreds of replies).
fn quiet() -> Table {
    Table::with(MemoryStore::new(), Settings { render: |_| Vec::new(), animate: |_| Vec::new(), ..Settings::default() })
}

/// The position of the game's record.
fn position(table: &Table, id: GameId) -> AnyGame {
    let record = table.record(id);
    AnyGame::replay(record.kind, &record.options, &record.turns).expect("a game").game
}

/// Alice plays White (she challenges), Bob Black.
fn player(side: Color) -> &'static str {
    if side == Color::White { "alice" } else { "bob" }
}

/// The button labelled `label` of a reply.
fn button<'a>(reply: &'a Reply, label: &str) -> &'a str {
    let found = reply.buttons.iter().find(|button| button.label == label);
    &found.unwrap_or_else(|| panic!("no {label} in {reply:?}")).custom_id
}

/// How a choice of a step is taken: in the step's select menu (its id), or by its own
/// button (the button's id), as a step of few choices shows them.
#[derive(Debug)]
enum Tap {
    Menu(String),
    Button(String),
}

/// The choices a picker's step offers, `(value, label, how to take it)`: the options of
/// its one select menu, or else its choice buttons (the last choice of their path).
fn choices(reply: &Reply) -> Vec<(String, String, Tap)> {
    let taps: Vec<&stonemate_bot::service::Button> =
        reply.buttons.iter().filter(|button| button.custom_id.starts_with("pick-at:")).collect();
    match (reply.selects.as_slice(), taps.as_slice()) {
        ([select], []) => {
            assert!(select.options.len() > 4, "a few choices are buttons: {select:?}");
            select
                .options
                .iter()
                .map(|option| (option.value.clone(), option.label.clone(), Tap::Menu(select.custom_id.clone())))
                .collect()
        }
        ([], taps) if !taps.is_empty() => {
            assert!(taps.len() <= 4, "buttons only for a few choices: {taps:?}");
            taps.iter()
                .map(|button| {
                    let path = button.custom_id.rsplit(':').next().unwrap_or_default();
                    let value = path.rsplit('.').next().unwrap_or_default().to_owned();
                    (value, button.label.clone(), Tap::Button(button.custom_id.clone()))
                })
                .collect()
        }
        _ => panic!("one select menu, or a few choice buttons, per step: {reply:?}"),
    }
}

/// Walks the picker from `/play` to `turn` (going Back once on the way when `back`),
/// checking each step against the engine's; returns the preview reply.
fn walk(table: &Table, id: GameId, who: &str, turn: Turn, back: bool) -> Reply {
    let position = position(table, id);
    let picker = Picker::new(&position);
    let path = picker.path_to(turn).expect("a legal turn has a path");
    let mut reply = table.ok(who, Command::Play { game: game_opt(id) }).reply;
    for (index, value) in path.iter().enumerate() {
        assert!(reply.private && reply.ok, "{reply:?}");
        let offered = choices(&reply);
        let engine = picker.options(&path[..index]).unwrap();
        let expected: Vec<(String, String)> =
            engine.iter().map(|option| (option.value.clone(), option.label.clone())).collect();
        let shown: Vec<(String, String)> =
            offered.iter().map(|(value, label, _)| (value.clone(), label.clone())).collect();
        assert_eq!(shown, expected, "the step's choices are the engine's");
        assert!(offered.len() <= MAX_CHOICES);
        assert_eq!(
            reply.buttons.iter().any(|button| button.label == "Back"),
            index > 0,
            "Back once something is chosen"
        );
        let choose = |value: &str| match offered.iter().find(|(offered, _, _)| offered == value) {
            Some((_, _, Tap::Menu(custom_id))) => table.service.select(&caller(who), custom_id, value).reply,
            Some((_, _, Tap::Button(custom_id))) => table.service.press(&caller(who), custom_id).reply,
            None => panic!("{value} is not offered: {offered:?}"),
        };
        reply = choose(value);
        if back && index == 0 {
            assert!(reply.ok && reply.replaces_message, "{reply:?}");
            let again = table.service.press(&caller(who), button(&reply, "Back")).reply;
            let opened = table.ok(who, Command::Play { game: game_opt(id) }).reply;
            assert_eq!((again.selects, again.buttons), (opened.selects, opened.buttons), "Back undoes");
            reply = choose(value);
        }
        assert!(reply.ok, "{value}: {}", reply.text());
    }
    assert!(reply.selects.is_empty() && reply.ok && reply.private, "{reply:?}");
    reply
}

/// Plays `turns` random turns of a game through the picker alone.
fn play_with_the_picker(kind: &str, options: &str, seed: u64, turns: usize) {
    let table = quiet();
    let id = table.challenge("alice", "bob", kind, 0, options);
    table.ok("bob", Command::Accept { challenge: game_opt(id) });
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..turns {
        let position = position(&table, id);
        let Some(side) = position.to_move() else { break };
        let legal = position.legal_turns();
        let &turn = legal.choose(&mut rng).expect("a game that goes on has a turn");
        let preview = walk(&table, id, player(side), turn, rng.gen_bool(0.2));
        assert!(preview.text().contains(&position.format_turn(turn)), "{}", preview.text());
        let confirm = button(&preview, "Confirm").to_owned();
        let played = table.service.press(&caller(player(side)), &confirm).reply;
        assert!(played.ok && !played.private, "{}", played.text());
        assert_eq!(table.record(id).turns.last(), Some(&position.format_turn(turn)), "the confirmed turn is played");
        // The same Confirm again: the game has moved on.
        let again = table.press_refused(player(side), &confirm);
        assert!(again.contains("moved on"), "{again}");
    }
}

#[test]
fn every_game_is_played_with_the_picker_alone() {
    for (game, options, turns) in [
        ("chego", "", 14),
        ("gess", "", 10),
        ("ichess", "", 40),
        ("go", "board=9x9", 14),
        ("go", "board=6x5:c3,d4 pieces=RNBPHG moving=on", 20),
        ("chogo", "", 24),
    ] {
        for seed in 0..2 {
            play_with_the_picker(game, options, seed, turns);
        }
    }
}

/// Issue 26: a step of few choices shows them as buttons (one tap on a phone), labelled
/// in words; taking one leads on as the select menu would, and Back returns to them.
#[test]
fn a_step_of_few_choices_is_buttons() {
    let table = quiet();
    let id = table.go("alice", "bob", 0, "board=9x9 pieces=RN");
    let opened = table.ok("bob", Command::Play { game: game_opt(id) }).reply;
    assert!(opened.selects.is_empty(), "{opened:?}");
    let labels: Vec<&str> = opened.buttons.iter().map(|button| button.label.as_str()).collect();
    assert_eq!(labels, ["pass", "drop a Rook (R)", "drop a Knight (N)", "Cancel"]);
    let knight = button(&opened, "drop a Knight (N)").to_owned();
    let files = table.service.press(&caller("bob"), &knight).reply;
    assert!(files.ok && files.private && files.replaces_message, "{files:?}");
    assert_eq!(files.selects.len(), 1, "nine files: a menu");
    assert!(files.text().contains("so far: drop a Knight (N)"), "{}", files.text());
    let back = table.service.press(&caller("bob"), button(&files, "Back")).reply;
    assert_eq!(back.buttons, opened.buttons);
    let pass = table.service.press(&caller("bob"), button(&opened, "pass")).reply;
    assert!(pass.text().contains("Confirm"), "{}", pass.text());
    assert!(table.service.press(&caller("bob"), button(&pass, "Confirm")).reply.ok);
    assert_eq!(table.record(id).turns, ["pass"]);
    // Taps by another user, or after the game moved on, are refused.
    assert!(table.press_refused("carol", &knight).contains("not your game"));
    assert!(table.press_refused("bob", &knight).contains("moved on"));
}

#[test]
fn a_picker_left_open_while_the_game_moved_on_is_refused() {
    let table = quiet();
    let id = table.go("alice", "bob", 0, "board=9x9");
    let opened = table.ok("bob", Command::Play { game: game_opt(id) }).reply;
    let select = opened.selects[0].custom_id.clone();
    let preview = table.service.select(&caller("bob"), &select, "pass").reply;
    let confirm = button(&preview, "Confirm").to_owned();
    // Bob plays by typing instead; the picker is now stale.
    table.ok("bob", mv("e5"));
    assert!(table.press_refused("bob", &confirm).contains("moved on"));
    let before = table.service.store().dump().unwrap();
    let chosen = table.service.select(&caller("bob"), &select, "pass").reply;
    assert!(!chosen.ok && chosen.text().contains("moved on"), "{}", chosen.text());
    assert_eq!(table.service.store().dump().unwrap(), before);
}

#[test]
fn only_the_player_to_move_uses_a_picker() {
    let table = quiet();
    let id = table.go("alice", "bob", 0, "board=9x9");
    let text = table.refused("alice", Command::Play { game: game_opt(id) });
    assert!(text.contains("not your turn"), "{text}");
    let opened = table.ok("bob", Command::Play { game: game_opt(id) }).reply;
    let preview = table.service.select(&caller("bob"), &opened.selects[0].custom_id, "pass").reply;
    let confirm = button(&preview, "Confirm").to_owned();
    assert!(table.press_refused("carol", &confirm).contains("not your game"));
    assert!(table.press_refused("alice", &confirm).contains("not your turn"));
    let forged = confirm.replace(":pass", ":Rz");
    assert!(table.press_refused("bob", &forged).contains("nothing was played"));
    // Cancel plays nothing.
    let cancelled = table.service.press(&caller("bob"), button(&preview, "Cancel")).reply;
    assert!(cancelled.ok && cancelled.private && cancelled.text().contains("nothing was played"));
    assert!(table.record(id).turns.is_empty());
}

#[test]
fn confirm_after_cancel_plays_nothing_until_a_picker_is_opened_again() {
    let table = quiet();
    let id = table.go("alice", "bob", 0, "board=9x9");
    table.ok("bob", typed("settings", &[("confirm", text("on"))]));
    // A typed turn's preview, cancelled: its Confirm is refused, the store unchanged.
    let preview = table.ok("bob", mv("e5")).reply;
    let confirm = button(&preview, "Confirm").to_owned();
    assert!(table.service.press(&caller("bob"), button(&preview, "Cancel")).reply.ok);
    let refused = table.press_refused("bob", &confirm);
    assert!(refused.contains("cancelled") && refused.contains("nothing was played"), "{refused}");
    assert!(table.record(id).turns.is_empty());
    // The picker's own preview, cancelled, likewise.
    let opened = table.ok("bob", Command::Play { game: game_opt(id) }).reply;
    let picked = table.service.select(&caller("bob"), &opened.selects[0].custom_id, "pass").reply;
    let pass = button(&picked, "Confirm").to_owned();
    assert!(table.service.press(&caller("bob"), button(&picked, "Cancel")).reply.ok);
    assert!(table.press_refused("bob", &pass).contains("cancelled"));
    // Typing the turn again shows a new preview, whose Confirm plays it.
    let again = table.ok("bob", mv("e5")).reply;
    assert!(table.service.press(&caller("bob"), button(&again, "Confirm")).reply.ok);
    assert_eq!(table.record(id).turns, ["R@e5"]);
}

#[test]
fn settings_confirm_on_previews_a_pass() {
    let table = quiet();
    let id = table.go("alice", "bob", 0, "board=9x9");
    table.ok("bob", typed("settings", &[("confirm", text("on"))]));
    let preview = table.ok("bob", Command::Pass { game: None }).reply;
    assert!(preview.private && preview.text().contains("pass"), "{preview:?}");
    assert!(table.record(id).turns.is_empty(), "a preview plays nothing");
    assert!(table.service.press(&caller("bob"), button(&preview, "Confirm")).reply.ok);
    assert_eq!(table.record(id).turns, ["pass"]);
    // Alice did not ask for previews: her pass is played at once.
    table.ok("alice", Command::Pass { game: None });
    assert_eq!(table.record(id).turns.len(), 2);
}

#[test]
fn turn_replies_and_pings_carry_play_for_the_player_to_move() {
    let table = quiet();
    let id = table.go("alice", "bob", 0, "board=9x9");
    let response = table.ok("bob", mv("e5"));
    let play = format!("play:{}", id.0);
    assert!(response.reply.buttons.iter().any(|button| button.custom_id == play), "{:?}", response.reply.buttons);
    assert!(response.notices.iter().all(|notice| notice.buttons.iter().any(|button| button.custom_id == play)));
    let board = table.ok("alice", Command::Board { game: game_opt(id) }).reply;
    assert!(board.buttons.iter().any(|button| button.custom_id == play), "alice is to move");
    let opened = table.service.press(&caller("alice"), &play).reply;
    assert!(opened.ok && opened.private && opened.selects.len() == 1, "{opened:?}");
}

#[test]
fn settings_confirm_on_previews_a_typed_turn() {
    let table = quiet();
    let id = table.go("alice", "bob", 0, "board=9x9");
    assert!(table.ok("bob", Command::Settings { confirm: None, threads: None }).reply.text().contains("confirm off"));
    table.ok("bob", typed("settings", &[("confirm", text("on"))]));
    assert!(table.ok("bob", Command::Settings { confirm: None, threads: None }).reply.text().contains("confirm on"));
    let preview = table.ok("bob", mv("e5")).reply;
    assert!(preview.private && preview.text().contains("R@e5") && table.record(id).turns.is_empty(), "{preview:?}");
    table.ok("bob", typed("drop", &[("piece", text("R")), ("square", text("d5"))]));
    assert!(table.record(id).turns.is_empty(), "a preview plays nothing");
    assert!(table.service.press(&caller("bob"), button(&preview, "Confirm")).reply.ok);
    assert_eq!(table.record(id).turns, ["R@e5"]);
    // An illegal typed turn is refused as before, without a preview.
    let refused = table.refused("alice", mv("e5"));
    assert!(refused.contains("e5"), "{refused}");
    let bad = table.refused("alice", typed("settings", &[("confirm", Value::Text("maybe".into()))]));
    assert!(bad.contains("neither on nor off"), "{bad}");
}

#[test]
fn turn_pings_name_the_opponents_turn_with_the_board() {
    let table = quiet();
    let id = table.go("alice", "bob", 0, "board=9x9");
    // Told by direct message, Alice gets a ping of her own (in the channel, the reply
    // pings her: see `one_message_per_turn`).
    table.ok("alice", Command::Notify { mode: Some(NotifyMode::Dm), digest: None, hour: None });
    let response = table.ok("bob", mv("e5"));
    let ping = response.notices.iter().find(|notice| notice.text().contains("it is your turn")).expect("a ping");
    assert!(ping.text().contains("bob played R@e5."), "{}", ping.text());
    assert_eq!(ping.images.len(), 1, "the board comes with it");
    assert!(ping.buttons.iter().any(|button| button.custom_id == format!("play:{}", id.0)));
}

#[test]
fn games_lists_the_callers_turns_first_least_time_left_first_and_next_game_leads_there() {
    let table = quiet();
    let waiting = table.go("alice", "bob", 3, "board=9x9");
    let later = table.go("bob", "alice", 3, "board=9x9");
    let sooner = table.go("carol", "alice", 1, "board=9x9");
    let listed = table.ok("alice", Command::Games { user: None, status: GameStatus::Active, page: 1 }).reply.text();
    let order: Vec<&str> =
        listed.lines().filter_map(|line| line.split(' ').next()).filter(|id| id.starts_with('#')).collect();
    assert_eq!(order, [sooner.to_string(), later.to_string(), waiting.to_string()], "{listed}");
    // After her turn in the most urgent game, Next game leads to the other one.
    let played = table.ok("alice", mv_in("e5", sooner)).reply;
    let next = format!("next-game:{}", later.0);
    assert!(played.buttons.iter().any(|button| button.custom_id == next), "{:?}", played.buttons);
    let board = table.service.press(&caller("alice"), &next).reply;
    assert!(board.ok && board.private && board.about == Some(later), "{board:?}");
    assert!(board.buttons.iter().any(|button| button.custom_id == format!("play:{}", later.0)), "alice is to move");
    // Once she has no other game to play, there is no Next game.
    let played = table.ok("alice", mv_in("e5", later)).reply;
    assert!(played.buttons.iter().all(|button| !button.custom_id.starts_with("next-game:")), "{:?}", played.buttons);
}
