//! Tournaments (issue 39) through the console, as a server's members run them: a
//! round robin and a Swiss played to their ends, a withdrawal, a restart in the middle of
//! a Swiss, and the refusals (private, changing nothing).

use std::collections::{BTreeMap, HashSet};

use stonemate_bot::service::commands::Value;
use stonemate_bot::service::{Caller, Command, GameId};
use stonemate_bot::store::{Finish, Phase, Store, Tournaments};
use stonemate_engine::{Color, EndReason, Ending, Outcome};

use super::common::{HOME, Session, Table, admin_of, caller, in_server, stonemate, text, typed};

impl Session {
    /// Plays game `id` to its end (see [`Session::play`]); returns the standings the
    /// channel was told meanwhile.
    fn standings_told(&mut self, id: u32) -> Vec<String> {
        let before = self.printed.len();
        self.play(id, false);
        self.printed[before..].iter().filter(|message| message.contains(" games played")).cloned().collect()
    }

    /// The players of game `id`, `[white, black]` as the board names them.
    fn players(&mut self, id: u32) -> [String; 2] {
        let board = self.ok(&format!("@ann /board game:{id}")).remove(0);
        let white = between(&board, ": ", " (white)");
        let black = between(&board, " vs ", " (black)");
        [white, black]
    }

    /// Plays game `id` to its end: a draw agreed, or the player whose name sorts last
    /// resigns (so that the standings come apart). Returns the points each player scored,
    /// in halves, white first.
    fn play(&mut self, id: u32, draw: bool) -> [(String, u32); 2] {
        let [white, black] = self.players(id);
        if draw {
            self.ok(&format!("@{white} /draw game:{id}"));
            self.ok(&format!("@{black} /draw game:{id}"));
            return [(white, 1), (black, 1)];
        }
        let loser = white.clone().max(black.clone());
        self.ok(&format!("@{loser} /resign game:{id}"));
        self.ok(&format!("@{loser} !press resign:{id}"));
        let points = |name: &String| if *name == loser { 0 } else { 2 };
        [(white.clone(), points(&white)), (black.clone(), points(&black))]
    }

    /// Creates a tournament as ann (who may manage the server) and has `players` join it.
    fn create(&mut self, options: &str, players: &[&str]) {
        self.ok("!admin @ann");
        self.ok(&format!("@ann /tournament create game:go options:\"board=9x9\" {options}"));
        for player in players {
            self.ok(&format!("@{player} /tournament join tournament:T1"));
        }
    }
}

fn between(text: &str, start: &str, end: &str) -> String {
    let from = text.find(start).map(|at| at + start.len()).unwrap_or_else(|| panic!("{start} in {text}"));
    let rest = &text[from..];
    rest[..rest.find(end).unwrap_or_else(|| panic!("{end} in {text}"))].to_owned()
}

/// The pairings a message announces: `@white vs @black — #12`.
fn pairings(message: &str) -> Vec<(String, String, u32)> {
    message
        .lines()
        .filter(|line| line.starts_with('@') && line.contains(" vs @") && line.contains(" — #"))
        .map(|line| {
            let (white, rest) = line[1..].split_once(" vs @").unwrap();
            let (black, id) = rest.split_once(" — #").unwrap();
            (white.to_owned(), black.to_owned(), id.trim().parse().unwrap())
        })
        .collect()
}

/// The standings a message shows: each player's points (in halves), by name.
fn standings(message: &str) -> BTreeMap<String, u32> {
    let mut points = BTreeMap::new();
    for line in message.lines() {
        let Some((rank, rest)) = line.split_once(". ") else { continue };
        if rank.parse::<u32>().is_err() {
            continue;
        }
        let (name, rest) = rest.split_once(" — ").unwrap();
        let name = name.trim_end_matches(" (withdrawn)").to_owned();
        let shown: f64 = rest.split_once(' ').unwrap().0.parse().unwrap();
        points.insert(name, (shown * 2.0) as u32);
    }
    points
}

fn names(count: usize) -> Vec<String> {
    (1..=count).map(|n| format!("p{n}")).collect()
}

