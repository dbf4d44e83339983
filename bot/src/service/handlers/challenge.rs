//! Challenges: `/challenge`, `/accept`, `/decline`, `/withdraw`. A challenge is a record
//! in the `challenge` phase; accepted, the same record (same id) becomes the game.

mod closed;
pub(crate) mod refusal;

use stonemate_ai::Level;
use stonemate_engine::options::parse_option_text;
use stonemate_engine::{AnyGame, Color, GameKind};

use super::picker;
use crate::service::buttons::Action;
use crate::service::error::Failure;
use crate::service::error::Refusal;
use crate::service::games::{self, Sent};
use crate::service::loaded::Loaded;
use crate::service::parts::Parts;
use crate::service::tell;
use crate::service::text;
use crate::service::types::{Button, ButtonStyle, Caller, GameId, Message, Reply, Response, User, UserId};
use crate::store::{ColorChoice, GameRecord, IndexEntry, NOBODY, Origin, Pending, Phase, Seat, Seats};
use refusal::ChallengeRefusal;

/// The name an open challenge shows for its opponent until someone accepts it.
const ANYONE: &str = "anyone";

/// What a challenge asks for: the opponent (`None`: anyone, an open challenge), the game
/// and its options, the challenger's colour, the days per turn (`None`: the server's
/// default) and, against the bot, its level.
pub(crate) struct Terms<'a> {
    pub opponent: Option<&'a User>,
    pub kind: GameKind,
    pub color: ColorChoice,
    pub days: Option<u8>,
    pub options: Vec<(String, String)>,
    pub level: Level,
    /// The finished game whose Rematch button asks for this one.
    pub rematch_of: Option<GameId>,
}

impl Terms<'_> {
    /// The options as typed (`board=9x9 komi=6.5`), read into pairs.
    pub(crate) fn options(text: Option<&str>) -> Result<Vec<(String, String)>, Refusal> {
        Ok(parse_option_text(text.unwrap_or_default())?)
    }
}

/// Refuses a new challenge past the challenger's own limits: challenges to this opponent
/// that ended lately ([`closed`]), challenges he has waiting (in every server),
/// challenges waiting from him to this opponent, games he plays.
/// Challenges a user receives never count against him, so a flood of them blocks nobody.
fn check_limits(parts: &Parts, caller: &Caller, opponent: &User) -> Result<(), Failure> {
    closed::check(parts, caller.user.id, opponent, caller.guild)?;
    let caller = &caller.user;
    let waiting = |entry: &IndexEntry| entry.phase == Phase::Challenge;
    let sent: Vec<GameId> =
        parts.games.entries_of(caller.id)?.into_iter().filter(|e| waiting(e) && e.challenger).map(|e| e.id).collect();
    let limit = parts.settings.max_pending_challenges;
    if sent.len() >= limit {
        return Err(ChallengeRefusal::TooMany { limit }.into());
    }
    let received = parts.games.entries_of(opponent.id)?;
    let to_them = received.iter().filter(|e| waiting(e) && !e.challenger && sent.contains(&e.id)).count();
    let limit = parts.settings.max_challenges_per_opponent;
    if to_them >= limit {
        return Err(ChallengeRefusal::TooManyTo { name: text::name(&opponent.name), limit }.into());
    }
    check_active(parts, caller.id, "you".to_owned(), "have")
}

fn check_active(parts: &Parts, user: UserId, who: String, has: &'static str) -> Result<(), Failure> {
    let limit = parts.settings.max_active_games;
    let active = parts.games.entries_of(user)?.iter().filter(|entry| entry.phase == Phase::Playing).count();
    if active >= limit { Err(ChallengeRefusal::TooManyGames { who, has, limit }.into()) } else { Ok(()) }
}

/// The options a challenge asks for: for go, counting (rule 10) unless the challenger
/// said `counting=off`, as every go server counts dead stones after the passes (a bare
/// record keeps the source's rule, off).
fn with_counting(kind: GameKind, mut pairs: Vec<(String, String)>) -> Vec<(String, String)> {
    if kind == GameKind::Go && !pairs.iter().any(|(key, _)| key.trim().eq_ignore_ascii_case("counting")) {
        pairs.push(("counting".to_owned(), "on".to_owned()));
    }
    pairs
}

