//! `/tournament create | join | leave | start | cancel | standings | list` (the contract's
//! fourth wave): round robins and Swiss tournaments of a server's members, their state
//! beside the games in the store ([`crate::store::Tournaments`]), their pairing and
//! standings from the pure `stonemate-tournament` crate. Tournament games are ordinary
//! games with a tag; [`progress`] records their results and pairs the next rounds.

mod find;
mod news;
pub(crate) mod progress;
pub(crate) mod refusal;
mod terms;

use stonemate_engine::AnyGame;
use stonemate_tournament::{Format, PlayerId};

use crate::service::buttons::Action;
use crate::service::error::{Failure, Refusal};
use crate::service::games::short_name;
use crate::service::message::Message;
use crate::service::options::keys;
use crate::service::parts::Parts;
use crate::service::text;
use crate::service::types::{ButtonStyle, Caller, Reply, Response};
use crate::store::tournaments::{Change, Joined};
use crate::store::{GameRecord, TournamentRecord, TournamentStatus};
use find::Fits;
pub(crate) use news::standings_notice;
use refusal::TournamentRefusal;
pub(crate) use terms::{ListStatus, Terms, TournamentFormat, format, id, status};

/// The days per move when `days` is left out.
const DEFAULT_DAYS: u32 = 3;
/// The most players per division when `division` is left out.
const DEFAULT_DIVISION: u32 = 10;
/// The most players when `max` is left out.
const DEFAULT_MAX: u32 = 100;
/// The most tournaments `/tournament list` shows.
const LISTED: usize = 25;

fn public(message: Message) -> Response {
    Response { reply: Reply { ok: true, message, ..Reply::default() }, notices: Vec::new() }
}

/// Refuses `what` in a tournament game (`/takeback`, `/abort`, `/extratime`, Rematch).
pub(crate) fn refuse_in_tournament(record: &GameRecord, what: &'static str) -> Result<(), Refusal> {
    match record.origin.tournament {
        Some(tag) => Err(TournamentRefusal::NotInTournaments { what, game: record.id, tournament: tag.id }.into()),
        None => Ok(()),
    }
}

/// What `/board` says of a tournament game: ` A game of **Autumn cup** (T1), round 2.`
/// (nothing for another game).
pub(crate) fn board_line(parts: &Parts, record: &GameRecord) -> Message {
    let Some(tag) = record.origin.tournament else { return Message::new() };
    let named = parts.tournaments.load(tag.id).ok().flatten();
    let title = named.as_ref().map_or_else(|| Message::from(tag.id.to_string()), news::title);
    Message::from(" A game of ").then(title).push(format!(", round {}.", tag.round))
}

/// The format `terms` ask for; an option of the other format is refused.
fn format_of(terms: &Terms) -> Result<Format, TournamentRefusal> {
    let other = |option: &'static str, format: &'static str| Err(TournamentRefusal::OtherFormat { option, format });
    match terms.format {
        TournamentFormat::RoundRobin => match terms.rounds {
            Some(_) => other(keys::TournamentCreate::rounds.name, "Swiss"),
            None => Ok(Format::RoundRobin {
                division: terms.division.unwrap_or(DEFAULT_DIVISION),
                double: terms.double.unwrap_or(false),
            }),
        },
        TournamentFormat::Swiss if terms.double.is_some() => other(keys::TournamentCreate::double.name, "round-robin"),
        TournamentFormat::Swiss if terms.division.is_some() => {
            other(keys::TournamentCreate::division.name, "round-robin")
        }
        TournamentFormat::Swiss => Ok(Format::Swiss { rounds: terms.rounds }),
    }
}

