//! No text a user can type panics anything. Arbitrary text and options go to every game
//! through the functions the service calls (`parse_option_text`, `AnyGame::new`,
//! `AnyGame::play_text`), mixed with legal turns so that games get deep; arbitrary lines go
//! through the console's parser, and the commands it reads through the service itself.
//!
//! Each test runs a bounded number of cases with a fixed seed. A long run, with fresh random
//! inputs each time:
//!
//!     STONEMATE_FUZZ_CASES=20000 cargo test --release -p stonemate-bot --test main fuzz:: -- --nocapture
//!
//! A failure prints the smallest input proptest found that still panics.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use stonemate_bot::clock::{ManualClock, Timestamp};
use stonemate_bot::console::parse::{self, Line};
use stonemate_bot::service::commands::COMMANDS;
use stonemate_bot::service::{Caller, ChannelId, Field, GuildId, Service, Settings, User};
use stonemate_bot::store::MemoryStore;
use stonemate_engine::options::parse_option_text;
use stonemate_engine::{AnyGame, GameKind};

/// Cases per test: `STONEMATE_FUZZ_CASES` (fresh random inputs), or a number that keeps
/// the tests to seconds (inputs fixed by `salt`, so every run tries the same).
fn runner(default_cases: u32, salt: u8) -> (TestRunner, u32) {
    let long = std::env::var("STONEMATE_FUZZ_CASES").ok().and_then(|cases| cases.parse().ok());
    let cases = long.unwrap_or(default_cases);
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    let runner = match long {
        Some(_) => TestRunner::new(config),
        None => TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &[salt; 32])),
    };
    (runner, cases)
}

/// Text as users type it: anything at all, things that look like notation, and drops of
/// every piece letter with every separator (`D=a1` once crashed iChess).
fn typed() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => "\\PC{0,12}",
        2 => "[A-Za-z0-9@=*#+x:\\-. ]{0,10}",
        // A drop of any letter, with or without a separator.
        3 => "[A-Z][@=*]?[a-p][1-9][0-9]?",
        // Moves, short and long, with captures, promotions and marks.
        3 => "[A-Z]?[a-p]?[1-9]?[-x]?[a-p][1-9][0-9]?[+#=FQ]{0,2}",
        // Tandems and mole drops.
        1 => "[a-h][1-7][a-h]?[1-7]?-[a-h][1-7]",
        1 => "[a-h][1-7]@[a-h][1-7]",
        1 => Just("pass".to_owned()),
    ]
}

/// One of the `known` values, or one of `other`.
fn known_or(known: Vec<&'static str>, other: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
    prop_oneof![prop::sample::select(known).prop_map(str::to_owned), other]
}

