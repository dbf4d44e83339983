//! A tournament moving on: its start (the state and all first games in one write), the
//! results of its games read back into it, the next Swiss round paired and its games
//! made in the same write, withdrawals, and the periodic step that starts tournaments
//! whose `starts` came and pairs the rounds that became due while the bot was down.
//!
//! The tournament is brought up to date from its games' records ([`catch_up`]), never
//! from a message: whatever wrote a result, the next write of the tournament sees it, so
//! a result lost between the game's write and the tournament's (a crash) is recorded at
//! the next start-up.

use stonemate_engine::{AnyGame, EndReason, Outcome};
use stonemate_tournament::{Colour, GameRef, GameResult, PlayerId, Step, Tournament};

use super::news;
use super::terms::user_of;
use crate::clock::Timestamp;
use crate::ids::{GameId, TournamentId};
use crate::service::error::Failure;
use crate::service::notices;
use crate::service::parts::{Parts, retry};
use crate::service::types::Notice;
use crate::store::tournaments::{Change, StoredTournament};
use crate::store::{
    ColorChoice, Finish, GameRecord, Origin, Pending, Phase, Seat, Seats, Stored, TournamentRecord, TournamentStatus,
    TournamentTag,
};

/// The result a finished game's record gives its tournament game (White the tournament's
/// first mover); `None` while it is being played. A game called off (by an administrator)
/// counts as a draw: nobody chose to lose it.
pub(crate) fn result_of(record: &GameRecord, white: PlayerId) -> Option<GameResult> {
    let finish = record.result.as_ref().filter(|_| record.phase == Phase::Finished)?;
    let Outcome::Winner(side) = finish.ending.outcome else { return Some(GameResult::Draw) };
    if finish.aborted() {
        return Some(GameResult::Draw);
    }
    let winner = if record.seats.player(side) == Some(user_of(white)) { Colour::White } else { Colour::Black };
    Some(match finish.ending.reason {
        EndReason::Timeout => GameResult::TimeOut { winner },
        EndReason::Forfeit => GameResult::Forfeit { winner },
        _ => GameResult::Win { winner },
    })
}

/// The record of tournament game `game`, as a start or a round makes it: the
/// tournament's White challenges and moves first, its clock running.
fn game_record(parts: &Parts, tournament: &TournamentRecord, state: &Tournament, game: GameRef) -> Option<GameRecord> {
    let played = state.game(game)?;
    let now = parts.clocks.now();
    let first = AnyGame::new(tournament.kind, &tournament.options).ok()?.to_move()?;
    let seat = |player: PlayerId| Seat::new(user_of(player), tournament.name_of(user_of(player)).to_owned());
    let mut seats = Seats::new(seat(played.pairing.white), seat(played.pairing.black), ColorChoice::White);
    seats.fix_sides(first);
    let mut record = GameRecord {
        id: GameId(0),
        version: 0,
        kind: tournament.kind,
        options: tournament.options.clone(),
        days: tournament.days,
        seats,
        origin: Origin {
            channel: tournament.channel,
            guild: Some(tournament.guild),
            created: now,
            expires: now,
            rematch_of: None,
            tournament: Some(TournamentTag { id: tournament.id, round: played.round }),
            thread: None,
        },
        phase: Phase::Playing,
        turns: Vec::new(),
        clock: None,
        pending: Pending::default(),
        result: None,
    };
    record.clock = parts.clocks.turn_clock(&record, &parts.users.of(&record));
    Some(record)
}

/// The records of `games` of `state`.
fn records(
    parts: &Parts,
    tournament: &TournamentRecord,
    state: &Tournament,
    games: &[GameRef],
) -> Vec<(GameRef, GameRecord)> {
    games.iter().filter_map(|&game| Some((game, game_record(parts, tournament, state, game)?))).collect()
}

/// Records in `state` the result of every game of `tournament` that has ended since it
/// was last written; returns whether any was, and the step the last one led to.
fn catch_up(parts: &Parts, tournament: &TournamentRecord, state: &mut Tournament) -> Result<(bool, Step), Failure> {
    let mut any = false;
    let mut step = Step::Waiting;
    let open: Vec<(usize, PlayerId)> = state
        .games()
        .iter()
        .enumerate()
        .filter(|(_, game)| game.result.is_none())
        .map(|(index, game)| (index, game.pairing.white))
        .collect();
    for (index, white) in open {
        let Some(id) = tournament.games.get(index) else { continue };
        let read = parts.games.load(*id)?;
        if let Some(result) = result_of(&read.record, white)
            && let Ok(next) = state.record(GameRef(index as u32), result)
        {
            any = true;
            step = next;
        }
    }
    Ok((any, step))
}

/// What the channel is told with a write, made once the write gave the new games their
/// ids (so that the pairings name them).
enum News {
    Started,
    /// A step of the tournament: after results (`results`), a new round or its end.
    Moved {
        step: Step,
        results: bool,
    },
    Cancelled(String),
    NotStarted,
}