/// `/challenge` on `terms`; with the bot as opponent, a game against it at the terms'
/// level, started at once; without an opponent, an open challenge.
pub(crate) fn challenge(parts: &Parts, caller: &Caller, terms: Terms<'_>) -> Result<Response, Failure> {
    let Terms { opponent, kind, color, days, options: pairs, level, rematch_of } = terms;
    let anyone = User { id: NOBODY, name: ANYONE.to_owned() };
    let opponent = opponent.unwrap_or(&anyone);
    if opponent.id == caller.user.id {
        return Err(ChallengeRefusal::Yourself.into());
    }
    let start = AnyGame::new(kind, &with_counting(kind, pairs))?;
    let days = days.unwrap_or(parts.settings.default_days);
    let against_bot = parts.seat.is_bot(opponent.id);
    if against_bot {
        // The bot has no limits of its own: only the challenger's games count.
        check_active(parts, caller.user.id, "you".to_owned(), "have")?;
    } else {
        check_limits(parts, caller, opponent)?;
    }
    let now = parts.clocks.now();
    let record = GameRecord {
        id: GameId(0),
        version: 0,
        kind,
        options: start.option_pairs(),
        days,
        seats: Seats::new(
            Seat::new(caller.user.id, games::short_name(&caller.user.name)),
            Seat::new(opponent.id, games::short_name(&opponent.name)),
            color,
        ),
        origin: Origin {
            channel: caller.channel,
            guild: caller.guild,
            created: now,
            expires: now + parts.settings.challenge_expiry,
            rematch_of,
            tournament: None,
            thread: None,
        },
        phase: Phase::Challenge,
        turns: Vec::new(),
        clock: None,
        pending: Pending::default(),
        result: None,
    };
    if against_bot {
        return start_against_bot(parts, caller, record, start, level);
    }
    let record = parts.games.create(record)?;
    parts.users.remember(&caller.user);
    if !record.seats.is_open() {
        parts.users.remember(opponent);
    }
    Ok(challenge_reply(parts, &Loaded { record, position: start, stored: None }))
}

/// A game against the bot: no challenge to accept, the game is stored playing, with
/// the bot's level (which marks it as a game against the bot), and the bot is asked at
/// once if it moves first. Only the player's turns have a clock.
fn start_against_bot(
    parts: &Parts,
    caller: &Caller,
    mut record: GameRecord,
    start: AnyGame,
    level: Level,
) -> Result<Response, Failure> {
    let white_first = white_is_challenger(&record);
    record.seats.fix_sides(if white_first { Color::White } else { Color::Black });
    record.phase = Phase::Playing;
    record.seats.bot = Some(level);
    let bot_side = if white_first { Color::Black } else { Color::White };
    record.clock = if start.to_move() == Some(bot_side) {
        None
    } else {
        parts.clocks.turn_clock(&record, &parts.users.of(&record))
    };
    let record = parts.games.create(record)?;
    parts.users.remember(&caller.user);
    let game = Loaded { record, position: start, stored: None };
    parts.seat.ask(&game);
    let record = &game.record;
    let first = game.mover().map_or_else(|| Message::from("nobody"), |user| Message::new().name(record.name_of(user)));
    let message = Message::new()
        .name(&caller.user.name)
        .push(format!(" vs Stonemate ({level}): {} {} begins, {}. ", record.kind.title(), record.id, game.sides()))
        .then(first)
        .push(format!(" moves first{}.", parts.clocks.time_left(record)));
    let reply = Reply {
        ok: true,
        message,
        images: vec![parts.pictures.public_board(&game)],
        about: Some(record.id),
        ..Reply::default()
    };
    Ok(Response { reply, notices: Vec::new() })
}

fn describe_terms(game: &Loaded) -> Message {
    let record = &game.record;
    let options: Vec<String> = record.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let clock = match record.days {
        0 => "no clock".to_owned(),
        1 => "1 day per move".to_owned(),
        days => format!("{days} days per move"),
    };
    let plays =
        |side| Message::new().name(&record.seats.challenger.name).push(format!(" plays {}", game.side_name(side)));
    let color = match record.seats.color {
        ColorChoice::Random => Message::from("colours drawn at random"),
        ColorChoice::White => plays(Color::White),
        ColorChoice::Black => plays(Color::Black),
    };
    // A game without options (Gess, iChess, Chogo) starts the list at the clock.
    let options = Some(options.join(" ")).filter(|options| !options.is_empty());
    let terms = options.into_iter().map(|options| format!("{options}; ")).collect::<String>();
    Message::from(terms).push(clock).push("; ").then(color)
}