#[test]
fn a_seven_player_round_robin_is_played_to_its_end() {
    let mut session = Session::new();
    let players = names(7);
    session.create("name:\"Winter round robin\"", &players.iter().map(String::as_str).collect::<Vec<_>>());
    let started = session.ok("@ann /tournament start").join("\n");
    assert!(started.contains("All 21 games start now."), "{started}");
    assert!(started.contains("Division 1: p1, p2, p3, p4, p5, p6, p7"), "unrated players in joining order: {started}");
    let mut expected: BTreeMap<String, u32> = players.iter().map(|name| (name.clone(), 0)).collect();
    let mut whites: BTreeMap<String, u32> = BTreeMap::new();
    let mut met = HashSet::new();
    for id in 1..=21 {
        let scored = session.play(id, id % 3 == 0);
        *whites.entry(scored[0].0.clone()).or_default() += 1;
        let mut pair = [scored[0].0.clone(), scored[1].0.clone()];
        pair.sort();
        assert!(met.insert(pair), "a pair met twice");
        for (name, points) in scored {
            *expected.get_mut(&name).unwrap() += points;
        }
    }
    assert_eq!(met.len(), 21, "every pair met once");
    // Colours balanced: each of the 6 games, 3 with each colour.
    assert!(whites.values().all(|&count| count == 3), "{whites:?}");
    let ended = session.printed.iter().rev().find(|message| message.contains(") is over")).cloned();
    let ended = ended.expect("the channel is told the end");
    // The winners: players on the most points, those ahead on tiebreaks when some are.
    let best = expected.values().max().copied().unwrap();
    let won = between(&ended, "Won by ", " with ");
    assert!(won.split(", ").flat_map(|names| names.split(" and ")).all(|name| expected[name] == best), "{ended}");
    assert!(ended.contains(&format!(" with {} points.", f64::from(best) / 2.0)), "{best} in {ended}");
    let final_standings = session.ok("@p1 /tournament standings tournament:T1").join("\n");
    assert!(final_standings.contains("21 of 21 games played, finished"), "{final_standings}");
    assert_eq!(standings(&final_standings), expected);
    assert!(final_standings.contains("tournament-1-standings-1.png"), "the picture: {final_standings}");
    let listed = session.ok("@p1 /tournament list status:finished").join("\n");
    assert!(listed.contains("**Winter round robin** (T1) — round robin, Go with chess pieces, 7 players, finished"));
    session.keep_transcript("round-robin-7");
}

#[test]
fn a_nine_player_swiss_of_three_rounds_is_played_to_its_end() {
    let mut session = Session::new();
    let players = names(9);
    session.create("format:swiss rounds:3", &players.iter().map(String::as_str).collect::<Vec<_>>());
    let started = session.ok("@ann /tournament start").join("\n");
    let mut pending = pairings(&started);
    assert_eq!(pending.len(), 4, "{started}");
    let mut expected: BTreeMap<String, u32> = players.iter().map(|name| (name.clone(), 0)).collect();
    let mut byes = vec![between(&started, "Bye (1 point): ", "\n").trim().to_owned()];
    let mut met = HashSet::new();
    let mut played = 0;
    while let Some((white, black, id)) = pending.pop() {
        let pair = if white < black { (white, black) } else { (black, white) };
        assert!(met.insert(pair.clone()), "{pair:?} met twice");
        for (name, points) in session.play(id, id % 4 == 0) {
            *expected.get_mut(&name).unwrap() += points;
        }
        played += 1;
        let told = session.printed.last().cloned().unwrap_or_default();
        if told.contains("is paired:") {
            pending.extend(pairings(&told));
            byes.push(between(&format!("{told}\n"), "Bye (1 point): ", "\n").trim().to_owned());
        }
    }
    assert_eq!(played, 12, "three rounds of four games");
    assert_eq!(byes.iter().collect::<HashSet<_>>().len(), 3, "a bye goes to a player who had none: {byes:?}");
    for bye in &byes {
        *expected.get_mut(bye).unwrap() += 2;
    }
    let final_standings = session.ok("@p1 /tournament standings").join("\n");
    assert!(final_standings.contains("round 3 of 3, finished"), "{final_standings}");
    assert_eq!(standings(&final_standings), expected);
    assert!(session.printed.iter().any(|message| message.contains(") is over.\nWon by")));
    session.keep_transcript("swiss-9");
}