fn notices_of(written: &TournamentRecord, news: &News) -> Vec<Notice> {
    let Some(state) = written.state.as_ref() else {
        return match news {
            News::NotStarted => vec![news::not_started_notice(written)],
            _ => Vec::new(),
        };
    };
    match news {
        News::Started => vec![news::start_notice(written, state)],
        News::Cancelled(by) => vec![news::cancelled_notice(written, by)],
        News::NotStarted => Vec::new(),
        News::Moved { step, results } => {
            let mut notices = Vec::new();
            if *results {
                notices.push(news::standings_notice(written));
            }
            match step {
                Step::Paired { round, bye, .. } => notices.push(news::round_notice(written, state, *round, *bye)),
                Step::Ended(end) => notices.push(news::end_notice(written, state, *end)),
                Step::Waiting => {}
            }
            notices
        }
    }
}

/// The tournament after `step` of `state`, and the new round's games.
fn moved(
    parts: &Parts,
    from: &TournamentRecord,
    state: Tournament,
    step: &Step,
) -> (TournamentRecord, Vec<(GameRef, GameRecord)>) {
    let mut to = TournamentRecord { state: Some(state.clone()), ..from.clone() };
    if let Step::Ended(_) = step {
        to.status = TournamentStatus::Finished;
    }
    let new_games = match step {
        Step::Paired { games, .. } => records(parts, &to, &state, games),
        _ => Vec::new(),
    };
    (to, new_games)
}

/// Writes `to` over `from` (read as `stored`), with its new games, the `changed` games and
/// the news.
fn write(
    parts: &Parts,
    (from, stored): (&TournamentRecord, &StoredTournament),
    (to, new_games): (TournamentRecord, Vec<(GameRef, GameRecord)>),
    changed: Vec<(&GameRecord, &Stored, GameRecord)>,
    news: &News,
) -> Result<TournamentRecord, Failure> {
    let now = parts.clocks.now();
    let notices = |written: &TournamentRecord| notices::queued_in(now, from.channel, &notices_of(written, news));
    let (written, games) =
        parts.tournaments.write(Change { from: (from, stored), to, new_games, changed, notices: &notices })?;
    // The tournament is written: a thread not asked for leaves its game in the channel.
    if let Err(error) = parts.games.open_threads(&games) {
        tracing::error!(?error, tournament = %written.id, "cannot ask for the threads of a tournament's games");
    }
    Ok(written)
}

/// Starts `tournament` (open, read as `stored`): seeds its entrants by their ratings in
/// its game on this server, makes the state, and writes it with every first game.
pub(crate) fn start(
    parts: &Parts,
    (tournament, stored): (&TournamentRecord, &StoredTournament),
) -> Result<TournamentRecord, Failure> {
    let rating = |user| {
        let record = parts.ratings.rating(tournament.guild, tournament.kind, user).ok().flatten()?;
        (record.games > 0).then(|| record.rating.round() as i32)
    };
    let entrants = tournament.entrants_rated(rating);
    let state = Tournament::start(tournament.format, &entrants)
        .map_err(|_| super::refusal::TournamentRefusal::TooFew { id: tournament.id, players: entrants.len() })?;
    let games: Vec<GameRef> = (0..state.games().len() as u32).map(GameRef).collect();
    let mut to =
        TournamentRecord { status: TournamentStatus::Running, state: Some(state.clone()), ..tournament.clone() };
    to.starts_at = None;
    let new_games = records(parts, &to, &state, &games);
    write(parts, (tournament, stored), (to, new_games), Vec::new(), &News::Started)
}

/// Brings running tournament `id` up to date with its games: records the results, and
/// pairs the next Swiss round or ends it. Run again when it lost a race: of two
/// processes, one writes and the other finds nothing left to do.
pub(crate) fn sync(parts: &Parts, id: TournamentId) -> Result<(), Failure> {
    retry(|| {
        let Some((tournament, stored)) = parts.tournaments.read(id)? else { return Ok(()) };
        let Some(mut state) = tournament.state.clone().filter(|_| tournament.status == TournamentStatus::Running)
        else {
            return Ok(());
        };
        let (results, step) = catch_up(parts, &tournament, &mut state)?;
        // Harmless when nothing is due; pairs a round whose last result was recorded by a
        // write that stopped before the pairing.
        let step = if matches!(step, Step::Waiting) { state.advance() } else { step };
        if tournament.state.as_ref() == Some(&state) && !matches!(step, Step::Ended(_)) {
            return Ok(());
        }
        let moved = moved(parts, &tournament, state, &step);
        write(parts, (&tournament, &stored), moved, Vec::new(), &News::Moved { step, results }).map(drop)
    })
}