/// Option text: known and unknown keys with plausible and arbitrary values, or anything.
fn options() -> impl Strategy<Value = String> {
    let key = known_or(vec!["board", "set", "pieces", "squares", "moving", "komi"], "[a-z]{1,6}");
    let value = known_or(
        vec![
            "9x9",
            "5x5:c3",
            "2x2",
            "4x4",
            "25x25",
            "16x16",
            "8x8:d4,e5",
            "3x17",
            "\"unlimited RN\"",
            "\"K1 Q1\"",
            "RN",
            "WFDAHG",
            "all",
            "light",
            "dark",
            "on",
            "off",
            "6.5",
            "-1",
            "0",
            "K64",
        ],
        "[ -~]{0,12}",
    );
    // Three games take no options at all: no options is the commonest case.
    prop_oneof![
        3 => Just(String::new()),
        3 => prop::collection::vec((key, value), 1..4)
            .prop_map(|pairs| pairs.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")),
        1 => "\\PC{0,30}",
    ]
}

/// One turn of a fuzzed game: a legal one (picked by index) or typed text.
#[derive(Debug, Clone)]
enum Step {
    Legal(usize),
    Typed(String),
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    let step = prop_oneof![2 => any::<usize>().prop_map(Step::Legal), 3 => typed().prop_map(Step::Typed)];
    prop::collection::vec(step, 0..40)
}

#[test]
fn arbitrary_text_and_options_never_panic_in_any_game() {
    for (salt, kind) in (1..).zip(GameKind::ALL) {
        let (mut runner, cases) = runner(300, salt);
        let (games, texts) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let outcome = runner.run(&(options(), steps()), |(options, steps)| {
            let Ok(pairs) = parse_option_text(&options) else { return Ok(()) };
            let Ok(mut game) = AnyGame::new(kind, &pairs) else { return Ok(()) };
            games.fetch_add(1, Ordering::Relaxed);
            for step in steps {
                match step {
                    Step::Legal(index) => {
                        let legal = game.legal_turn_texts();
                        if legal.is_empty() {
                            continue;
                        }
                        let text = &legal[index % legal.len()];
                        // A listed turn, typed back as printed, is always accepted.
                        prop_assert!(game.play_text(text).is_ok(), "{kind}: listed turn {text} refused");
                    }
                    Step::Typed(text) => {
                        texts.fetch_add(1, Ordering::Relaxed);
                        let _ = game.play_text(&text);
                    }
                }
                let _ = (game.view(), game.score(), game.owner(), game.to_move());
            }
            Ok(())
        });
        if let Err(failure) = outcome {
            panic!("{kind}: {failure}");
        }
        let (games, texts) = (games.into_inner(), texts.into_inner());
        eprintln!("fuzz {kind}: {cases} cases, {games} games started, {texts} typed turns");
    }
}

/// A console-like line: a grammar of the real thing with arbitrary values, or anything.
fn line() -> impl Strategy<Value = String> {
    // Each command with the options it takes, from the one list of commands (and one it
    // does not take, now and then).
    let mut known: Vec<(&str, Vec<&str>)> =
        COMMANDS.iter().map(|spec| (spec.name, spec.options.iter().map(|option| option.name).collect())).collect();
    known.push(("fly", vec!["colour"]));
    let command = prop::sample::select(known);
    let value = known_or(
        vec![
            "@alice",
            "@bob",
            "go",
            "chego",
            "ichess",
            "gess",
            "chogo",
            "1",
            "#2",
            "3",
            "white",
            "random",
            "0",
            "14",
            "\"board=5x5\"",
            "\"board=9x9 komi=6.5\"",
            "channel",
            "dm",
        ],
        typed(),
    );
    let structured = (
        prop::option::of("\\[[a-z]{1,4}\\]"),
        prop::option::of("#[a-z]{1,4}"),
        prop::sample::select(vec!["@alice", "@bob", "@carol"]),
        command,
        prop::collection::vec((any::<prop::sample::Index>(), value), 0..5),
    )
        .prop_map(|(server, channel, user, (command, known), options)| {
            let mut seen = Vec::new();
            let options: Vec<String> = options
                .iter()
                // `/help` takes no option at all.
                .filter(|_| !known.is_empty())
                .map(|(index, value)| (*index.get(&known), value))
                .filter(|(key, _)| {
                    !seen.contains(key) && {
                        seen.push(*key);
                        true
                    }
                })
                .map(|(key, value)| format!("{key}:{value}"))
                .collect();
            let head = [server, channel].into_iter().flatten().collect::<Vec<_>>().join(" ");
            format!("{head} {user} /{command} {}", options.join(" "))
        });
    prop_oneof![4 => structured, 1 => "\\PC{0,60}", 1 => "[@#!\\[\\]/:\" a-z0-9]{0,40}"]
}

fn quick_service() -> Service {
    let clock = Arc::new(ManualClock::at(Timestamp(1_700_000_000_000)));
    // Pictures are the renderer's business (fuzzed through the same views elsewhere); the
    // stub keeps thousands of commands fast.
    let settings = Settings { render: |_| Vec::new(), animate: |_| Vec::new(), ..Settings::default() };
    Service::new(MemoryStore::new(), clock, settings)
}

#[test]
fn arbitrary_console_lines_never_panic_the_parser_or_the_service() {
    let (mut runner, cases) = runner(150, 0);
    let (lines, commands) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let outcome = runner.run(&prop::collection::vec(line(), 1..30), |session| {
        // One service per session, so that challenges are accepted and games played on.
        let service = quick_service();
        for text in session {
            lines.fetch_add(1, Ordering::Relaxed);
            let caller = |name: &str, admin: bool| Caller {
                user: User { id: parse::user_id(name), name: name.to_owned() },
                channel: ChannelId(1),
                guild: Some(GuildId(1)),
                admin,
            };
            match parse::line(&text) {
                Ok(Line::Command { user, spec, args, .. }) => {
                    commands.fetch_add(1, Ordering::Relaxed);
                    let caller = caller(&user, user == "carol");
                    let _ = service.handle_args(&caller, spec, &args);
                    for field in [Field::Game, Field::Challenge, Field::Notation, Field::Square] {
                        let _ = service.autocomplete(&caller, field, &text, Some(&text));
                    }
                }
                Ok(Line::Press { user, custom_id, .. }) => {
                    let _ = service.press(&caller(&user, false), &custom_id);
                }
                _ => {}
            }
        }
        Ok(())
    });
    if let Err(failure) = outcome {
        panic!("{failure}");
    }
    eprintln!(
        "fuzz console: {cases} sessions, {} lines, {} commands through the service",
        lines.into_inner(),
        commands.into_inner()
    );
}
