//! Challenges: `/challenge`, `/accept`, `/decline`, `/withdraw`. A challenge is a record
//! in the `challenge` phase; accepted, the same record (same id) becomes the game.

use stonemate_ai::Level;
use stonemate_engine::options::parse_option_text;
use stonemate_engine::{AnyGame, Color, GameKind};

use super::Service;
use super::error::Refusal;
use super::lookup::{self, Sent};
use super::picture::Loaded;
use super::text;
use super::types::{Button, ButtonStyle, Caller, GameId, Reply, Response, User, UserId};
use crate::store::{ColorChoice, FORMAT, GameRecord, IndexEntry, NOBODY, Phase, UserRecord};

/// The name an open challenge shows for its opponent until someone accepts it.
const ANYONE: &str = "anyone";

/// What a challenge asks for: the opponent (`None`: anyone, an open challenge), the game
/// and its options, the challenger's colour, the days per turn (`None`: the server's
/// default) and, against the bot, its level.
pub(super) struct Terms<'a> {
    pub opponent: Option<&'a User>,
    pub kind: GameKind,
    pub color: ColorChoice,
    pub days: Option<u8>,
    pub options: Vec<(String, String)>,
    pub level: Level,
}

impl Terms<'_> {
    /// The options as typed (`board=9x9 komi=6.5`), read into pairs.
    pub(super) fn options(text: Option<&str>) -> Result<Vec<(String, String)>, Refusal> {
        Ok(parse_option_text(text.unwrap_or_default())?)
    }
}

impl Service {
    /// Refuses a new challenge past the challenger's own limits: challenges he has waiting
    /// (in every server), challenges waiting from him to this opponent, games he plays.
    /// Challenges a user receives never count against him, so a flood of them blocks nobody.
    fn check_limits(&self, caller: &User, opponent: &User) -> Result<(), Refusal> {
        let waiting = |entry: &IndexEntry| entry.phase == Phase::Challenge;
        let sent: Vec<GameId> = self
            .store
            .entries_of(caller.id)?
            .into_iter()
            .filter(|e| waiting(e) && e.challenger)
            .map(|e| e.id)
            .collect();
        let limit = self.settings.max_pending_challenges;
        if sent.len() >= limit {
            return Err(Refusal::TooManyChallenges { limit });
        }
        let received = self.store.entries_of(opponent.id)?;
        let to_them = received.iter().filter(|e| waiting(e) && !e.challenger && sent.contains(&e.id)).count();
        let limit = self.settings.max_challenges_per_opponent;
        if to_them >= limit {
            return Err(Refusal::TooManyChallengesTo { name: text::name(&opponent.name), limit });
        }
        self.check_active(caller.id, "you".to_owned(), "have")
    }

    fn check_active(&self, user: UserId, who: String, has: &'static str) -> Result<(), Refusal> {
        let limit = self.settings.max_active_games;
        let active = self.store.games_of(user)?.iter().filter(|(_, phase)| *phase == Phase::Playing).count();
        if active >= limit { Err(Refusal::TooManyGames { who, has, limit }) } else { Ok(()) }
    }

    /// Keeps the latest display name of a user who took part in something.
    fn remember(&self, user: &User) {
        let old = self.store.user(user.id).ok().flatten();
        if old.as_ref().is_some_and(|old| old.name == lookup::short_name(&user.name)) {
            return;
        }
        let name = lookup::short_name(&user.name);
        let record = match old {
            Some(old) => UserRecord { name, ..old },
            None => UserRecord::new(user.id, name),
        };
        // A name is for display only: failing to store it must not fail the command.
        let _ = self.store.save_user(&record);
    }