#[test]
fn a_withdrawal_forfeits_the_unfinished_games_and_the_tournament_goes_on() {
    let mut session = Session::new();
    session.create("", &["p1", "p2", "p3"]);
    session.ok("@ann /tournament start");
    let told = session.ok("@p1 /tournament leave").join("\n");
    assert!(told.contains("p1 withdrew from"), "{told}");
    assert!(told.contains("2 unfinished games lost by forfeit"), "{told}");
    let mut left = Vec::new();
    for id in 1..=3 {
        let board = session.ok(&format!("@ann /board game:{id}")).remove(0);
        if board.contains("p1") {
            assert!(board.contains("wins by forfeit (W+F)") || board.contains("wins by forfeit (B+F)"), "{board}");
        } else {
            left.push(id);
        }
    }
    assert_eq!(left.len(), 1, "the game without p1 is still played");
    let standing = standings(&session.ok("@p2 /tournament standings").join("\n"));
    assert_eq!(standing, BTreeMap::from([("p1".into(), 0), ("p2".into(), 2), ("p3".into(), 2)]));
    assert!(session.line("@p1 /tournament leave")[0].contains("refused (private)"), "withdrawn once");
    session.play(left[0], true);
    assert!(session.printed.iter().any(|message| message.contains(") is over.")));
}

#[test]
fn an_administrators_abort_counts_as_a_draw_in_the_tournament() {
    let mut session = Session::new();
    session.create("", &["p1", "p2", "p3"]);
    session.ok("@ann /tournament start");
    let [white, black] = session.players(1);
    let aborted = session.ok("@ann /admin-abort game:1").join("\n");
    assert!(aborted.contains("aborted"), "{aborted}");
    let told = session.printed.iter().rev().find(|message| message.contains(" games played")).cloned();
    assert!(told.is_some_and(|told| told.contains("1 of 3 games played")), "the channel is told");
    let standing = standings(&session.ok("@p2 /tournament standings").join("\n"));
    let third = ["p1", "p2", "p3"].into_iter().find(|name| ![&white, &black].contains(&&(*name).to_owned())).unwrap();
    let expected = BTreeMap::from([(white, 1), (black, 1), (third.to_owned(), 0)]);
    assert_eq!(standing, expected, "half a point each");
}

/// A crash between a game's end and its tournament's write leaves a round due: the next
/// start of the bot pairs it in its first periodic step.
#[test]
fn a_restart_in_the_middle_of_a_swiss_pairs_the_due_round_at_start() {
    let store: Store = stonemate_bot::store::MemoryStore::new().into();
    let table = Table::with(store.clone(), Default::default());
    let ann = admin_of("ann", HOME);
    table.ok_as(&ann, typed("tournament create", &[("game", text("chego")), ("format", text("swiss"))]));
    for player in ["p1", "p2", "p3", "p4"] {
        table.ok(player, typed("tournament join", &[]));
    }
    table.ok_as(&ann, typed("tournament start", &[]));
    let tournaments = Tournaments::of(&store);
    let first = tournaments.load(stonemate_bot::ids::TournamentId(1)).unwrap().unwrap();
    assert_eq!(first.games.len(), 2);
    // One game ends through the service; the other ends in a write the tournament never saw.
    let [one, two] = [first.games[0], first.games[1]];
    let loser = table.record(one).seats.player(Color::Black).unwrap();
    let loser = table.service.user_name(loser).unwrap();
    table.ok(&loser, Command::Resign { game: Some(one) });
    let response = table.service.press(&caller(&loser), &format!("resign:{}", one.0));
    assert!(response.reply.ok, "{}", response.reply.text());
    let mut ended = table.record(two);
    ended.version += 1;
    let ending = Ending { outcome: Outcome::Winner(Color::White), reason: EndReason::Resignation };
    ended.finish(Finish::new(ending));
    store.update_with(&ended, &[], &[]).unwrap();
    assert_eq!(tournaments.load(first.id).unwrap().unwrap().games.len(), 2, "round 2 is due, not paired");
    drop(table);
    // The bot starts again over the same database.
    let restarted = Table::with(store.clone(), Default::default());
    restarted.service.tick();
    let paired = tournaments.load(first.id).unwrap().unwrap();
    assert_eq!(paired.games.len(), 4, "round 2 paired at the start");
    assert_eq!(paired.state.unwrap().round(), 2);
    let told: Vec<String> =
        restarted.service.deliver(|_| stonemate_bot::service::Delivery::Sent).iter().map(|n| n.text()).collect();
    assert!(told.iter().any(|text| text.contains("round 2 of 3 is paired")), "{told:?}");
    // A second start pairs nothing more.
    Table::with(store.clone(), Default::default()).service.tick();
    assert_eq!(tournaments.load(first.id).unwrap().unwrap().games.len(), 4);
    for id in &paired.games[2..] {
        assert_eq!(store.load(*id).unwrap().unwrap().phase, Phase::Playing);
    }
}

