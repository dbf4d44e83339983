//! What a tournament's channel is told (its start, each Swiss round, the standings after
//! each result, its end) and the standings as a picture (the render crate's table) and as
//! text, 25 rows a page, each division apart.

use stonemate_render::{Column, Row as TableRow, Section, Table};
use stonemate_tournament::{End, Format, PlayerId, Points, Row, Standings, Tournament};

use super::terms::user_of;
use crate::service::message::Message;
use crate::service::types::{Attachment, Notice, Target};
use crate::store::TournamentRecord;

/// Rows of standings a page shows (over its divisions).
pub const PAGE_ROWS: usize = stonemate_render::ROWS_PER_PAGE;

/// `round robin` or `Swiss`, as lists and titles write it.
pub(crate) fn format_name(format: &Format) -> &'static str {
    match format {
        Format::RoundRobin { double: false, .. } => "round robin",
        Format::RoundRobin { double: true, .. } => "double round robin",
        Format::Swiss { .. } => "Swiss",
    }
}

/// `**Autumn cup** (T1)`: the name, unable to format the message.
pub(crate) fn title(tournament: &TournamentRecord) -> Message {
    Message::new().push("**").name(&tournament.name).push(format!("** ({})", tournament.id))
}

fn shown(tournament: &TournamentRecord, player: PlayerId) -> String {
    tournament.name_of(user_of(player)).to_owned()
}

/// The standings' rows in order, each with its division, and how many pages they fill.
fn rows(standings: &Standings) -> Vec<(usize, &Row)> {
    standings
        .divisions
        .iter()
        .enumerate()
        .flat_map(|(division, rows)| rows.iter().map(move |row| (division, row)))
        .collect()
}

/// How many pages the standings of `tournament` fill (at least one).
pub(crate) fn pages(tournament: &TournamentRecord) -> u32 {
    let count = tournament.state.as_ref().map_or(tournament.entrants.len(), |state| state.players().len());
    count.div_ceil(PAGE_ROWS).max(1) as u32
}

/// The cells of one row: place, name, points, tiebreaks, games.
fn cells(tournament: &TournamentRecord, row: &Row) -> Vec<String> {
    let mut name = shown(tournament, row.player);
    if row.withdrawn {
        name.push_str(" (withdrawn)");
    }
    let mut cells = vec![row.rank.to_string(), name, row.points.to_string()];
    cells.extend(row.tiebreaks.iter().map(ToString::to_string));
    cells.push(row.direct.map_or_else(String::new, |direct| direct.to_string()));
    cells.push(row.games.to_string());
    cells
}

/// Where the tournament stands: `round 2 of 4`, `all games at once`, `finished`.
fn progress(tournament: &TournamentRecord, state: &Tournament) -> String {
    let stage = match tournament.format {
        Format::Swiss { .. } => format!("round {} of {}", state.round(), state.rounds()),
        Format::RoundRobin { .. } => {
            let played = state.games().iter().filter(|game| game.result.is_some()).count();
            format!("{played} of {} games played", state.games().len())
        }
    };
    match tournament.status {
        crate::store::TournamentStatus::Running => stage,
        status => format!("{stage}, {}", status.name()),
    }
}

/// Page `page` (from 1) of the standings: the text and the picture. `None` past the last
/// page or before the start.
pub(crate) fn standings_page(tournament: &TournamentRecord, page: u32) -> Option<(Message, Attachment)> {
    let state = tournament.state.as_ref()?;
    let standings = state.standings();
    let all = rows(&standings);
    let pages = pages(tournament);
    if page == 0 || page > pages {
        return None;
    }
    let shown_rows = all.iter().skip((page as usize - 1) * PAGE_ROWS).take(PAGE_ROWS);
    let many = standings.divisions.len() > 1;
    let mut sections: Vec<Section> = Vec::new();
    let mut text = title(tournament).push(format!(
        " — {}, {}, {}{}:",
        format_name(&tournament.format),
        tournament.kind.title(),
        progress(tournament, state),
        if pages > 1 { format!(", page {page} of {pages}") } else { String::new() }
    ));
    let tiebreaks: Vec<String> = standings.tiebreaks.iter().map(ToString::to_string).collect();
    for (division, row) in shown_rows {
        if sections.last().is_none_or(|section: &Section| section.heading != division_name(*division, many)) {
            sections.push(Section { heading: division_name(*division, many), rows: Vec::new() });
            if many {
                text = text.push(format!("\n__{}__", division_name(*division, many)));
            }
        }
        let cells = cells(tournament, row);
        let table_row = TableRow::new(cells.clone());
        if let Some(section) = sections.last_mut() {
            section.rows.push(if row.withdrawn { table_row.dimmed() } else { table_row });
        }
        let breaks: Vec<String> =
            tiebreaks.iter().zip(&row.tiebreaks).map(|(name, value)| format!("{name} {value}")).collect();
        let direct = row.direct.map_or_else(String::new, |direct| format!(", direct {direct}"));
        let withdrawn = if row.withdrawn { " (withdrawn)" } else { "" };
        text = text.push(format!("\n{}. ", row.rank)).name(shown(tournament, row.player)).push(format!(
            "{withdrawn} — {} ({}{direct}; {})",
            row.points,
            breaks.join(", "),
            crate::service::text::counted(row.games as usize, "game", "games")
        ));
    }
    let mut columns = vec![Column::number("#"), Column::name("Player"), Column::number("Pts")];
    columns.extend(standings.tiebreaks.iter().map(|tiebreak| Column::number(&tiebreak.to_string())));
    columns.extend([Column::number("Dir"), Column::number("Games")]);
    let table = Table {
        title: format!("{} · {} · {}", tournament.name, format_name(&tournament.format), tournament.kind.title()),
        note: format!("{} · page {page}/{pages}", progress(tournament, state)),
        columns,
        sections,
    };
    let picture = Attachment::file(format!("tournament-{}-standings-{page}.png", tournament.id.0), table.png());
    Some((text, picture))
}

