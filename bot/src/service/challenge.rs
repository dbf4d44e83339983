//! Challenges: `/challenge`, `/accept`, `/decline`, `/withdraw`. A challenge is a record
//! in the `challenge` phase; accepted, the same record (same id) becomes the game.

use stonemate_engine::options::parse_option_text;
use stonemate_engine::{AnyGame, GameKind};

use super::Service;
use super::error::Refusal;
use super::lookup::{self, Sent};
use super::notify;
use super::picture;
use super::text;
use super::types::{Button, ButtonStyle, Caller, GameId, Reply, Response, User, UserId};
use crate::store::{ColorChoice, FORMAT, GameRecord, IndexEntry, Phase, Side, Standing, TurnClock, UserRecord};

/// Days per move are 0 (no clock) to this.
pub const MAX_DAYS: i64 = 14;

/// `white`, `black`, `random`, or the game's own name for a side (Chogo's `green`).
fn parse_color(text: Option<&str>, sides: [&str; 2]) -> Result<ColorChoice, Refusal> {
    let lower = text.map(|text| text.trim().to_ascii_lowercase());
    match lower.as_deref() {
        None | Some("" | "random") => Ok(ColorChoice::Random),
        Some(name) if name == "white" || name.eq_ignore_ascii_case(sides[0]) => Ok(ColorChoice::White),
        Some(name) if name == "black" || name.eq_ignore_ascii_case(sides[1]) => Ok(ColorChoice::Black),
        Some(_) => Err(Refusal::BadColor(text.unwrap_or_default().chars().take(20).collect())),
    }
}

fn parse_days(service: &Service, days: Option<i64>) -> Result<u8, Refusal> {
    match days {
        None => Ok(service.settings.default_days),
        Some(days) => u8::try_from(days).ok().filter(|d| i64::from(*d) <= MAX_DAYS).ok_or(Refusal::BadDays(days)),
    }
}

/// Refuses a new challenge past the challenger's own limits: challenges he has waiting
/// (in every server), challenges waiting from him to this opponent, games he plays.
/// Challenges a user receives never count against him, so a flood of them blocks nobody.
fn check_limits(service: &Service, caller: &User, opponent: &User) -> Result<(), Refusal> {
    let waiting = |entry: &IndexEntry| entry.standing == Standing::Pending;
    let sent: Vec<GameId> =
        service.store.entries_of(caller.id)?.into_iter().filter(|e| waiting(e) && e.challenger).map(|e| e.id).collect();
    let limit = service.settings.max_pending_challenges;
    if sent.len() >= limit {
        return Err(Refusal::TooManyChallenges { limit });
    }
    let received = service.store.entries_of(opponent.id)?;
    let to_them = received.iter().filter(|e| waiting(e) && !e.challenger && sent.contains(&e.id)).count();
    let limit = service.settings.max_challenges_per_opponent;
    if to_them >= limit {
        return Err(Refusal::TooManyChallengesTo { name: text::name(&opponent.name), limit });
    }
    check_active(service, caller.id, "you".to_owned(), "have")
}

fn check_active(service: &Service, user: UserId, who: String, has: &'static str) -> Result<(), Refusal> {
    let limit = service.settings.max_active_games;
    let active = service.store.games_of(user)?.iter().filter(|(_, s)| *s == Standing::Active).count();
    if active >= limit { Err(Refusal::TooManyGames { who, has, limit }) } else { Ok(()) }
}

/// Keeps the latest display name of a user who took part in something.
fn remember(service: &Service, user: &User) {
    let old = service.store.user(user.id).ok().flatten();
    if old.as_ref().is_some_and(|old| old.name == lookup::short_name(&user.name)) {
        return;
    }
    let notify = old.map(|old| old.notify).unwrap_or_default();
    // A name is for display only: failing to store it must not fail the command.
    let name = lookup::short_name(&user.name);
    let _ = service.store.save_user(&UserRecord { format: FORMAT, id: user.id, name, notify });
}

