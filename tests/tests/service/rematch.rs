//! The Rematch button (issue 18): on every reply about a finished game; a new challenge
//! to the same opponent with the same game, options and days, colours swapped; against
//! Stonemate, a new game at once at the same level. Only the two players may press it,
//! and it works after a restart.

use stonemate_bot::service::{ColorChoice, Command, GameId, Level, NotifyMode, Settings, Target};
use stonemate_bot::store::{Phase, SledStore};
use stonemate_engine::GameKind;

use super::common::{Table, caller, game_opt, stonemate, user};
use super::ratings::{End, finish_game};

fn rematch_id(id: GameId) -> String {
    format!("rematch:{}", id.0)
}

fn has_rematch(buttons: &[stonemate_bot::service::Button], id: GameId) -> bool {
    buttons.iter().any(|button| button.custom_id == rematch_id(id) && button.label == "Rematch")
}

#[test]
fn every_finished_games_reply_carries_rematch() {
    let table = Table::new();
    // Resignation.
    let id = table.go("alice", "bob", 0, "board=9x9");
    table.ok("bob", Command::Resign { game: game_opt(id) });
    assert!(has_rematch(&table.service.press(&caller("bob"), &format!("resign:{}", id.0)).reply.buttons, id));
    // Agreed draw.
    let id = table.go("alice", "bob", 0, "board=9x9");
    table.ok("alice", Command::Draw { game: game_opt(id) });
    assert!(has_rematch(&table.ok("bob", Command::Draw { game: game_opt(id) }).reply.buttons, id));
    // The end of play: two passes.
    let id = table.go("alice", "bob", 0, "board=9x9 counting=off");
    table.ok("bob", Command::Pass { game: game_opt(id) });
    assert!(has_rematch(&table.ok("alice", Command::Pass { game: game_opt(id) }).reply.buttons, id));
    // A claimed timeout.
    let id = table.go("alice", "bob", 1, "board=9x9");
    table.advance(stonemate_bot::clock::Span::days(2));
    assert!(has_rematch(&table.ok("alice", Command::Claim { game: game_opt(id) }).reply.buttons, id));
    // And the board of a game that is over; not of one being played.
    assert!(has_rematch(&table.ok("carol", Command::Board { game: game_opt(id) }).reply.buttons, id));
    let playing = table.go("alice", "bob", 0, "board=9x9");
    assert!(table.ok("alice", Command::Board { game: game_opt(playing) }).reply.buttons.is_empty());
}

#[test]
fn result_notices_add_no_second_rematch_and_none_in_a_direct_message() {
    let table = Table::new();
    // In the channel, the public result reply has the button: the ping adds none.
    let id = table.go("alice", "carol", 0, "board=9x9");
    table.ok("alice", Command::Resign { game: game_opt(id) });
    let resigned = table.service.press(&caller("alice"), &format!("resign:{}", id.0));
    assert!(has_rematch(&resigned.reply.buttons, id) && !resigned.reply.private);
    let [told] = resigned.notices.as_slice() else { panic!("{:?}", resigned.notices) };
    assert!(matches!(told.target, Target::Channel(_)) && told.buttons.is_empty(), "{told:?}");
    // A press in a direct message would come from no server, where no game is found.
    table.ok("bob", Command::Notify { mode: Some(NotifyMode::Dm), digest: None, hour: None });
    let id = table.go("alice", "bob", 0, "board=9x9");
    table.ok("alice", Command::Resign { game: game_opt(id) });
    let resigned = table.service.press(&caller("alice"), &format!("resign:{}", id.0));
    let [told] = resigned.notices.as_slice() else { panic!("{:?}", resigned.notices) };
    assert_eq!(told.target, Target::Direct(user("bob").id));
    assert!(told.buttons.is_empty(), "{told:?}");
}

#[test]
fn a_rematch_challenges_the_same_opponent_with_the_same_terms_and_colours_swapped() {
    let table = Table::new();
    let id = table.go("alice", "bob", 5, "board=9x9 komi=6.5");
    finish_game(&table, id, "alice", "bob", End::WhiteWins);
    // bob, who played black and lost, asks for the rematch: he challenges alice, as white.
    let reply = table.service.press(&caller("bob"), &rematch_id(id)).reply;
    assert!(reply.ok, "{}", reply.text());
    assert_eq!(reply.message.mentions(), [user("alice").id]);
    let (old, new) = (table.record(id), table.record(reply.about.unwrap()));
    assert_eq!((new.challenger(), new.opponent()), (user("bob").id, user("alice").id));
    assert_eq!(new.seats.color, ColorChoice::White, "bob played black");
    assert_eq!((new.kind, &new.options, new.days, new.phase), (old.kind, &old.options, 5, Phase::Challenge));
    // Accepted, the colours are swapped.
    table.ok("alice", Command::Accept { challenge: game_opt(new.id) });
    assert_eq!(table.record(new.id).seats.by_color(), Some([user("bob").id, user("alice").id]));
}

#[test]
fn only_the_two_players_may_ask_for_a_rematch_of_a_finished_game() {
    let table = Table::new();
    let id = table.go("alice", "bob", 0, "board=9x9");
    assert_eq!(
        table.press_refused("alice", &rematch_id(id)),
        format!("{id} is not over yet: a rematch is offered once it ends")
    );
    finish_game(&table, id, "alice", "bob", End::Draw);
    assert_eq!(table.press_refused("carol", &rematch_id(id)), format!("{id} is not your game"));
    let unknown = table.press_refused("alice", "rematch:99");
    assert_eq!(unknown, "there is no game or challenge #99");
}

#[test]
fn a_rematch_against_the_bot_starts_at_once_at_the_same_level_with_colours_swapped() {
    let table = Table::with_silent_bot();
    let bot = stonemate();
    let challenge = Command::Challenge {
        opponent: Some(bot.clone()),
        game: GameKind::Go,
        color: ColorChoice::Black,
        days: Some(2),
        options: Some("board=9x9".into()),
        level: Level::Hard,
    };
    let id = table.ok("alice", challenge).reply.about.unwrap();
    table.ok("alice", Command::Resign { game: game_opt(id) });
    let over = table.service.press(&caller("alice"), &format!("resign:{}", id.0)).reply;
    assert!(has_rematch(&over.buttons, id));
    let reply = table.service.press(&caller("alice"), &rematch_id(id)).reply;
    assert!(reply.ok, "{}", reply.text());
    let new = table.record(reply.about.unwrap());
    assert_eq!(new.phase, Phase::Playing, "no challenge to accept");
    assert_eq!(new.level(), Some(Level::Hard));
    assert_eq!(new.seats.by_color(), Some([user("alice").id, bot.id]), "alice played black, now white");
    assert_eq!((new.days, &new.options), (2, &table.record(id).options));
}

#[test]
fn the_rematch_button_works_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let id = {
        let table = Table::with(SledStore::open(dir.path()).unwrap(), Settings::default());
        let id = table.go("alice", "bob", 0, "board=9x9");
        finish_game(&table, id, "alice", "bob", End::BlackWins);
        id
    };
    let table = Table::with(SledStore::open(dir.path()).unwrap(), Settings::default());
    let reply = table.service.press(&caller("alice"), &rematch_id(id)).reply;
    assert!(reply.ok, "{}", reply.text());
    let new = table.record(reply.about.unwrap());
    assert_eq!(
        (new.challenger(), new.opponent(), new.seats.color),
        (user("alice").id, user("bob").id, ColorChoice::Black)
    );
}