/// `/tournament create`: needs Manage Server; every option checked before anything is
/// written.
pub(crate) fn create(parts: &Parts, caller: &Caller, terms: Terms) -> Result<Response, Failure> {
    let guild = find::server(caller)?;
    if !caller.admin {
        return Err(TournamentRefusal::NeedsManageServer.into());
    }
    let format = format_of(&terms)?;
    let mut pairs = stonemate_engine::options::parse_option_text(terms.options.as_deref().unwrap_or_default())?;
    if terms.game == stonemate_engine::GameKind::Go
        && !pairs.iter().any(|(key, _)| key.eq_ignore_ascii_case("counting"))
    {
        // As a challenge's: go games count dead stones after the passes.
        pairs.push(("counting".to_owned(), "on".to_owned()));
    }
    let options = AnyGame::new(terms.game, &pairs)?.option_pairs();
    let now = parts.clocks.now();
    let starts_at = terms.starts.as_deref().filter(|typed| !typed.trim().is_empty()).map(terms::starts).transpose()?;
    let record = TournamentRecord {
        id: crate::ids::TournamentId(0),
        version: 0,
        guild,
        channel: caller.channel,
        creator: caller.user.id,
        name: terms::name(terms.name.as_deref(), terms.game),
        kind: terms.game,
        options,
        days: u8::try_from(terms.days.unwrap_or(DEFAULT_DAYS)).unwrap_or(3),
        format,
        rated: terms.rated.unwrap_or(true),
        max: terms.max.unwrap_or(DEFAULT_MAX),
        starts_at: starts_at.map(|span| now + span),
        created: now,
        status: TournamentStatus::Open,
        entrants: Vec::new(),
        state: None,
        games: Vec::new(),
        standings_message: None,
    };
    let record = parts.tournaments.create(record)?;
    let starts = starts_at.map_or_else(
        || " It starts with `/tournament start`.".to_owned(),
        |span| format!(" It starts by itself in {}, with 2 players or more.", span.wait()),
    );
    let message = news::title(&record).push(format!(
        ": a {} of {}, {} days per move, {}rated, up to {} players.{starts} Join with `{}`.",
        news::format_name(&record.format),
        record.kind.title(),
        record.days,
        if record.rated { "" } else { "un" },
        record.max,
        keys::TournamentJoin::tournament.usage(record.id),
    ));
    let mut response = public(message);
    response.reply.buttons = vec![
        Action::TournamentJoin { id: record.id }.button("Join", ButtonStyle::Success),
        Action::TournamentLeave { id: record.id }.button("Leave", ButtonStyle::Secondary),
    ];
    Ok(response)
}

/// `/tournament join` (and the Join button).
pub(crate) fn join(parts: &Parts, caller: &Caller, id: Option<crate::ids::TournamentId>) -> Result<Response, Failure> {
    if parts.seat.is_bot(caller.user.id) {
        return Err(TournamentRefusal::BotMayNotJoin.into());
    }
    let (record, stored) = find::pick(parts, caller, id, Fits::Open)?;
    if record.status != TournamentStatus::Open {
        return Err(TournamentRefusal::NotOpen { id: record.id, status: record.status.name(), done: "joined" }.into());
    }
    if record.has_entrant(caller.user.id) {
        return Err(TournamentRefusal::AlreadyIn(record.id).into());
    }
    if record.entrants.len() >= record.max as usize {
        return Err(TournamentRefusal::Full { id: record.id, max: record.max }.into());
    }
    let mut to = record.clone();
    to.entrants.push(Joined { user: caller.user.id, name: short_name(&caller.user.name) });
    let change =
        Change { from: (&record, &stored), to, new_games: Vec::new(), changed: Vec::new(), notices: &|_| Vec::new() };
    let (written, _) = parts.tournaments.write(change)?;
    parts.users.remember(&caller.user);
    let message = Message::new()
        .name(&caller.user.name)
        .push(" joined ")
        .then(news::title(&written))
        .push(format!(": {}.", text::counted(written.entrants.len(), "player", "players")));
    Ok(public(message))
}

/// `/tournament leave` (and the Leave button): before the start, leaves; after, withdraws.
pub(crate) fn leave(parts: &Parts, caller: &Caller, id: Option<crate::ids::TournamentId>) -> Result<Response, Failure> {
    let (record, stored) = find::pick(parts, caller, id, Fits::Mine)?;
    if !record.has_entrant(caller.user.id) {
        return Err(TournamentRefusal::NotIn(record.id).into());
    }
    let message = Message::new().name(&caller.user.name);
    match record.status {
        TournamentStatus::Open => {
            let mut to = record.clone();
            to.entrants.retain(|joined| joined.user != caller.user.id);
            let change = Change {
                from: (&record, &stored),
                to,
                new_games: Vec::new(),
                changed: Vec::new(),
                notices: &|_| Vec::new(),
            };
            let (written, _) = parts.tournaments.write(change)?;
            let message = message.push(" left ").then(news::title(&written));
            Ok(public(message.push(format!(": {}.", text::counted(written.entrants.len(), "player", "players")))))
        }
        TournamentStatus::Running => {
            let player = PlayerId(caller.user.id.0);
            let withdrawn = record.state.as_ref().and_then(|state| state.players().iter().find(|p| p.id == player));
            if withdrawn.is_none_or(|player| player.withdrawn) {
                return Err(TournamentRefusal::NotIn(record.id).into());
            }
            let unfinished = record.state.as_ref().map_or(0, |state| {
                state
                    .games()
                    .iter()
                    .filter(|game| game.result.is_none() && game.pairing.colour_of(player).is_some())
                    .count()
            });
            let written = progress::withdraw(parts, (&record, &stored), player)?;
            let message = message.push(" withdrew from ").then(news::title(&written));
            Ok(public(message.push(format!(
                ": {} lost by forfeit.",
                text::counted(unfinished, "unfinished game", "unfinished games")
            ))))
        }
        status => Err(TournamentRefusal::Over { id: record.id, status: status.name() }.into()),
    }
}

