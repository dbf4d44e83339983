//! Mentions are data, not text: whom to ping comes as user ids, and nothing a user chose
//! (a display name, a notation, an option) can format a message or look like a mention.

use stonemate_bot::service::text;
use stonemate_bot::service::{Caller, ColorChoice, Command, GuildId, Response, User};
use stonemate_engine::GameKind;

use super::common::{GENERAL, Table, typed, user};

/// A display name that would ping everyone, mention user 1 and make bold text if it were
/// written as it is.
const EVIL: &str = "**@everyone** <@1> _x_";

fn evil() -> Caller {
    Caller::new(User::new(4242, EVIL), GENERAL, Some(GuildId(1)))
}

/// Every text of a response (the reply and the notices).
fn texts(response: &Response) -> Vec<String> {
    let mut texts = vec![response.reply.text().clone()];
    texts.extend(response.notices.iter().map(|notice| notice.text().clone()));
    texts
}

#[track_caller]
fn assert_inert(response: &Response) {
    for text in texts(response) {
        assert!(!text.contains(EVIL), "the raw name is in {text:?}");
        for raw in ["**", "<@", "@everyone", "_x_"] {
            let unescaped = text.match_indices(raw).any(|(at, _)| !text[..at].ends_with('\\'));
            assert!(!unescaped, "{raw:?} unescaped in {text:?}");
        }
    }
}

#[test]
fn a_display_name_cannot_ping_or_format_anything() {
    let table = Table::new();
    let challenge = Command::Challenge {
        opponent: Some(User::new(4242, EVIL)),
        game: GameKind::Go,
        color: ColorChoice::White,
        days: Some(1),
        options: Some("board=9x9".into()),
        level: stonemate_bot::service::Level::Medium,
    };
    let response = table.ok("alice", challenge);
    assert_inert(&response);
    assert!(response.reply.text().contains(&format!("@{}", text::name(EVIL))), "{}", response.reply.text());
    assert_eq!(response.reply.message.mentions(), [4242u64].map(stonemate_bot::service::UserId), "whom to ping: an id");
    let evil = evil();
    let started = table.service.handle(&evil, Command::Accept { challenge: None });
    assert!(started.reply.ok);
    assert_inert(&started);
    // alice plays white: the evil user (black) moves first.
    for (who, command) in [
        (evil.clone(), Command::Move { notation: "e5".into(), game: None }),
        (table_caller("alice"), Command::Move { notation: "c3".into(), game: None }),
        (evil.clone(), Command::Draw { game: None }),
        (table_caller("alice"), Command::Board { game: None }),
        (table_caller("alice"), Command::History { game: None }),
        (
            table_caller("alice"),
            Command::Games {
                user: Some(User::new(4242, EVIL)),
                status: stonemate_bot::service::GameStatus::Active,
                page: 1,
            },
        ),
        (table_caller("alice"), Command::ExtraTime { game: None, days: 1 }),
        (evil.clone(), Command::Resign { game: None }),
    ] {
        let response = table.service.handle(&who, command.clone());
        assert!(response.reply.ok, "{command:?}: {}", response.reply.text());
        assert_inert(&response);
    }
    let over = table.service.press(&evil, "resign:1");
    assert!(over.reply.ok);
    assert_inert(&over);
    assert!(over.reply.text().contains("alice (white) wins"), "{}", over.reply.text());
}

fn table_caller(name: &str) -> Caller {
    Caller::new(user(name), GENERAL, Some(GuildId(1)))
}

#[test]
fn typed_text_stays_inside_its_quotes() {
    let table = Table::new();
    table.go("alice", "bob", 3, "board=9x9");
    for notation in ["`<@1>` **x**", "e5`\n# big", "@everyone`"] {
        let text = table.refused("bob", typed("move", &[("notation", super::common::text(notation))]));
        assert_eq!(text.matches('`').count() % 2, 0, "a backtick escaped its quotes: {text:?}");
        assert!(!text.contains('\n'), "{text:?}");
    }
    let text = table.refused("bob", typed("board", &[("game", super::common::text("`<@1>`"))]));
    assert_eq!(text, "`'<@1>'` is not a game id: write its number, like 12 or #12");
    let options = Command::Challenge {
        opponent: Some(user("bob")),
        game: GameKind::Go,
        color: ColorChoice::Random,
        days: None,
        options: Some("board=`**x**`".into()),
        level: stonemate_bot::service::Level::Medium,
    };
    let text = table.refused("alice", options);
    assert_eq!(text.matches('`').count() % 2, 0, "{text:?}");
}

#[test]
fn refusals_naming_a_user_escape_his_name() {
    let table = Table::new();
    let challenge = || Command::Challenge {
        opponent: Some(User::new(4242, EVIL)),
        game: GameKind::Go,
        color: ColorChoice::Random,
        days: None,
        options: Some("board=9x9".into()),
        level: stonemate_bot::service::Level::Medium,
    };
    for _ in 0..3 {
        table.ok("alice", challenge());
    }
    let refused = table.service.handle(&table_caller("alice"), challenge());
    assert!(!refused.reply.ok && refused.reply.text().contains("answer"), "{}", refused.reply.text());
    assert_inert(&refused);
}

#[test]
fn bidi_controls_and_zero_width_characters_of_names_reach_no_reply_and_right_to_left_names_show() {
    use super::ratings::{End, finish};
    let table = Table::new();
    // An override that would turn the line round, and a name spelled like alice's.
    let (reversed, lookalike) = ("\u{202E}mallory\u{202C}", "al\u{200B}ice\u{FEFF}");
    let (arabic, hebrew) = ("مريم", "דוד");
    let said = [
        finish(&table, reversed, arabic, End::WhiteWins),
        finish(&table, hebrew, lookalike, End::WhiteWins),
        finish(&table, lookalike, arabic, End::Draw),
    ];
    let board = table.ok(arabic, typed("leaderboard", &[("game", super::common::text("go"))])).reply.text();
    for text in said.iter().chain([&board]) {
        let hidden = text.chars().find(|ch| text::invisible(*ch));
        assert_eq!(hidden, None, "{text:?}");
    }
    for shown in ["mallory", "alice", arabic, hebrew] {
        assert!(board.contains(&format!(" {shown} — ")), "{shown}: {board}");
    }
    assert!(said[0].contains("mallory (white) wins"), "{}", said[0]);
}