#[test]
fn the_standings_message_is_posted_once_then_edited_after_each_result() {
    let mut session = Session::new();
    session.create("", &["p1", "p2", "p3", "p4"]);
    session.ok("@ann /tournament start");
    let first = session.standings_told(1);
    assert_eq!(first.len(), 1, "{first:?}");
    assert!(first[0].contains("[nobody → #") && !first[0].contains("(edited)"), "a new message: {}", first[0]);
    assert!(first[0].contains("1 of 6 games played:"), "{}", first[0]);
    assert!(first[0].contains("; 1 game)") && first[0].contains("; 0 games)"), "{}", first[0]);
    for id in 2..=3 {
        let told = session.standings_told(id);
        assert_eq!(told.len(), 1, "{told:?}");
        assert!(told[0].contains("] (edited)"), "the same message edited: {}", told[0]);
        assert!(told[0].contains(&format!("{id} of 6 games played:")), "{}", told[0]);
    }
    // The message to edit is kept in the database: a restart edits it still.
    let mut session = session.restarted();
    for id in 4..=6 {
        let told = session.standings_told(id);
        assert_eq!(told.len(), 1, "{told:?}");
        assert!(told[0].contains("] (edited)"), "{}", told[0]);
    }
    let last = session.printed.iter().rev().find(|message| message.contains(" games played")).unwrap();
    assert!(last.contains("6 of 6 games played, finished:"), "{last}");
    let told_posted = session.printed.iter().filter(|m| m.contains(" games played") && !m.contains("(edited)"));
    assert_eq!(told_posted.count(), 1, "one standings message in all");
}