fn challenge_reply(parts: &Parts, game: &Loaded) -> Response {
    let record = &game.record;
    if record.seats.is_open() {
        return open_challenge_reply(parts, game);
    }
    let message = Message::new()
        .ping(record.opponent(), &record.seats.opponent.name)
        .push(", ")
        .name(&record.seats.challenger.name)
        .push(format!(" challenges you to {} — challenge {} (", record.kind.title(), record.id))
        .then(describe_terms(game))
        .push(format!("). Accept or decline before it lapses {}.", parts.clocks.deadline(record.origin.expires)));
    let buttons =
        vec![accept_button(record.id), Action::Decline { id: record.id }.button("Decline", ButtonStyle::Danger)];
    let board = parts.pictures.public_board(game);
    let reply = Reply { ok: true, message, images: vec![board], buttons, about: Some(record.id), ..Reply::default() };
    Response { reply, notices: Vec::new() }
}

/// An open challenge: no ping, and only an Accept button (anyone but the challenger).
fn open_challenge_reply(parts: &Parts, game: &Loaded) -> Response {
    let record = &game.record;
    let message = Message::new()
        .name(&record.seats.challenger.name)
        .push(format!(" challenges anyone here to {} — open challenge {} (", record.kind.title(), record.id))
        .then(describe_terms(game))
        .push("). Anyone in this channel but ")
        .name(&record.seats.challenger.name)
        .push(format!(" may accept it within {}.", (record.origin.expires - record.origin.created).wait()));
    let accept = accept_button(record.id);
    let images = vec![parts.pictures.public_board(game)];
    let reply = Reply { ok: true, message, images, buttons: vec![accept], about: Some(record.id), ..Reply::default() };
    Response { reply, notices: Vec::new() }
}

/// Who may accept `record`: its opponent; for an open challenge, anyone in its channel
/// but the challenger. Someone else's accepted challenge is refused as taken.
fn check_acceptor(caller: &Caller, record: &GameRecord) -> Result<(), Refusal> {
    let me = caller.user.id;
    if record.seats.is_open() {
        if record.challenger() == me {
            return Err(ChallengeRefusal::OwnOpen(record.id).into());
        }
        if record.channel() != caller.channel {
            return Err(ChallengeRefusal::OpenElsewhere(record.id).into());
        }
        return Ok(());
    }
    if matches!(record.phase, Phase::Playing | Phase::Finished) && !record.seats.involves(me) {
        return Err(ChallengeRefusal::Taken { id: record.id, name: text::name(&record.seats.opponent.name) }.into());
    }
    if record.opponent() != me {
        return Err(ChallengeRefusal::NotForYou(record.id).into());
    }
    Ok(())
}

/// Refuses a record that is not a challenge waiting for an answer.
fn check_pending(parts: &Parts, record: &GameRecord) -> Result<(), Failure> {
    let state = match record.phase {
        Phase::Challenge if record.origin.expires <= parts.clocks.now() => return Err(expired(record).into()),
        Phase::Challenge => return Ok(()),
        Phase::Declined => "was declined",
        Phase::Withdrawn => "was withdrawn",
        Phase::Expired => return Err(expired(record).into()),
        Phase::Playing => "is already being played",
        Phase::Finished => "is a finished game",
    };
    Err(ChallengeRefusal::NotPending { id: record.id, state }.into())
}

/// `/accept` (and the Accept button).
pub(crate) fn accept(parts: &Parts, caller: &Caller, text: Option<GameId>) -> Result<Response, Failure> {
    let game = parts.games.open_challenge(caller, text, Sent::ToCaller)?;
    let record = &game.record;
    check_acceptor(caller, record)?;
    let was_open = record.seats.is_open();
    check_pending(parts, record)?;
    check_active(parts, caller.user.id, "you".to_owned(), "have")?;
    check_active(parts, record.challenger(), text::name(&record.seats.challenger.name), "has")?;
    let clock = parts.clocks.turn_clock(record, &parts.users.of(record));
    let white_first = white_is_challenger(record);
    // Binding an open challenge's opponent is this compare-and-swap: of two accepting at
    // once, one writes, and the other, run again, is told it was taken.
    let change = |next: &mut GameRecord| {
        next.seats.opponent = Seat::new(caller.user.id, games::short_name(&caller.user.name));
        next.seats.fix_sides(if white_first { Color::White } else { Color::Black });
        next.phase = Phase::Playing;
        next.clock = clock;
    };
    // The author's notice is written with the game's start, like every other notice.
    let response = parts.respond(caller, game, change, |game| accepted(parts, caller, game, was_open))?;
    parts.users.remember(&caller.user);
    Ok(response)
}