/// `/challenge`.
pub fn challenge(
    service: &Service,
    caller: &Caller,
    opponent: &User,
    game: &str,
    color: Option<&str>,
    days: Option<i64>,
    options: Option<&str>,
) -> Result<Response, Refusal> {
    if opponent.id == caller.user.id {
        return Err(Refusal::ChallengeSelf);
    }
    let kind: GameKind = game.parse()?;
    if !AnyGame::is_available(kind) {
        return Err(Refusal::Unavailable(kind.title()));
    }
    let pairs = parse_option_text(options.unwrap_or_default())?;
    let start = AnyGame::new(kind, &pairs)?;
    let (color, days) = (parse_color(color, start.view().side_names)?, parse_days(service, days)?);
    check_limits(service, &caller.user, opponent)?;
    let now = service.now();
    let record = GameRecord {
        format: FORMAT,
        id: GameId(0),
        version: 0,
        game: kind.name().to_owned(),
        options: start.option_pairs(),
        challenger: caller.user.id,
        opponent: opponent.id,
        names: [lookup::short_name(&caller.user.name), lookup::short_name(&opponent.name)],
        color,
        players: None,
        days,
        channel: caller.channel,
        guild: caller.guild,
        created: now,
        expires: now + service.settings.challenge_expiry,
        phase: Phase::Challenge,
        turns: Vec::new(),
        clock: None,
        draw_offer: None,
        result: None,
    };
    let record = service.store.create(record)?;
    remember(service, &caller.user);
    remember(service, opponent);
    Ok(challenge_reply(service, &record, &start))
}

fn describe_terms(record: &GameRecord) -> String {
    let options: Vec<String> = record.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let clock = match record.days {
        0 => "no clock".to_owned(),
        1 => "1 day per move".to_owned(),
        days => format!("{days} days per move"),
    };
    let color = match record.color {
        ColorChoice::Random => "colours drawn at random".to_owned(),
        ColorChoice::White => {
            format!("{} plays {}", text::name(&record.names[0]), picture::side_name(record, Side::White))
        }
        ColorChoice::Black => {
            format!("{} plays {}", text::name(&record.names[0]), picture::side_name(record, Side::Black))
        }
    };
    // A game without options (Gess, iChess, Chogo) starts the list at the clock.
    let options = Some(options.join(" ")).filter(|options| !options.is_empty());
    options.into_iter().chain([clock, color]).collect::<Vec<_>>().join("; ")
}

fn challenge_reply(service: &Service, record: &GameRecord, start: &AnyGame) -> Response {
    let id = record.id.0;
    let text = format!(
        "{}, {} challenges you to {} — challenge {} ({}). Accept or decline within 7 days.",
        text::ping(&record.names[1]),
        text::name(&record.names[0]),
        start.kind().title(),
        record.id,
        describe_terms(record)
    );
    let buttons = vec![
        Button { custom_id: format!("accept:{id}"), label: "Accept".into(), style: ButtonStyle::Success },
        Button { custom_id: format!("decline:{id}"), label: "Decline".into(), style: ButtonStyle::Danger },
    ];
    let board = picture::public_board(service, record, start);
    let reply = Reply {
        ok: true,
        text,
        images: vec![board],
        mentions: vec![record.opponent],
        buttons,
        game: Some(record.id),
        ..Reply::default()
    };
    Response { reply, notices: Vec::new() }
}

/// Refuses a record that is not a challenge waiting for an answer.
fn check_pending(service: &Service, record: &GameRecord) -> Result<(), Refusal> {
    let state = match record.phase {
        Phase::Challenge if record.expires <= service.now() => return Err(Refusal::ChallengeExpired(record.id)),
        Phase::Challenge => return Ok(()),
        Phase::Declined => "was declined",
        Phase::Withdrawn => "was withdrawn",
        Phase::Expired => return Err(Refusal::ChallengeExpired(record.id)),
        Phase::Playing => "is already being played",
        Phase::Finished => "is a finished game",
    };
    Err(Refusal::NotPending { game: record.id, state })
}