/// Whether the caller may start or cancel `record`: its creator, or Manage Server.
fn organises(caller: &Caller, record: &TournamentRecord) -> Result<(), TournamentRefusal> {
    if caller.admin || caller.user.id == record.creator {
        Ok(())
    } else {
        Err(TournamentRefusal::NotOrganiser(record.id))
    }
}

/// `/tournament start`: now, with two players or more.
pub(crate) fn start(parts: &Parts, caller: &Caller, id: Option<crate::ids::TournamentId>) -> Result<Response, Failure> {
    let (record, stored) = find::pick(parts, caller, id, Fits::Open)?;
    organises(caller, &record)?;
    if record.status != TournamentStatus::Open {
        return Err(TournamentRefusal::NotOpen { id: record.id, status: record.status.name(), done: "started" }.into());
    }
    if record.entrants.len() < 2 {
        return Err(TournamentRefusal::TooFew { id: record.id, players: record.entrants.len() }.into());
    }
    let written = progress::start(parts, (&record, &stored))?;
    let message = Message::new().name(&caller.user.name).push(" started ").then(news::title(&written));
    Ok(public(message.push(format!(
        ": {} {}.",
        text::counted(written.games.len(), "game", "games"),
        if written.games.len() == 1 { "begins" } else { "begin" }
    ))))
}

/// `/tournament cancel`: removes an open tournament, ends a running one.
pub(crate) fn cancel(
    parts: &Parts,
    caller: &Caller,
    id: Option<crate::ids::TournamentId>,
) -> Result<Response, Failure> {
    let (record, stored) = find::pick(parts, caller, id, Fits::Current)?;
    organises(caller, &record)?;
    let message = Message::new().name(&caller.user.name).push(" cancelled ").then(news::title(&record));
    match record.status {
        TournamentStatus::Open => {
            parts.tournaments.remove((&record, &stored))?;
            Ok(public(message.push(": it is removed.")))
        }
        TournamentStatus::Running => {
            progress::cancel(parts, (&record, &stored), &short_name(&caller.user.name))?;
            Ok(public(message.push(": its unfinished games are aborted.")))
        }
        status => Err(TournamentRefusal::Over { id: record.id, status: status.name() }.into()),
    }
}

/// `/tournament standings`: public, as a picture and as text.
pub(crate) fn standings(
    parts: &Parts,
    caller: &Caller,
    id: Option<crate::ids::TournamentId>,
    page: u32,
) -> Result<Response, Failure> {
    let (record, _) = find::pick(parts, caller, id, Fits::Running)?;
    if record.state.is_none() {
        let names: Vec<String> = record.entrants.iter().map(|joined| text::name(&joined.name)).collect();
        let shown = if names.is_empty() { "nobody yet".to_owned() } else { names.join(", ") };
        return Ok(public(news::title(&record).push(format!(" has not started; players: {shown}."))));
    }
    let pages = news::pages(&record);
    let (message, picture) =
        news::standings_page(&record, page).ok_or(TournamentRefusal::NoPage { id: record.id, pages })?;
    let mut response = public(message);
    response.reply.images.push(picture);
    Ok(response)
}

/// `/tournament list`: this server's tournaments.
pub(crate) fn list(parts: &Parts, caller: &Caller, status: ListStatus) -> Result<Response, Failure> {
    let guild = find::server(caller)?;
    let shown = |tournament: TournamentStatus| match status {
        ListStatus::Current => matches!(tournament, TournamentStatus::Open | TournamentStatus::Running),
        ListStatus::Open => tournament == TournamentStatus::Open,
        ListStatus::Running => tournament == TournamentStatus::Running,
        ListStatus::Finished => matches!(tournament, TournamentStatus::Finished | TournamentStatus::Cancelled),
    };
    let ids: Vec<_> = parts.tournaments.in_server(guild)?.into_iter().filter(|(_, status)| shown(*status)).collect();
    if ids.is_empty() {
        return Ok(public(Message::from("No tournament here fits: `/tournament create` makes one.")));
    }
    let mut message = Message::from(format!("**Tournaments here** ({}):", ids.len()));
    // Newest first.
    for (id, _) in ids.iter().rev().take(LISTED) {
        let Some(record) = parts.tournaments.load(*id)? else { continue };
        let players = record.state.as_ref().map_or(record.entrants.len(), |state| state.players().len());
        message = message.push("\n").then(news::title(&record)).push(format!(
            " — {}, {}, {}, {}",
            news::format_name(&record.format),
            record.kind.title(),
            text::counted(players, "player", "players"),
            record.status.name()
        ));
    }
    if ids.len() > LISTED {
        message = message.push(format!("\n… and {} older.", ids.len() - LISTED));
    }
    Ok(public(message))
}