    /// `/challenge` on `terms`; with the bot as opponent, a game against it at the terms'
    /// level, started at once; without an opponent, an open challenge.
    pub(super) fn challenge(&self, caller: &Caller, terms: Terms<'_>) -> Result<Response, Refusal> {
        let Terms { opponent, kind, color, days, options: pairs, level } = terms;
        let anyone = User { id: NOBODY, name: ANYONE.to_owned() };
        let opponent = opponent.unwrap_or(&anyone);
        if opponent.id == caller.user.id {
            return Err(Refusal::ChallengeSelf);
        }
        let start = AnyGame::new(kind, &pairs)?;
        let days = days.unwrap_or(self.settings.default_days);
        let against_bot = self.is_bot(opponent.id);
        if against_bot {
            // The bot has no limits of its own: only the challenger's games count.
            self.check_active(caller.user.id, "you".to_owned(), "have")?;
        } else {
            self.check_limits(&caller.user, opponent)?;
        }
        let now = self.now();
        let record = GameRecord {
            format: FORMAT,
            id: GameId(0),
            version: 0,
            game: kind,
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
            expires: now + self.settings.challenge_expiry,
            phase: Phase::Challenge,
            turns: Vec::new(),
            clock: None,
            draw_offer: None,
            result: None,
            level: None,
        };
        if against_bot {
            return self.start_against_bot(caller, record, start, level);
        }
        let record = self.store.create(record)?;
        self.remember(&caller.user);
        if !record.is_open() {
            self.remember(opponent);
        }
        Ok(self.challenge_reply(&Loaded { record, position: start }))
    }

    /// A game against the bot: no challenge to accept, the game is stored playing, with
    /// the bot's level (which marks it as a game against the bot), and the bot is asked at
    /// once if it moves first. Only the player's turns have a clock.
    fn start_against_bot(
        &self,
        caller: &Caller,
        mut record: GameRecord,
        start: AnyGame,
        level: Level,
    ) -> Result<Response, Refusal> {
        let bot = record.opponent;
        let white_first = white_is_challenger(&record);
        record.players = Some(if white_first { [record.challenger, bot] } else { [bot, record.challenger] });
        record.phase = Phase::Playing;
        record.level = Some(level);
        let bot_side = if white_first { Color::Black } else { Color::White };
        record.clock = if start.to_move() == Some(bot_side) { None } else { self.turn_clock(&record) };
        let record = self.store.create(record)?;
        self.remember(&caller.user);
        let game = Loaded { record, position: start };
        self.ask_bot(&game);
        let record = &game.record;
        let first = game.mover().map_or_else(|| "nobody".to_owned(), |user| text::name(record.name_of(user)));
        let text = format!(
            "{} vs Stonemate ({level}): {} {} begins, {}. {first} moves first{}.",
            text::name(&caller.user.name),
            record.game.title(),
            record.id,
            game.sides(),
            self.time_left(record)
        );
        let reply =
            Reply { ok: true, text, images: vec![self.public_board(&game)], game: Some(record.id), ..Reply::default() };
        Ok(Response { reply, notices: Vec::new() })
    }
}

fn describe_terms(game: &Loaded) -> String {
    let record = &game.record;
    let options: Vec<String> = record.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let clock = match record.days {
        0 => "no clock".to_owned(),
        1 => "1 day per move".to_owned(),
        days => format!("{days} days per move"),
    };
    let color = match record.color {
        ColorChoice::Random => "colours drawn at random".to_owned(),
        ColorChoice::White => format!("{} plays {}", text::name(&record.names[0]), game.side_name(Color::White)),
        ColorChoice::Black => format!("{} plays {}", text::name(&record.names[0]), game.side_name(Color::Black)),
    };
    // A game without options (Gess, iChess, Chogo) starts the list at the clock.
    let options = Some(options.join(" ")).filter(|options| !options.is_empty());
    options.into_iter().chain([clock, color]).collect::<Vec<_>>().join("; ")
}