/// Withdraws `player` from running `tournament`: his unfinished games end as lost by
/// forfeit (unrated) in the same write as the tournament's next step.
pub(crate) fn withdraw(
    parts: &Parts,
    (tournament, stored): (&TournamentRecord, &StoredTournament),
    player: PlayerId,
) -> Result<TournamentRecord, Failure> {
    let mut state = tournament.state.clone().ok_or(super::refusal::TournamentRefusal::NotIn(tournament.id))?;
    // Results not yet recorded stand: only games still unfinished are forfeited.
    catch_up(parts, tournament, &mut state)?;
    let withdrawal = state.withdraw(player).map_err(|_| super::refusal::TournamentRefusal::NotIn(tournament.id))?;
    let now = parts.clocks.now();
    let mut reads = Vec::new();
    for game in &withdrawal.forfeited {
        let Some(id) = tournament.game_id(*game) else { continue };
        reads.push(parts.games.load(id)?);
    }
    let ended: Vec<GameRecord> = reads.iter().map(|read| forfeited(&read.record, player, now)).collect();
    let changed = reads.iter().zip(ended).map(|(read, next)| (&read.record, &read.stored, next)).collect();
    let moved = moved(parts, tournament, state, &withdrawal.step);
    write(parts, (tournament, stored), moved, changed, &News::Moved { step: withdrawal.step, results: true })
}

/// `record` lost by `player`'s withdrawal: his opponent wins (`W+F`/`B+F`), unrated.
fn forfeited(record: &GameRecord, player: PlayerId, now: Timestamp) -> GameRecord {
    let mut next = record.clone();
    next.version += 1;
    let winner = record.seats.side_of(user_of(player)).map(stonemate_engine::Color::other);
    let outcome = winner.map_or(Outcome::Draw, Outcome::Winner);
    next.finish(Finish::new(stonemate_engine::Ending { outcome, reason: EndReason::Forfeit }).at(now));
    next
}

/// Ends running `tournament` as cancelled: its unfinished games are aborted (no result,
/// unrated), in one write.
pub(crate) fn cancel(
    parts: &Parts,
    (tournament, stored): (&TournamentRecord, &StoredTournament),
    by: &str,
) -> Result<TournamentRecord, Failure> {
    let mut reads = Vec::new();
    for id in &tournament.games {
        let read = parts.games.load(*id)?;
        if read.record.phase == Phase::Playing {
            reads.push(read);
        }
    }
    let now = parts.clocks.now();
    let ended: Vec<GameRecord> = reads
        .iter()
        .map(|read| {
            let mut next = read.record.clone();
            next.version += 1;
            next.finish(Finish::called_off(crate::store::CalledOff::Admin(by.to_owned())).at(now));
            next
        })
        .collect();
    let changed = reads.iter().zip(ended).map(|(read, next)| (&read.record, &read.stored, next)).collect();
    let to = TournamentRecord { status: TournamentStatus::Cancelled, ..tournament.clone() };
    write(parts, (tournament, stored), (to, Vec::new()), changed, &News::Cancelled(by.to_owned()))
}

/// The periodic step (and the first one, at start-up): starts the open tournaments whose
/// `starts` has come (with two players or more; else they wait for `start`), and brings
/// every running one up to date (a round due while the bot was down is paired now).
pub(crate) fn due(parts: &Parts) {
    let now = parts.clocks.now();
    let step = || -> Result<(), Failure> {
        for id in parts.tournaments.starting(now)? {
            let started = retry(|| {
                let Some((tournament, stored)) = parts.tournaments.read(id)? else { return Ok(()) };
                if tournament.status != TournamentStatus::Open || tournament.starts_at.is_none_or(|at| at > now) {
                    return Ok(());
                }
                if tournament.entrants.len() < 2 {
                    // It waits for `/tournament start`: no longer by itself.
                    let to = TournamentRecord { starts_at: None, ..tournament.clone() };
                    return write(parts, (&tournament, &stored), (to, Vec::new()), Vec::new(), &News::NotStarted)
                        .map(drop);
                }
                start(parts, (&tournament, &stored)).map(drop)
            });
            if let Err(error) = started {
                tracing::warn!(tournament = id.0, %error, "cannot start a tournament by itself");
            }
        }
        for id in parts.tournaments.running()? {
            if let Err(error) = sync(parts, id) {
                tracing::warn!(tournament = id.0, %error, "cannot bring a tournament up to date");
            }
        }
        Ok(())
    };
    if let Err(error) = step() {
        tracing::warn!(%error, "cannot read the tournaments");
    }
}

/// The hook of every game write ([`Parts::commit`]): a tournament game that has just ended
/// is recorded into its tournament, and the next Swiss round paired. A failure is logged:
/// the periodic step records it later, from the game's record.
pub(crate) fn game_ended(parts: &Parts, record: &GameRecord) {
    let Some(tag) = record.origin.tournament.filter(|_| record.phase == Phase::Finished) else { return };
    if let Err(error) = sync(parts, tag.id) {
        tracing::warn!(tournament = tag.id.0, game = record.id.0, %error, "cannot record a tournament result");
    }
}
