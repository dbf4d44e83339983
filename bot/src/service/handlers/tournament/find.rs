//! The tournament a subcommand is about: the one named (of this server: another server's
//! is unknown, like a game), or, when none is named, the only one of this server that
//! fits the subcommand (or a refusal that lists them).

use super::refusal::TournamentRefusal;
use crate::ids::{GuildId, TournamentId};
use crate::service::error::Failure;
use crate::service::parts::Parts;
use crate::service::types::Caller;
use crate::store::tournaments::StoredTournament;
use crate::store::{TournamentRecord, TournamentStatus};

/// Which tournaments a subcommand without `tournament:` picks from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fits {
    /// Open ones (`join`, `start`).
    Open,
    /// Open or running ones the caller is in (`leave`).
    Mine,
    /// Running ones (`standings`); finished ones when none runs.
    Running,
    /// Open or running ones (`cancel`).
    Current,
}

impl Fits {
    fn word(self) -> &'static str {
        match self {
            Fits::Open => "open",
            Fits::Mine => "open or running",
            Fits::Running => "running",
            Fits::Current => "open or running",
        }
    }

    fn accepts(self, record: &TournamentRecord, caller: &Caller) -> bool {
        let current = matches!(record.status, TournamentStatus::Open | TournamentStatus::Running);
        match self {
            Fits::Open => record.status == TournamentStatus::Open,
            Fits::Mine => current && record.has_entrant(caller.user.id),
            Fits::Running => record.status == TournamentStatus::Running,
            Fits::Current => current,
        }
    }
}

/// The caller's server, or the refusal of a tournament command outside one.
pub(crate) fn server(caller: &Caller) -> Result<GuildId, TournamentRefusal> {
    caller.guild.ok_or(TournamentRefusal::ServerOnly)
}

/// The tournament `id` of the caller's server, with the bytes it was read from.
pub(crate) fn named(
    parts: &Parts,
    caller: &Caller,
    id: TournamentId,
) -> Result<(TournamentRecord, StoredTournament), Failure> {
    let guild = server(caller)?;
    let found = parts.tournaments.read(id)?.filter(|(record, _)| record.guild == guild);
    Ok(found.ok_or(TournamentRefusal::NoSuch(id))?)
}

/// The tournament named, or the only one of this server that `fits`.
pub(crate) fn pick(
    parts: &Parts,
    caller: &Caller,
    id: Option<TournamentId>,
    fits: Fits,
) -> Result<(TournamentRecord, StoredTournament), Failure> {
    if let Some(id) = id {
        return named(parts, caller, id);
    }
    let guild = server(caller)?;
    let mut fitting = Vec::new();
    let mut finished = Vec::new();
    for (id, status) in parts.tournaments.in_server(guild)? {
        let wanted = match fits {
            Fits::Running => true,
            _ => matches!(status, TournamentStatus::Open | TournamentStatus::Running),
        };
        if !wanted {
            continue;
        }
        let Some(read) = parts.tournaments.read(id)? else { continue };
        if fits.accepts(&read.0, caller) {
            fitting.push(read);
        } else if fits == Fits::Running && read.0.status == TournamentStatus::Finished {
            finished.push(read);
        }
    }
    if fitting.is_empty() && fits == Fits::Running {
        // The standings of the last tournament that finished, when none runs.
        fitting.extend(finished.pop());
    }
    match fitting.len() {
        0 => Err(TournamentRefusal::NoneFits(fits.word()).into()),
        1 => Ok(fitting.remove(0)),
        _ => {
            let list: Vec<String> = fitting
                .iter()
                .take(10)
                .map(|(record, _)| format!("{} ({})", record.id, crate::service::text::name(&record.name)))
                .collect();
            Err(TournamentRefusal::WhichOne(list.join(", ")).into())
        }
    }
}
