//! Stonemate's own player through the service: challenged, it starts at once; its turns
//! come from the worker pool and are applied like a player's; it answers draw offers,
//! resumes after a restart, and never has a clock.

use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use stonemate_bot::ai_pool::{Answer, BotDecision, Job, Pool};
use stonemate_bot::clock::{ManualClock, Span, Timestamp};
use stonemate_bot::service::{Budget, ColorChoice, Command, GameId, Level, Notice, Service, Settings, Target, User};
use stonemate_bot::store::{GameRecord, MemoryStore, Phase, SledStore, Store};
use stonemate_engine::{AnyGame, GameKind};

use super::common::{GENERAL, caller, mv_in, user};

/// Long enough for any answer; a test that waits this long has failed.
const PATIENCE: Duration = Duration::from_secs(60);

fn bot() -> User {
    User::new(999, "stonemate")
}

/// A few nodes a turn: fast, and repeatable for a seed.
fn settings() -> Settings {
    Settings {
        bot_budget: Some(Budget::nodes(24)),
        render: |_| Vec::new(),
        animate: |_| Vec::new(),
        ..Settings::default()
    }
}

fn clock() -> Arc<ManualClock> {
    Arc::new(ManualClock::at(Timestamp(1_700_000_000_000)))
}

/// A service whose bot answers through a real pool; the answers wait in the receiver for
/// the test to apply them, as the Discord adapter does.
fn with_pool(store: impl Into<Store>) -> (Arc<Service>, Receiver<Answer<GameId>>) {
    let (sender, answers) = channel();
    let sender = Mutex::new(sender);
    let pool = Pool::new(1, 1, Arc::new(move |answer| drop(sender.lock().unwrap().send(answer))));
    let service = Service::new(store, clock(), settings()).with_bot(bot(), move |job| {
        pool.submit(job);
    });
    (Arc::new(service), answers)
}

/// A service whose bot's questions are only collected, never answered.
/// The questions the bot was asked.
type Asked = Arc<Mutex<Vec<Job<GameId>>>>;

fn with_sink(store: impl Into<Store>) -> (Arc<Service>, Arc<ManualClock>, Asked) {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&asked);
    let clock = clock();
    let service =
        Service::new(store, clock.clone(), settings()).with_bot(bot(), move |job| sink.lock().unwrap().push(job));
    (Arc::new(service), clock, asked)
}

fn challenge_bot(service: &Service, kind: GameKind, color: ColorChoice, days: u8, options: &str) -> GameId {
    let command = Command::Challenge {
        opponent: Some(bot()),
        game: kind,
        color,
        days: Some(days),
        options: Some(options.into()),
        level: Level::Easy,
    };
    let response = service.handle(&caller("alice"), command);
    assert!(response.reply.ok, "{}", response.reply.text());
    response.reply.about.expect("the reply names the game")
}

fn record(service: &Service, id: GameId) -> GameRecord {
    service.store().load(id).unwrap().expect("the record exists")
}

/// Waits for the next answer and applies it.
fn apply_next(service: &Service, answers: &Receiver<Answer<GameId>>) -> Vec<Notice> {
    let answer = answers.recv_timeout(PATIENCE).expect("the bot answers");
    service.apply_answer(answer)
}

#[test]
fn challenging_the_bot_starts_the_game_at_once_and_marks_it() {
    let (service, _, asked) = with_sink(MemoryStore::new());
    let id = challenge_bot(&service, GameKind::Go, ColorChoice::Black, 3, "board=9x9");
    let record = record(&service, id);
    assert_eq!(record.phase, Phase::Playing, "no accept needed");
    assert_eq!(record.level(), Some(Level::Easy));
    assert!(record.against_bot());
    // In go Black moves first: alice is to move, on her clock; the bot is not asked yet.
    assert!(asked.lock().unwrap().is_empty());
    assert!(record.clock.is_some());
    // Her turn asks the bot, whose turn has no clock.
    assert!(service.handle(&caller("alice"), mv_in("e5", id)).reply.ok);
    assert_eq!(asked.lock().unwrap().len(), 1);
    assert_eq!(self::record(&service, id).clock, None, "the bot never has a clock");
}