impl Service {
    fn challenge_reply(&self, game: &Loaded) -> Response {
        let record = &game.record;
        let id = record.id.0;
        if record.is_open() {
            return self.open_challenge_reply(game);
        }
        let text = format!(
            "{}, {} challenges you to {} — challenge {} ({}). Accept or decline before it lapses {}.",
            text::ping(&record.names[1]),
            text::name(&record.names[0]),
            record.game.title(),
            record.id,
            describe_terms(game),
            self.deadline(record.expires)
        );
        let buttons = vec![
            accept_button(record.id),
            Button { custom_id: format!("decline:{id}"), label: "Decline".into(), style: ButtonStyle::Danger },
        ];
        let board = self.public_board(game);
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

    /// An open challenge: no ping, and only an Accept button (anyone but the challenger).
    fn open_challenge_reply(&self, game: &Loaded) -> Response {
        let record = &game.record;
        let text = format!(
            "{} challenges anyone here to {} — open challenge {} ({}). Anyone in this channel but {0} may \
             accept it within {}.",
            text::name(&record.names[0]),
            record.game.title(),
            record.id,
            describe_terms(game),
            (record.expires - record.created).wait()
        );
        let accept = accept_button(record.id);
        let images = vec![self.public_board(game)];
        let reply = Reply { ok: true, text, images, buttons: vec![accept], game: Some(record.id), ..Reply::default() };
        Response { reply, notices: Vec::new() }
    }

    /// Who may accept `record`: its opponent; for an open challenge, anyone in its channel
    /// but the challenger. Someone else's accepted challenge is refused as taken.
    fn check_acceptor(&self, caller: &Caller, record: &GameRecord) -> Result<(), Refusal> {
        let me = caller.user.id;
        if record.is_open() {
            if record.challenger == me {
                return Err(Refusal::OwnOpenChallenge(record.id));
            }
            if record.channel != caller.channel {
                return Err(Refusal::OpenElsewhere(record.id));
            }
            return Ok(());
        }
        if matches!(record.phase, Phase::Playing | Phase::Finished) && !record.involves(me) {
            return Err(Refusal::Taken { game: record.id, name: text::name(&record.names[1]) });
        }
        if record.opponent != me {
            return Err(Refusal::NotForYou(record.id));
        }
        Ok(())
    }

    /// Refuses a record that is not a challenge waiting for an answer.
    fn check_pending(&self, record: &GameRecord) -> Result<(), Refusal> {
        let state = match record.phase {
            Phase::Challenge if record.expires <= self.now() => return Err(expired(record)),
            Phase::Challenge => return Ok(()),
            Phase::Declined => "was declined",
            Phase::Withdrawn => "was withdrawn",
            Phase::Expired => return Err(expired(record)),
            Phase::Playing => "is already being played",
            Phase::Finished => "is a finished game",
        };
        Err(Refusal::NotPending { game: record.id, state })
    }

    /// `/accept` (and the Accept button).
    pub(super) fn accept(&self, caller: &Caller, text: Option<GameId>) -> Result<Response, Refusal> {
        let game = self.open_challenge(caller, text, Sent::ToCaller)?;
        let record = &game.record;
        self.check_acceptor(caller, record)?;
        let was_open = record.is_open();
        self.check_pending(record)?;
        self.check_active(caller.user.id, "you".to_owned(), "have")?;
        self.check_active(record.challenger, text::name(&record.names[0]), "has")?;
        let clock = self.turn_clock(record);
        let white_first = white_is_challenger(record);
        // Binding an open challenge's opponent is this compare-and-swap: of two accepting at
        // once, one writes, and the other, run again, is told it was taken.
        let change = |next: &mut GameRecord| {
            next.opponent = caller.user.id;
            next.names[1] = lookup::short_name(&caller.user.name);
            next.players =
                Some(if white_first { [next.challenger, next.opponent] } else { [next.opponent, next.challenger] });
            next.phase = Phase::Playing;
            next.clock = clock;
        };
        // The author's notice is written with the game's start, like every other notice.
        let response = self.respond_with(caller, game, change, |game| self.accepted(caller, game, was_open))?;
        self.remember(&caller.user);
        Ok(response)
    }

    /// The reply to an accepted challenge, and the notice to an open challenge's author.
    fn accepted(&self, caller: &Caller, game: &Loaded, was_open: bool) -> Response {
        let next = &game.record;
        let first_user = game.mover();
        let text = format!(
            "{} accepted: {} {} begins, {}. {} moves first{}.",
            text::name(&caller.user.name),
            next.game.title(),
            next.id,
            game.sides(),
            first_user.map_or_else(|| "nobody".to_owned(), |user| text::ping(next.name_of(user))),
            self.time_left(next)
        );
        let reply = Reply {
            ok: true,
            text,
            images: vec![self.public_board(game)],
            mentions: first_user.into_iter().filter(|user| *user != caller.user.id).collect(),
            game: Some(next.id),
            ..Reply::default()
        };
        // The author of an open challenge learns who took it (unless the reply pings him).
        let notices = if was_open && !reply.mentions.contains(&next.challenger) {
            let text = format!("{} accepted your open challenge {}.", text::name(&caller.user.name), next.id);
            self.result_notices(next, &text, Some(caller.user.id))
        } else {
            Vec::new()
        };
        Response { reply, notices }
    }

    /// Ends a pending challenge without a game: declined by the opponent or withdrawn by the
    /// challenger.
    fn close(&self, caller: &Caller, game: Loaded, phase: Phase) -> Result<Response, Refusal> {
        self.check_pending(&game.record)?;
        self.respond_with(
            caller,
            game,
            |next| next.phase = phase,
            |game| {
                let record = &game.record;
                let verb = if phase == Phase::Declined { "declined" } else { "withdrew" };
                let text = format!(
                    "{} {verb} challenge {} ({}).",
                    text::name(&caller.user.name),
                    record.id,
                    record.game.name()
                );
                // An open challenge has nobody else to tell.
                let notices = if record.is_open() {
                    Vec::new()
                } else {
                    self.result_notices(record, &text, Some(caller.user.id))
                };
                let reply = Reply { ok: true, text, game: Some(record.id), ..Reply::default() };
                Response { reply, notices }
            },
        )
    }

    /// `/decline` (and the Decline button).
    pub(super) fn decline(&self, caller: &Caller, text: Option<GameId>) -> Result<Response, Refusal> {
        let game = self.open_challenge(caller, text, Sent::ToCaller)?;
        if game.record.is_open() {
            return Err(Refusal::OpenNotDeclined(game.id()));
        }
        if game.record.opponent != caller.user.id {
            return Err(Refusal::NotForYou(game.id()));
        }
        self.close(caller, game, Phase::Declined)
    }

    /// `/withdraw`.
    pub(super) fn withdraw(&self, caller: &Caller, text: Option<GameId>) -> Result<Response, Refusal> {
        let game = self.open_challenge(caller, text, Sent::ByCaller)?;
        if game.record.challenger != caller.user.id {
            return Err(Refusal::NotYourChallenge(game.id()));
        }
        self.close(caller, game, Phase::Withdrawn)
    }
}

/// The Accept button of challenge `id` (open or not).
fn accept_button(id: GameId) -> Button {
    Button { custom_id: format!("accept:{}", id.0), label: "Accept".into(), style: ButtonStyle::Success }
}

/// Who plays white: the challenger's choice, or a fair coin.
fn white_is_challenger(record: &GameRecord) -> bool {
    match record.color {
        ColorChoice::White => true,
        ColorChoice::Black => false,
        ColorChoice::Random => rand::random(),
    }
}

/// The refusal of a challenge that lapsed, saying how long challenges wait.
fn expired(record: &GameRecord) -> Refusal {
    Refusal::ChallengeExpired { game: record.id, wait: (record.expires - record.created).wait() }
}
