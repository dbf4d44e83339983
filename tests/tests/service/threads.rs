//! A thread per game (issue 40, `/settings threads:on`), through the console: the game's
//! messages go to its thread, shown as the channel `#NAME` its opening names; the end
//! is said there and the thread archived. With threads off nothing changes, and a thread
//! Discord refuses is said once, the game going on in its channel.

use stonemate_bot::service::{Delivery, Target, ThreadStep};
use stonemate_bot::store::Thread;

use super::common::{HOME, Session, Table, admin_of, mv_in, text, typed};

/// The thread of game 1 between ann (white) and bob, as the console shows it.
const THREAD: &str = "#1-ann-vs-bob";

/// Starts game 1, ann (white) against bob, in `#general`; returns what the accept printed.
fn started(session: &mut Session) -> Vec<String> {
    session.ok("@ann /challenge opponent:@bob game:ichess color:white days:0");
    session.ok("@bob /accept")
}

/// The messages printed that went to `to`.
fn sent_to<'a>(printed: &'a [String], to: &str) -> Vec<&'a String> {
    printed.iter().filter(|message| message.contains(&format!("[nobody → {to}]"))).collect()
}

#[test]
fn with_threads_on_a_games_messages_go_to_its_thread_which_is_archived_at_the_end() {
    let mut session = Session::new();
    session.ok("!admin @ann");
    let set = session.ok("@ann /settings threads:on");
    assert!(set[0].contains("This server: threads on"), "{set:?}");
    let accepted = started(&mut session);
    let opening = sent_to(&accepted, THREAD);
    // The opening pings both players, which adds them to the thread on Discord.
    assert!(opening[0].contains("@ann @bob this thread follows iChess #1"), "{accepted:#?}");
    assert!(opening[0].contains("pings: @ann, @bob"), "{accepted:#?}");
    // A command in the thread answers there, and finds the game there.
    let turn = session.ok(&format!("{THREAD} @ann /move notation:R=a1"));
    assert!(turn[0].contains("@bob"), "the reply pings the player to move: {turn:#?}");
    session.ok(&format!("{THREAD} @bob /move notation:R=h8"));
    session.ok(&format!("{THREAD} @bob /resign"));
    let ended = session.ok(&format!("{THREAD} @bob !press resign:1"));
    let in_thread = sent_to(&ended, THREAD);
    assert!(
        in_thread.last().is_some_and(|message| message.contains("#1 is over: this thread is archived.")),
        "{ended:#?}"
    );
    assert!(sent_to(&session.printed, "#general").is_empty(), "{:#?}", session.printed);
}

#[test]
fn after_a_restart_the_console_still_names_a_games_thread() {
    let mut session = Session::new();
    session.ok("!admin @ann");
    session.ok("@ann /settings threads:on");
    started(&mut session);
    let mut session = session.restarted();
    session.ok("@bob /resign");
    let ended = session.ok("@bob !press resign:1");
    assert!(!sent_to(&ended, THREAD).is_empty(), "the end goes to the thread, named: {ended:#?}");
}

#[test]
fn with_threads_off_the_game_stays_in_its_channel() {
    let mut session = Session::new();
    started(&mut session);
    session.ok("@ann /move notation:R=a1");
    session.ok("@bob /resign");
    let ended = session.ok("@bob !press resign:1");
    assert!(!sent_to(&ended, "#general").is_empty(), "{ended:#?}");
    assert!(!session.printed.iter().any(|message| message.contains("thread")), "{:#?}", session.printed);
}

#[test]
fn threads_are_the_servers_managers_to_turn_on() {
    let mut session = Session::new();
    let refused = session.line("@bob /settings threads:on");
    assert!(
        refused[0].contains("only members with the Manage Server permission may set `/settings threads:on`"),
        "{refused:?}"
    );
    assert!(session.ok("@bob /settings").iter().any(|message| message.contains("threads off")));
}

#[test]
fn a_refused_thread_is_said_once_and_the_game_goes_on_in_its_channel() {
    let table = Table::new();
    table.ok_as(&admin_of("ann", HOME), typed("settings", &[("threads", text("on"))]));
    let id = table.challenge("ann", "bob", "ichess", 0, "");
    table.ok("bob", typed("accept", &[]));
    // Discord refuses the thread (a 403): the rest goes to the channel.
    let refusing = |outgoing: &stonemate_bot::service::Outgoing| match outgoing.notice.thread {
        Some(ThreadStep::Open { .. }) => Delivery::ChannelClosed,
        _ => Delivery::Sent,
    };
    let sent = table.service.deliver(refusing);
    assert_eq!(table.record(id).origin.thread, Some(Thread::Refused));
    let told: Vec<_> = sent.iter().filter(|notice| notice.text().contains("I may not open a thread here")).collect();
    assert_eq!(told.len(), 1, "{sent:#?}");
    assert!(sent.iter().all(|notice| matches!(notice.target, Target::Channel(_)) && notice.thread.is_none()));
    // The table's challenges give the challenger white.
    table.ok("ann", mv_in("R=a1", id));
    let later = table.service.deliver(refusing);
    assert!(later.iter().all(|notice| notice.thread.is_none() && !notice.text().contains("thread")), "{later:#?}");
}

/// `/settings threads:on` as ann, who may manage the home server.
fn threads_on() -> Session {
    let mut session = Session::new();
    session.ok("!admin @ann");
    session.ok("@ann /settings threads:on");
    session
}

#[test]
fn a_game_against_the_bot_gets_its_thread_where_the_bot_plays() {
    let mut session = threads_on();
    let started =
        session.ok("@ann /challenge opponent:@stonemate game:go color:black days:0 options:\"board=9x9\" level:easy");
    let opening = sent_to(&started, "#1-stonemate-vs-ann");
    assert!(opening.first().is_some_and(|message| message.contains("@ann this thread follows")), "{started:#?}");
    // The bot's answer to ann's first turn goes to the thread.
    let played = session.ok("#1-stonemate-vs-ann @ann /move notation:e5");
    assert_eq!(sent_to(&played, "#general"), Vec::<&String>::new(), "{played:#?}");
    assert!(!sent_to(&played, "#1-stonemate-vs-ann").is_empty(), "{played:#?}");
}

#[test]
fn a_tournaments_games_get_their_threads() {
    let mut session = threads_on();
    session.ok("@ann /tournament create game:go options:\"board=9x9\"");
    for player in ["p1", "p2", "p3"] {
        session.ok(&format!("@{player} /tournament join tournament:T1"));
    }
    let started = session.ok("@ann /tournament start tournament:T1");
    let openings: Vec<_> = started.iter().filter(|message| message.contains("this thread follows")).collect();
    assert_eq!(openings.len(), 3, "a round robin of three plays three games at once: {started:#?}");
}