#[test]
fn the_bot_plays_its_first_turn_when_it_is_white() {
    let (service, answers) = with_pool(MemoryStore::new());
    let id = challenge_bot(&service, GameKind::IChess, ColorChoice::Black, 3, "");
    assert!(record(&service, id).turns.is_empty());
    let notices = apply_next(&service, &answers);
    let record = record(&service, id);
    assert_eq!(record.turns.len(), 1, "the bot's turn is stored");
    let said = &notices[0];
    assert_eq!(said.target, Target::Channel(GENERAL));
    assert!(said.text().starts_with(&format!("stonemate played {} in #{}", record.turns[0], id.0)), "{}", said.text());
    assert_eq!(said.images.len(), 1, "the announcement carries the board");
    // alice is pinged to move, on her clock; the bot never had one.
    assert!(notices.iter().any(|n| n.message.mentions() == vec![user("alice").id]), "{notices:?}");
    assert!(record.clock.is_some());
}

#[test]
fn a_game_against_the_bot_runs_to_its_end() {
    let (service, answers) = with_pool(MemoryStore::new());
    let id = challenge_bot(&service, GameKind::Go, ColorChoice::Black, 0, "board=9x9 counting=off");
    let mut random = StdRng::seed_from_u64(7);
    for _ in 0..400 {
        let record = record(&service, id);
        if record.phase == Phase::Finished {
            break;
        }
        let position = AnyGame::replay(record.kind, &record.options, &record.turns).unwrap().game;
        if position.to_move() == record.seats.side_of(bot().id) {
            let notices = apply_next(&service, &answers);
            // The bot's last turn is announced with the Rematch button; others without.
            let over = self::record(&service, id).phase == Phase::Finished;
            let offered = notices[0].buttons.iter().any(|button| button.custom_id == format!("rematch:{}", id.0));
            assert_eq!(offered, over, "{:?}", notices[0]);
            continue;
        }
        let turns = position.legal_turn_texts();
        let turn = &turns[random.gen_range(0..turns.len())];
        assert!(service.handle(&caller("alice"), mv_in(turn, id)).reply.ok);
    }
    let record = record(&service, id);
    assert_eq!(record.phase, Phase::Finished, "after {} turns", record.turns.len());
    assert!(record.result.is_some());
}

#[test]
fn a_draw_offer_to_the_bot_is_answered() {
    let (service, answers) = with_pool(MemoryStore::new());
    let id = challenge_bot(&service, GameKind::Go, ColorChoice::Black, 3, "board=9x9");
    assert!(service.handle(&caller("alice"), Command::Draw { game: Some(id) }).reply.ok);
    let mut notices = Vec::new();
    // The draw question, then (if declined) nothing else: alice is still to move.
    while record(&service, id).pending.draw_offer.is_some() {
        notices.extend(apply_next(&service, &answers));
    }
    let record = record(&service, id);
    let said: Vec<String> = notices.iter().map(|n| n.text()).collect();
    let declined = said.iter().any(|t| t.contains("stonemate declined the draw offer"));
    let agreed = record.phase == Phase::Finished && said.iter().any(|t| t.contains("draw (agreement)"));
    assert!(declined ^ agreed, "{said:?}");
}

#[test]
fn the_bots_decline_is_posted_once_and_a_repeated_offer_asks_it_nothing() {
    let (service, _clock, asked) = with_sink(MemoryStore::new());
    let id = challenge_bot(&service, GameKind::Go, ColorChoice::Black, 3, "board=9x9");
    assert!(service.handle(&caller("alice"), Command::Draw { game: Some(id) }).reply.ok);
    let job = asked.lock().unwrap().pop().expect("the bot is asked about the offer");
    let answer = Answer { id, turn_count: 0, question: job.question, decision: Ok(BotDecision::DeclineDraw) };
    let notices = service.apply_answer(answer);
    let declined: Vec<&Notice> = notices.iter().filter(|n| n.text().contains("declined the draw offer")).collect();
    let [declined] = declined.as_slice() else { panic!("posted once: {notices:#?}") };
    assert_eq!((declined.target, declined.message.mentions()), (Target::Channel(GENERAL), vec![user("alice").id]));
    // Offering again at once is refused: no second search.
    let again = service.handle(&caller("alice"), Command::Draw { game: Some(id) });
    assert!(!again.reply.ok, "{}", again.reply.text());
    assert!(again.reply.text().contains("once stonemate has played 2 more turns"), "{}", again.reply.text());
    assert!(asked.lock().unwrap().is_empty(), "the bot was asked again");
}

#[test]
fn a_restart_in_the_middle_of_the_bots_thinking_resumes_it() {
    let dir = tempfile::tempdir().unwrap();
    let id = {
        // The answer of this run is never applied: the bot was still thinking.
        let (service, _answers) = with_pool(SledStore::open(dir.path()).unwrap());
        challenge_bot(&service, GameKind::Chogo, ColorChoice::Black, 3, "")
    };
    let (service, answers) = with_pool(SledStore::open(dir.path()).unwrap());
    assert!(record(&service, id).turns.is_empty());
    let notices = apply_next(&service, &answers);
    assert_eq!(record(&service, id).turns.len(), 1, "{notices:?}");
}

