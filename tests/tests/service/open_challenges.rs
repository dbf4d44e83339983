//! Open challenges (issue 18): `/challenge` without an opponent, which anyone in the
//! channel but the challenger may accept; the first to accept becomes the opponent.

use std::sync::Barrier;

use stonemate_bot::clock::Span;
use stonemate_bot::service::{ChannelId, Command, Field, GameId, Settings, Target};
use stonemate_bot::store::{NOBODY, Phase, SledStore};

use super::common::{Call, Table, caller, caller_in, game_opt, games_of, text, typed, user};

fn open(kind: &str) -> Call {
    typed("challenge", &[("game", text(kind)), ("options", text("board=9x9")), ("color", text("white"))])
}

fn accept(id: GameId) -> Command {
    Command::Accept { challenge: game_opt(id) }
}

#[test]
fn an_open_challenge_pings_nobody_and_offers_only_accept() {
    let table = Table::new();
    let reply = table.ok("alice", open("go")).reply;
    let id = reply.about.unwrap();
    assert!(reply.message.mentions().is_empty(), "nobody is pinged");
    assert!(
        reply
            .text()
            .starts_with(&format!("alice challenges anyone here to Go with chess pieces — open challenge {id}"))
    );
    let buttons: Vec<&str> = reply.buttons.iter().map(|b| b.custom_id.as_str()).collect();
    assert_eq!(buttons, [format!("accept:{}", id.0)]);
    let record = table.record(id);
    assert_eq!((record.opponent(), record.phase), (NOBODY, Phase::Challenge));
    assert!(
        table
            .ok("alice", Command::Games { user: None, status: stonemate_bot::service::GameStatus::Active, page: 1 })
            .reply
            .text()
            .contains("open challenge, waiting for anyone")
    );
}

#[test]
fn a_third_user_accepts_an_open_challenge_and_becomes_the_opponent() {
    let table = Table::new();
    let id = table.ok("alice", open("go")).reply.about.unwrap();
    // Offered to carol while she types (and to alice, whose challenge it is, to withdraw),
    // not in another channel.
    let offered = |who: &stonemate_bot::service::Caller| {
        table
            .service
            .autocomplete(who, Field::Challenge, "", None)
            .iter()
            .any(|choice| choice.value.contains(&id.0.to_string()))
    };
    assert!(offered(&caller("carol")));
    assert!(offered(&caller("alice")) && !offered(&caller_in("carol", ChannelId(7))));
    // Without an id: carol's only challenge here is the open one.
    let response = table.ok("carol", Command::Accept { challenge: None });
    let record = table.record(id);
    assert_eq!(record.opponent(), user("carol").id);
    assert_eq!([&record.seats.challenger.name, &record.seats.opponent.name], ["alice", "carol"]);
    assert_eq!(record.seats.by_color(), Some([user("alice").id, user("carol").id]), "alice asked for white");
    assert_eq!(record.phase, Phase::Playing);
    // Black (carol) moves first, so the reply does not ping alice: she is told apart.
    assert_eq!(response.notices.len(), 1, "{:?}", response.notices);
    let notice = &response.notices[0];
    assert_eq!(
        (notice.target, notice.message.mentions().as_slice()),
        (Target::Channel(super::common::GENERAL), &[user("alice").id][..])
    );
    assert!(notice.text().contains(&format!("carol accepted your open challenge {id}")), "{}", notice.text());
    // The game is theirs now: bob can no longer take it, and carol plays.
    assert_eq!(table.refused("bob", accept(id)), format!("challenge {id} was already accepted by carol"));
    assert_eq!(games_of(table.service.store(), user("carol").id), [(id, Phase::Playing)]);
    assert!(games_of(table.service.store(), NOBODY).is_empty(), "no longer listed as open");
}

#[test]
fn the_challenger_cannot_accept_or_anyone_decline_an_open_challenge() {
    let table = Table::new();
    let id = table.ok("alice", open("go")).reply.about.unwrap();
    let own = table.refused("alice", accept(id));
    assert_eq!(
        own,
        format!(
            "challenge {id} is your own open challenge: anyone else here may accept it (take it back with /withdraw)"
        )
    );
    assert_eq!(table.press_refused("alice", &format!("accept:{}", id.0)), own);
    let declined = table.refused("bob", Command::Decline { challenge: game_opt(id) });
    assert!(declined.starts_with(&format!("challenge {id} is open to anyone")), "{declined}");
    // Another channel of the server does not see it.
    let elsewhere = table.refused_as(&caller_in("bob", ChannelId(7)), accept(id));
    assert!(elsewhere.contains("open to the members of the channel"), "{elsewhere}");
    // The challenger may take it back; then nobody can accept it.
    let withdrawn = table.ok("alice", Command::Withdraw { challenge: game_opt(id) });
    assert!(withdrawn.notices.is_empty(), "nobody else to tell");
    assert!(table.refused("bob", accept(id)).contains("was withdrawn"));
}

#[test]
fn open_challenges_count_against_the_challengers_limits_and_expire() {
    let table = Table::with(
        stonemate_bot::store::MemoryStore::new(),
        Settings { max_challenges_per_opponent: 2, ..Settings::default() },
    );
    let first = table.ok("alice", open("go")).reply.about.unwrap();
    table.ok("alice", open("go"));
    let refused = table.refused("alice", open("go"));
    assert!(refused.starts_with("you already have 2 challenges waiting for anyone's answer"), "{refused}");
    table.advance(Span::days(8));
    let notices = table.service.tick();
    assert_eq!(table.record(first).phase, Phase::Expired);
    assert!(
        notices.iter().all(|notice| notice.message.mentions() == [user("alice").id]),
        "only the challenger is told: {notices:?}"
    );
    assert!(table.refused("bob", accept(first)).contains("has expired"));
}

#[test]
fn of_two_users_accepting_at_once_one_gets_the_game_and_the_other_is_told_it_was_taken() {
    let dir = tempfile::tempdir().unwrap();
    let table = Table::with(SledStore::open(dir.path()).unwrap(), Settings::default());
    for _ in 0..4 {
        let id = table.ok("alice", open("go")).reply.about.unwrap();
        let barrier = Barrier::new(2);
        let replies: Vec<(String, bool, String)> = std::thread::scope(|scope| {
            let handles: Vec<_> = ["bob", "carol"]
                .into_iter()
                .map(|name| {
                    let (service, barrier) = (&table.service, &barrier);
                    scope.spawn(move || {
                        barrier.wait();
                        let reply = service.press(&caller(name), &format!("accept:{}", id.0)).reply;
                        (name.to_owned(), reply.ok, reply.text())
                    })
                })
                .collect();
            handles.into_iter().map(|handle| handle.join().unwrap()).collect()
        });
        let winners: Vec<&(String, bool, String)> = replies.iter().filter(|(_, ok, _)| *ok).collect();
        assert_eq!(winners.len(), 1, "{replies:?}");
        let winner = &winners[0].0;
        let (_, _, loser_text) = replies.iter().find(|(_, ok, _)| !*ok).unwrap();
        assert_eq!(loser_text, &format!("challenge {id} was already accepted by {winner}"));
        assert_eq!(table.record(id).opponent(), user(winner).id);
        assert_eq!(table.record(id).version, 2, "one write");
        table.ok(winner, Command::Abort { game: game_opt(id) });
    }
}