/// Who plays white: the challenger's choice, or a draw decided by the id and the time
/// (fair enough for friends, and reproducible from the record for nobody in particular).
fn white_is_challenger(record: &GameRecord, now: crate::clock::Timestamp) -> bool {
    match record.color {
        ColorChoice::White => true,
        ColorChoice::Black => false,
        ColorChoice::Random => {
            (u64::from(record.id.0).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ now.0 as u64) >> 7 & 1 == 0
        }
    }
}

/// `/accept` (and the Accept button).
pub fn accept(service: &Service, caller: &Caller, text: Option<&str>) -> Result<Response, Refusal> {
    let record = lookup::challenge(service, caller, text, Sent::ToCaller)?;
    if record.opponent != caller.user.id {
        return Err(Refusal::NotForYou(record.id));
    }
    check_pending(service, &record)?;
    check_active(service, caller.user.id, "you".to_owned(), "have")?;
    check_active(service, record.challenger, text::name(&record.names[0]), "has")?;
    let now = service.now();
    let mut next = record.clone();
    next.version += 1;
    next.names[1] = lookup::short_name(&caller.user.name);
    next.players = Some(if white_is_challenger(&record, now) {
        [record.challenger, record.opponent]
    } else {
        [record.opponent, record.challenger]
    });
    next.phase = Phase::Playing;
    let game = lookup::position(service, &next)?;
    let first = game.to_move().map(Side::of);
    next.clock = (next.days > 0).then(|| TurnClock::new(now, now + crate::clock::Span::days(next.days.into())));
    service.store.update(&next)?;
    remember(service, &caller.user);
    let first_user = first.and_then(|side| next.player(side));
    let text = format!(
        "{} accepted: {} {} begins, {}. {} moves first{}.",
        text::name(&caller.user.name),
        game.kind().title(),
        next.id,
        picture::sides(&next),
        first_user.map_or_else(|| "nobody".to_owned(), |user| text::ping(next.name_of(user))),
        notify::time_left(service, &next)
    );
    let reply = Reply {
        ok: true,
        text,
        images: vec![picture::public_board(service, &next, &game)],
        mentions: first_user.into_iter().filter(|user| *user != caller.user.id).collect(),
        game: Some(next.id),
        ..Reply::default()
    };
    Ok(Response { reply, notices: Vec::new() })
}

/// Ends a pending challenge without a game: declined by the opponent or withdrawn by the
/// challenger.
fn close(service: &Service, caller: &Caller, record: GameRecord, phase: Phase) -> Result<Response, Refusal> {
    check_pending(service, &record)?;
    let mut next = record.clone();
    next.version += 1;
    next.phase = phase;
    service.store.update(&next)?;
    let verb = if phase == Phase::Declined { "declined" } else { "withdrew" };
    let text = format!("{} {verb} challenge {} ({}).", text::name(&caller.user.name), record.id, record.game);
    let notices = notify::result_notices(service, &next, &text, Some(caller.user.id));
    let reply = Reply { ok: true, text, game: Some(record.id), ..Reply::default() };
    Ok(Response { reply, notices })
}

/// `/decline` (and the Decline button).
pub fn decline(service: &Service, caller: &Caller, text: Option<&str>) -> Result<Response, Refusal> {
    let record = lookup::challenge(service, caller, text, Sent::ToCaller)?;
    if record.opponent != caller.user.id {
        return Err(Refusal::NotForYou(record.id));
    }
    close(service, caller, record, Phase::Declined)
}

/// `/withdraw`.
pub fn withdraw(service: &Service, caller: &Caller, text: Option<&str>) -> Result<Response, Refusal> {
    let record = lookup::challenge(service, caller, text, Sent::ByCaller)?;
    if record.challenger != caller.user.id {
        return Err(Refusal::NotYourChallenge(record.id));
    }
    close(service, caller, record, Phase::Withdrawn)
}