/// The reply to an accepted challenge, and the notice to an open challenge's author.
fn accepted(parts: &Parts, caller: &Caller, game: &Loaded, was_open: bool) -> Response {
    let next = &game.record;
    let first_user = game.mover();
    let first = match first_user {
        // The caller is not pinged by his own command.
        Some(user) if user == caller.user.id => Message::new().ping(user, next.name_of(user)).quiet(),
        Some(user) => Message::new().ping(user, next.name_of(user)),
        None => Message::from("nobody"),
    };
    let message = Message::new()
        .name(&caller.user.name)
        .push(format!(" accepted: {} {} begins, {}. ", next.kind.title(), next.id, game.sides()))
        .then(first)
        .push(format!(" moves first{}.", parts.clocks.time_left(next)));
    let reply = Reply {
        ok: true,
        message,
        images: vec![parts.pictures.public_board(game)],
        buttons: picker::play_for_mover(parts, game),
        about: Some(next.id),
        ..Reply::default()
    };
    // The author of an open challenge learns who took it (unless the reply pings him).
    let notices = if was_open && !reply.message.mentions().contains(&next.challenger()) {
        let told = Message::new().name(&caller.user.name).push(format!(" accepted your open challenge {}.", next.id));
        tell::result_notices(parts, (next, &parts.users.of(next)), &told, Some(caller.user.id))
    } else {
        Vec::new()
    };
    Response { reply, notices }
}

/// Ends a pending challenge without a game: declined by the opponent or withdrawn by the
/// challenger.
fn close(parts: &Parts, caller: &Caller, game: Loaded, phase: Phase) -> Result<Response, Failure> {
    check_pending(parts, &game.record)?;
    if !game.record.seats.is_open() {
        closed::remember(parts, &game.record, phase == Phase::Declined)?;
    }
    parts.respond(
        caller,
        game,
        |next| next.phase = phase,
        |game| {
            let record = &game.record;
            let verb = if phase == Phase::Declined { "declined" } else { "withdrew" };
            let message = Message::new().name(&caller.user.name).push(format!(
                " {verb} challenge {} ({}).",
                record.id,
                record.kind.name()
            ));
            // An open challenge has nobody else to tell.
            let notices = if record.seats.is_open() {
                Vec::new()
            } else {
                tell::result_notices(parts, (record, &parts.users.of(record)), &message, Some(caller.user.id))
            };
            Response::about(record.id, message, notices)
        },
    )
}

/// `/decline` (and the Decline button).
pub(crate) fn decline(parts: &Parts, caller: &Caller, text: Option<GameId>) -> Result<Response, Failure> {
    let game = parts.games.open_challenge(caller, text, Sent::ToCaller)?;
    if game.record.seats.is_open() {
        return Err(ChallengeRefusal::OpenNotDeclined(game.id()).into());
    }
    if game.record.opponent() != caller.user.id {
        return Err(ChallengeRefusal::NotForYou(game.id()).into());
    }
    close(parts, caller, game, Phase::Declined)
}

/// `/withdraw`.
pub(crate) fn withdraw(parts: &Parts, caller: &Caller, text: Option<GameId>) -> Result<Response, Failure> {
    let game = parts.games.open_challenge(caller, text, Sent::ByCaller)?;
    if game.record.challenger() != caller.user.id {
        return Err(ChallengeRefusal::NotYours(game.id()).into());
    }
    close(parts, caller, game, Phase::Withdrawn)
}

/// The Accept button of challenge `id` (open or not).
fn accept_button(id: GameId) -> Button {
    Action::Accept { id }.button("Accept", ButtonStyle::Success)
}

impl Button {
    /// The Rematch button of a finished game: the press names the game, so it works after
    /// a restart.
    #[must_use]
    pub fn rematch(id: GameId) -> Button {
        Action::Rematch { id }.button("Rematch", ButtonStyle::Primary)
    }
}

/// Who plays white: the challenger's choice, or a fair coin.
fn white_is_challenger(record: &GameRecord) -> bool {
    match record.seats.color {
        ColorChoice::White => true,
        ColorChoice::Black => false,
        ColorChoice::Random => rand::random(),
    }
}

/// The refusal of a challenge that lapsed, saying how long challenges wait.
fn expired(record: &GameRecord) -> ChallengeRefusal {
    ChallengeRefusal::Expired { id: record.id, wait: (record.origin.expires - record.origin.created).wait() }
}