#[test]
fn refusals_are_private_and_change_nothing() {
    let table = Table::with_silent_bot();
    let ann = admin_of("ann", HOME);
    let create = |options: &[(&str, Value)]| typed("tournament create", options);
    let go = ("game", text("go"));
    assert!(table.refused("bob", create(std::slice::from_ref(&go))).contains("needs the Manage Server permission"));
    let rounds = ("rounds", Value::Number(3));
    assert!(table.refused_as(&ann, create(&[go.clone(), rounds])).contains("`rounds` is for Swiss tournaments"));
    let days = ("days", Value::Number(15));
    assert!(table.refused_as(&ann, create(&[go.clone(), days])).contains("must be 1 to 14, not 15"));
    let starts = ("starts", text("forever"));
    assert!(table.refused_as(&ann, create(&[go.clone(), starts])).contains("`forever` is not a duration"));
    let long = "x".repeat(10_000);
    let refused = table.refused_as(&ann, create(&[go.clone(), ("starts", text(&long))]));
    assert!(refused.len() < 200, "a long value is never echoed whole: {} bytes", refused.len());
    // A 10 KB name is cut.
    let made = table.ok_as(&ann, create(&[go.clone(), ("name", text(&long))])).reply.text();
    assert!(made.len() < 600 && made.contains("xxx…"), "{} bytes", made.len());
    let join = || typed("tournament join", &[("tournament", text("T1"))]);
    assert!(table.refused("bob", typed("tournament start", &[])).contains("only the creator of T1"));
    assert!(table.refused_as(&ann, typed("tournament start", &[])).contains("needs at least 2 players"));
    table.ok("bob", join());
    assert!(table.refused("bob", join()).contains("you are already in T1"));
    let bot = Caller::new(stonemate(), super::common::GENERAL, Some(HOME));
    assert!(table.refused_as(&bot, join()).contains("Stonemate's own player does not play in tournaments"));
    let elsewhere = in_server("bob", stonemate_bot::service::GuildId(2));
    assert!(table.refused_as(&elsewhere, join()).contains("there is no tournament T1 in this server"));
    assert!(table.refused("carol", typed("tournament leave", &[])).contains("no open or running tournament"));
    assert!(
        table.refused("bob", typed("tournament join", &[("tournament", text("Tx"))])).contains("not a tournament id")
    );
    table.ok("carol", join());
    table.ok_as(&ann, typed("tournament start", &[]));
    assert!(table.refused("dave", join()).contains("T1 is running: only an open tournament can be joined"));
    let page = ("page", Value::Number(9));
    assert!(table.refused("bob", typed("tournament standings", &[page])).contains("fill 1 page"));
    let game = Some(GameId(1));
    let [white, black] = [Color::White, Color::Black].map(|side| {
        let user = table.record(GameId(1)).seats.player(side).unwrap();
        table.service.user_name(user).unwrap()
    });
    for refused in [
        table.refused(&white, Command::Abort { game }),
        table.refused(&white, Command::Takeback { game }),
        table.refused(&white, Command::ExtraTime { game, days: 2 }),
    ] {
        assert!(refused.contains("is not allowed in tournament games: #1 is a game of T1"), "{refused}");
    }
    let score = table.refused(&white, Command::Score { game });
    assert!(score.contains("tournament"), "no estimate in a tournament game: {score}");
    table.ok(&black, Command::Resign { game });
    let pressed = table.service.press(&caller(&black), "resign:1");
    assert!(pressed.reply.buttons.is_empty(), "no Rematch in a tournament game");
    assert!(table.press_refused(&white, "rematch:1").contains("not allowed in tournament games"));
}

/// The figures of the closing note (run with `--ignored --nocapture`): starting a
/// 1,000-player Swiss through the service (500 games in one write) and listing a server
/// with 50 running tournaments, on sled. Printed, never asserted on.
#[test]
#[ignore = "prints figures"]
fn figures_of_a_large_swiss_and_a_busy_server() {
    let dir = tempfile::tempdir().unwrap();
    let store: Store = stonemate_bot::store::SledStore::open(dir.path()).unwrap().into();
    let table = Table::with(store.clone(), Default::default());
    let ann = admin_of("ann", HOME);
    let create = |options: &[(&str, Value)]| typed("tournament create", options);
    table.ok_as(&ann, create(&[("game", text("go")), ("format", text("swiss")), ("max", Value::Number(1000))]));
    for n in 0..1000 {
        table.ok(&format!("player{n}"), typed("tournament join", &[("tournament", text("T1"))]));
    }
    let started = std::time::Instant::now();
    table.ok_as(&ann, typed("tournament start", &[("tournament", text("T1"))]));
    println!("start of a 1,000-player Swiss (500 games, one write): {:?}", started.elapsed());
    let shown = std::time::Instant::now();
    table.ok("player1", typed("tournament standings", &[("tournament", text("T1"))]));
    println!("standings page of 1,000 players (text and picture): {:?}", shown.elapsed());
    for t in 2..=51 {
        table.ok_as(&ann, create(&[("game", text("chego"))]));
        for n in 0..4 {
            table.ok(&format!("member{n}"), typed("tournament join", &[("tournament", text(&format!("T{t}")))]));
        }
        table.ok_as(&ann, typed("tournament start", &[("tournament", text(&format!("T{t}")))]));
    }
    let listed = std::time::Instant::now();
    table.ok("player1", typed("tournament list", &[]));
    println!("/tournament list of a server with 51 running tournaments: {:?}", listed.elapsed());
    let ticked = std::time::Instant::now();
    table.service.tick();
    println!("periodic step over 51 running tournaments (800 games): {:?}", ticked.elapsed());
}