#[test]
fn the_tick_never_times_out_or_reminds_the_bot_and_asks_it_again() {
    let (service, clock, asked) = with_sink(MemoryStore::new());
    let id = challenge_bot(&service, GameKind::IChess, ColorChoice::Black, 1, "");
    assert_eq!(asked.lock().unwrap().len(), 1, "the bot is asked for its first turn");
    assert_eq!(record(&service, id).clock, None, "the bot's turn has no clock");
    clock.advance(Span::days(5));
    let notices = service.tick();
    assert!(notices.is_empty(), "{notices:?}");
    // The job was lost (nobody answered): the tick asks again, with the same seed.
    let asked = asked.lock().unwrap();
    assert_eq!(asked.len(), 2);
    assert_eq!(asked[0], asked[1]);
    drop(asked);
    let claim = service.handle(&caller("alice"), Command::Claim { game: Some(id) });
    assert!(!claim.reply.ok, "{}", claim.reply.text());
}

#[test]
fn an_answer_for_a_position_the_game_left_is_dropped() {
    let (service, answers) = with_pool(MemoryStore::new());
    let id = challenge_bot(&service, GameKind::IChess, ColorChoice::Black, 3, "");
    let answer = answers.recv_timeout(PATIENCE).expect("the bot answers");
    assert!(!service.apply_answer(answer.clone()).is_empty());
    assert!(service.apply_answer(answer).is_empty(), "applied twice");
    assert_eq!(record(&service, id).turns.len(), 1);
}

#[test]
fn the_bot_claims_the_win_once_the_players_time_runs_out_and_tells_him() {
    let (service, clock, asked) = with_sink(MemoryStore::new());
    // alice plays black, who moves first in go, on a one-day clock.
    let id = challenge_bot(&service, GameKind::Go, ColorChoice::Black, 1, "board=9x9");
    // Each plays a turn (a game a player never began would be aborted, not won).
    assert!(service.handle(&caller("alice"), mv_in("e5", id)).reply.ok);
    let job = asked.lock().unwrap().pop().expect("the bot is asked its turn");
    let position = AnyGame::replay(job.kind, &job.options, &job.turns).unwrap().game;
    let turn = position.parse_turn("c7").unwrap();
    let answer = Answer { id, turn_count: 1, question: job.question, decision: Ok(BotDecision::Play(turn)) };
    assert!(!service.apply_answer(answer).is_empty());
    clock.advance(Span::HOUR * 23);
    let reminded = service.tick();
    let [reminder] = reminded.as_slice() else { panic!("{reminded:?}") };
    assert_eq!(reminder.message.mentions(), [user("alice").id], "the player is reminded as in any game");
    clock.advance(Span::HOUR);
    let notices = service.tick();
    let [told] = notices.as_slice() else { panic!("{notices:?}") };
    assert_eq!(
        (told.target, told.message.mentions().as_slice()),
        (Target::Channel(GENERAL), [user("alice").id].as_slice())
    );
    assert_eq!(told.text(), "@alice: your time for #1 ran out: Stonemate claims the win.");
    let buttons: Vec<&str> = told.buttons.iter().map(|button| button.custom_id.as_str()).collect();
    assert_eq!(buttons, ["rematch:1"], "no reply shows this result, so the notice offers the rematch");
    let record = record(&service, id);
    assert_eq!(record.phase, Phase::Finished);
    let result = record.result.expect("a result");
    assert_eq!(result.winner(), Some(stonemate_engine::Color::White), "the bot won");
    assert_eq!(result.ending.reason, stonemate_engine::EndReason::Timeout);
    assert_eq!(result.finished, Some(service.now()));
    assert!(service.tick().is_empty(), "told once");
}

#[test]
fn the_bots_turn_that_ends_the_game_is_announced_with_the_rematch_button() {
    let (service, answers) = with_pool(MemoryStore::new());
    let id = challenge_bot(&service, GameKind::Go, ColorChoice::Black, 0, "board=9x9 counting=off");
    // Alice passes every turn: the bot, ahead, ends the game by passing too (or resigns).
    for _ in 0..100 {
        assert!(service.handle(&caller("alice"), Command::Pass { game: Some(id) }).reply.ok);
        let notices = apply_next(&service, &answers);
        let offered = notices[0].buttons.iter().any(|button| button.custom_id == format!("rematch:{}", id.0));
        if record(&service, id).phase == Phase::Finished {
            assert!(offered, "{:?}", notices[0]);
            return;
        }
        assert!(!offered, "{:?}", notices[0]);
    }
    panic!("the bot never ended the game");
}