fn division_name(division: usize, many: bool) -> String {
    if many { format!("Division {}", division + 1) } else { "Standings".to_owned() }
}

fn channel_notice(tournament: &TournamentRecord, message: Message, images: Vec<Attachment>) -> Notice {
    Notice {
        target: Target::Channel(tournament.channel),
        message,
        images,
        about: None,
        buttons: Vec::new(),
        standings: None,
        thread: None,
    }
}

/// The standings after a result: page 1, as they are when the notice is sent (on Discord
/// the standings message, edited). The outbox keeps only the tournament's id and draws
/// the standings with this when it sends them.
pub(crate) fn standings_notice(tournament: &TournamentRecord) -> Notice {
    let notice = match standings_page(tournament, 1) {
        Some((text, picture)) => channel_notice(tournament, text, vec![picture]),
        None => channel_notice(tournament, title(tournament).push(": no standings yet."), Vec::new()),
    };
    Notice { standings: Some(tournament.id), ..notice }
}

/// `alice (White) vs bob, game #12`, one line per game of `games`.
fn pairings(tournament: &TournamentRecord, state: &Tournament, round: Option<u32>) -> Message {
    let mut text = Message::new();
    for (index, game) in state.games().iter().enumerate() {
        if round.is_some_and(|round| game.round != round) {
            continue;
        }
        let id = tournament.games.get(index).map_or_else(String::new, |id| format!(" — {id}"));
        text = text
            .push("\n")
            .ping(user_of(game.pairing.white), shown(tournament, game.pairing.white))
            .push(" vs ")
            .ping(user_of(game.pairing.black), shown(tournament, game.pairing.black))
            .push(id);
    }
    text
}

/// The start: the divisions, or the first round's pairings.
pub(crate) fn start_notice(tournament: &TournamentRecord, state: &Tournament) -> Notice {
    let players = state.players().len();
    let mut text = title(tournament).push(format!(
        " has started: {} of {}, {players} players, {} days per move{}.",
        format_name(&tournament.format),
        tournament.kind.title(),
        tournament.days,
        if tournament.rated { ", rated" } else { ", unrated" }
    ));
    match tournament.format {
        Format::RoundRobin { .. } => {
            let divisions = state.players().iter().map(|player| player.division).max().map_or(1, |last| last + 1);
            for division in 0..divisions {
                let members: Vec<String> = state
                    .players()
                    .iter()
                    .filter(|player| player.division == division)
                    .map(|player| crate::service::text::name(&shown(tournament, player.id)))
                    .collect();
                text = text.push(format!("\nDivision {}: {}", division + 1, members.join(", ")));
            }
            text = text.push(format!("\nAll {} games start now.", state.games().len()));
        }
        Format::Swiss { .. } => {
            text = text.push(format!("\nRound 1 of {}:", state.rounds())).then(pairings(tournament, state, Some(1)));
            if let Some(bye) = state.byes().iter().find(|bye| bye.round == 1) {
                text = text.push("\nBye (1 point): ").name(shown(tournament, bye.player));
            }
        }
    }
    channel_notice(tournament, text, Vec::new())
}

/// A Swiss round paired.
pub(crate) fn round_notice(
    tournament: &TournamentRecord,
    state: &Tournament,
    round: u32,
    bye: Option<PlayerId>,
) -> Notice {
    let mut text = title(tournament).push(format!(": round {round} of {} is paired:", state.rounds())).then(pairings(
        tournament,
        state,
        Some(round),
    ));
    if let Some(bye) = bye {
        text = text.push("\nBye (1 point): ").name(shown(tournament, bye));
    }
    channel_notice(tournament, text, Vec::new())
}

/// The end: the final standings and each division's winner.
pub(crate) fn end_notice(tournament: &TournamentRecord, state: &Tournament, end: End) -> Notice {
    let standings = state.standings();
    let mut text = title(tournament).push(" is over");
    if let End::Stopped(error) = end {
        text = text.push(format!(" ({error})"));
    }
    text = text.push(".");
    for (division, rows) in standings.divisions.iter().enumerate() {
        let winners: Vec<&Row> = rows.iter().filter(|row| row.rank == 1).collect();
        let names: Vec<String> =
            winners.iter().map(|row| crate::service::text::name(&shown(tournament, row.player))).collect();
        let points = winners.first().map_or_else(String::new, |row| {
            let noun = if row.points == Points::ONE { "point" } else { "points" };
            format!(" with {} {noun}", row.points)
        });
        let place =
            if standings.divisions.len() > 1 { format!("Division {}: won", division + 1) } else { "Won".to_owned() };
        text = text.push(format!("\n{place} by {}{points}.", crate::service::text::joined(&names)));
    }
    let images = standings_page(tournament, 1).map(|(_, picture)| vec![picture]).unwrap_or_default();
    channel_notice(tournament, text, images)
}

/// A tournament cancelled after its start.
pub(crate) fn cancelled_notice(tournament: &TournamentRecord, by: &str) -> Notice {
    let text = title(tournament).push(" was cancelled by ").name(by).push(": its unfinished games are aborted.");
    channel_notice(tournament, text, Vec::new())
}

/// A tournament whose `starts` came with fewer than two players.
pub(crate) fn not_started_notice(tournament: &TournamentRecord) -> Notice {
    let text = title(tournament).push(format!(
        " did not start by itself: it has {} and needs 2. It waits for `/tournament start`.",
        crate::service::text::counted(tournament.entrants.len(), "player", "players")
    ));
    channel_notice(tournament, text, Vec::new())
}