/// Plays the bot's turn `notation` as if its search had chosen it.
fn bot_plays(service: &Service, id: GameId, notation: &str) {
    let record = record(service, id);
    let position = AnyGame::replay(record.kind, &record.options, &record.turns).unwrap().game;
    let turn = position.parse_turn(notation).unwrap();
    let answer = Answer {
        id,
        turn_count: record.turns.len(),
        question: stonemate_ai::Question::Turn,
        decision: Ok(BotDecision::Play(turn)),
    };
    service.apply_answer(answer);
}

/// The bot's latest counting question.
fn counting_job(asked: &Asked) -> Job<GameId> {
    let asked = asked.lock().unwrap();
    let job = asked.iter().rev().find(|job| matches!(job.question, stonemate_ai::Question::Counting { .. }));
    job.cloned().expect("the bot was asked about the dead pieces")
}

/// The bot's judgement of the dead pieces for its latest counting question, as `c3 d4`
/// (or `none`), and the answer that carries it.
fn judgement(asked: &Asked) -> (String, Answer<GameId>) {
    let job = counting_job(asked);
    let answer = stonemate_bot::ai_pool::answer(&job, 1);
    let Ok(BotDecision::Dead(dead)) = &answer.decision else { panic!("{answer:?}") };
    let squares: Vec<String> = dead.squares().map(|square| square.to_string()).collect();
    let text = if squares.is_empty() { "none".to_owned() } else { squares.join(" ") };
    (text, answer)
}

fn propose(service: &Service, id: GameId, squares: &str) {
    let response = service.handle(&caller("alice"), Command::Dead { game: Some(id), squares: Some(squares.into()) });
    assert!(response.reply.ok, "{}", response.reply.text());
}

/// A 5x5 game against the bot (White): Alice walls the c-file, the bot the d-file, the
/// bot drops a rook at a3 inside Alice's area, and both pass.
fn counting_against_the_bot(service: &Service) -> GameId {
    let id = challenge_bot(service, GameKind::Go, ColorChoice::Black, 3, "board=5x5");
    let turns = ["c1", "d1", "c2", "d2", "c3", "d3", "c4", "d4", "c5", "d5", "pass", "a3", "pass", "pass"];
    for (index, turn) in turns.iter().enumerate() {
        if index % 2 == 0 {
            assert!(service.handle(&caller("alice"), mv_in(turn, id)).reply.ok, "{turn}");
        } else {
            bot_plays(service, id, turn);
        }
    }
    assert!(record(service, id).pending.counting.is_some(), "counting opened");
    id
}

/// Stonemate's own player in counting (rule 10): it accepts a proposal that gives the
/// result its own judgement gives; otherwise it proposes its judgement; and when that is
/// turned down, it resumes play.
#[test]
fn the_bot_accepts_its_result_proposes_its_judgement_or_resumes() {
    let (service, _clock, asked) = with_sink(MemoryStore::new());
    let id = counting_against_the_bot(&service);
    let (judged, _) = judgement(&asked);
    // Whether a3 is dead changes the result (B+6 or W+5): propose the other view.
    let other = if judged == "none" { "a3" } else { "none" };
    propose(&service, id, other);
    let (_, answer) = judgement(&asked);
    service.apply_answer(answer);
    let counting = record(&service, id).pending.counting.expect("still counting");
    let expected = if judged == "none" { "dead -".to_owned() } else { format!("dead {judged}") };
    assert_eq!((counting.proposal, counting.by), (expected, Some(stonemate_engine::Color::White)), "it proposes");
    // Alice turns it down again: the bot resumes play rather than insist.
    propose(&service, id, other);
    let (_, answer) = judgement(&asked);
    service.apply_answer(answer);
    let resumed = record(&service, id);
    assert!(resumed.pending.counting.is_none() && resumed.phase == Phase::Playing, "{resumed:?}");
    // A proposal with the bot's own result is accepted at once.
    let id = counting_against_the_bot(&service);
    let (judged, answer) = judgement(&asked);
    propose(&service, id, &judged);
    service.apply_answer(answer);
    let over = record(&service, id);
    assert_eq!(over.phase, Phase::Finished, "{over:?}");
    assert!(over.turns.last().is_some_and(|entry| entry.starts_with("dead")));
}
