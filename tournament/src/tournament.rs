//! A tournament from its start to its end, as the service drives it: start it from its
//! entrants, report each result or withdrawal, and write what the answer says (the new
//! games, the bye, the end) in the same batch as the result.

use serde::{Deserialize, Serialize};

use crate::error::{PairingError, RecordError, StartError};
use crate::field::{Entrant, Player, seed};
use crate::format::{Format, default_rounds};
use crate::game::{Bye, Game};
use crate::ids::{Colour, GameRef, PlayerId};
use crate::result::{GameResult, PlayerResult};
use crate::round_robin;
use crate::standings::{Standings, standings};
use crate::swiss;

/// How a tournament ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum End {
    /// Every game was played (every round, in a Swiss).
    Completed,
    /// A Swiss round could not be paired, so it ended before its last round.
    Stopped(PairingError),
}

/// What a result (or a withdrawal, or [`Tournament::advance`]) leads to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Nothing new: games are still being played.
    Waiting,
    /// A new Swiss round: these games start now, and this player (if any) has a bye.
    Paired {
        /// The round.
        round: u32,
        /// Its games, board 1 first.
        games: Vec<GameRef>,
        /// The player with the bye.
        bye: Option<PlayerId>,
    },
    /// The tournament has ended.
    Ended(End),
}

/// What a withdrawal did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Withdrawal {
    /// His unfinished games, now lost by forfeit (the service ends them).
    pub forfeited: Vec<GameRef>,
    /// What that leads to.
    pub step: Step,
}

/// One round of one player, for crosstables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundResult {
    /// The round.
    pub round: u32,
    /// The game, or `None` for a bye.
    pub game: Option<GameRef>,
    /// The opponent and the player's colour, or `None` for a bye.
    pub opponent: Option<(PlayerId, Colour)>,
    /// The result, once there is one (a bye has one at once).
    pub result: Option<PlayerResult>,
}

/// A started tournament: its format, seeded players, games and byes. The store may keep
/// it whole (it is serde data) and restore it as it was written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tournament {
    format: Format,
    /// The rounds of a Swiss, fixed at the start; 0 for a round robin.
    rounds: u32,
    players: Vec<Player>,
    games: Vec<Game>,
    byes: Vec<Bye>,
    end: Option<End>,
}

impl Tournament {
    /// Starts a tournament of `entrants` (in joining order): a round robin deals them into
    /// divisions and schedules every game; a Swiss pairs round 1. Read the first games
    /// with [`Tournament::games`] and the bye with [`Tournament::byes`].
    pub fn start(format: Format, entrants: &[Entrant]) -> Result<Tournament, StartError> {
        let seeded = seed(entrants, 2)?;
        let ids: Vec<PlayerId> = seeded.iter().map(|entrant| entrant.id).collect();
        let player = |entrant: &Entrant, division: u32| Player {
            id: entrant.id,
            rating: entrant.rating,
            division,
            withdrawn: false,
        };
        match format {
            Format::RoundRobin { division, double } => {
                if division < 3 {
                    return Err(StartError::DivisionTooSmall { division });
                }
                let mut players = Vec::with_capacity(seeded.len());
                let mut games = Vec::new();
                let mut rest = seeded.as_slice();
                for (number, members) in round_robin::deal(&ids, division as usize).iter().enumerate() {
                    let number = number as u32;
                    // Divisions are runs of the seeding, so their entrants are the next ones.
                    let (these, after) = rest.split_at(members.len());
                    rest = after;
                    players.extend(these.iter().map(|entrant| player(entrant, number)));
                    games.extend(round_robin::schedule(members, double).into_iter().map(|scheduled| Game {
                        round: scheduled.round,
                        division: number,
                        pairing: scheduled.pairing,
                        result: None,
                    }));
                }
                Ok(Tournament { format, rounds: 0, players, games, byes: Vec::new(), end: None })
            }
            Format::Swiss { rounds } => {
                let rounds = rounds.unwrap_or_else(|| default_rounds(seeded.len()));
                if rounds == 0 {
                    return Err(StartError::NoRounds);
                }
                let players = seeded.iter().map(|entrant| player(entrant, 0)).collect();
                let mut tournament =
                    Tournament { format, rounds, players, games: Vec::new(), byes: Vec::new(), end: None };
                // Two or more fresh players always pair.
                tournament.advance();
                Ok(tournament)
            }
        }
    }

    /// The format, as created.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The number of rounds of a Swiss (fixed at the start); 0 for a round robin.
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// The players, in seeding order (divisions in order in a round robin).
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// Every game so far, in the order they were made; [`GameRef`] indexes it.
    pub fn games(&self) -> &[Game] {
        &self.games
    }

    /// The game `game`, if it is one of this tournament's.
    pub fn game(&self, game: GameRef) -> Option<&Game> {
        self.games.get(game.index())
    }

    /// Every bye so far.
    pub fn byes(&self) -> &[Bye] {
        &self.byes
    }

    /// How it ended, once it has.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// The latest round paired (a Swiss), or the last round of the schedule.
    pub fn round(&self) -> u32 {
        self.games.iter().map(|game| game.round).chain(self.byes.iter().map(|bye| bye.round)).max().unwrap_or(0)
    }

    /// The standings as they are now.
    pub fn standings(&self) -> Standings {
        standings(&self.format, &self.players, &self.games, &self.byes)
    }

    /// Records the result of `game`, then moves on (see [`Tournament::advance`]).
    pub fn record(&mut self, game: GameRef, result: GameResult) -> Result<Step, RecordError> {
        if self.end.is_some() {
            return Err(RecordError::TournamentOver);
        }
        let entry = self.games.get_mut(game.index()).ok_or(RecordError::UnknownGame(game))?;
        if entry.result.is_some() {
            return Err(RecordError::GameOver(game));
        }
        entry.result = Some(result);
        Ok(self.advance())
    }

    /// Withdraws `player`: each of his unfinished games is lost by forfeit, he is paired no
    /// more, and his finished games stand. Then moves on.
    pub fn withdraw(&mut self, player: PlayerId) -> Result<Withdrawal, RecordError> {
        if self.end.is_some() {
            return Err(RecordError::TournamentOver);
        }
        let entry = self.players.iter_mut().find(|p| p.id == player).ok_or(RecordError::UnknownPlayer(player))?;
        if entry.withdrawn {
            return Err(RecordError::AlreadyWithdrawn(player));
        }
        entry.withdrawn = true;
        let mut forfeited = Vec::new();
        for (index, game) in self.games.iter_mut().enumerate() {
            let Some(colour) = game.pairing.colour_of(player) else { continue };
            if game.result.is_none() {
                game.result = Some(GameResult::Forfeit { winner: colour.other() });
                forfeited.push(GameRef(index as u32));
            }
        }
        Ok(Withdrawal { forfeited, step: self.advance() })
    }

    /// Moves on when every game has ended: a Swiss pairs its next round (or ends after its
    /// last, or when the round cannot be paired); a round robin ends. Does nothing while a
    /// game is unfinished, so calling it again (after a restart) is harmless.
    pub fn advance(&mut self) -> Step {
        if let Some(end) = self.end {
            return Step::Ended(end);
        }
        if self.games.iter().any(|game| game.result.is_none()) {
            return Step::Waiting;
        }
        let next = self.round() + 1;
        if matches!(self.format, Format::RoundRobin { .. }) || next > self.rounds {
            return self.finish(End::Completed);
        }
        match swiss::pair(&self.players, &self.games, &self.byes, next) {
            Err(error) => self.finish(End::Stopped(error)),
            Ok(paired) => {
                let first = self.games.len() as u32;
                self.games.extend(paired.pairings.iter().map(|&pairing| Game {
                    round: next,
                    division: 0,
                    pairing,
                    result: None,
                }));
                if let Some(player) = paired.bye {
                    self.byes.push(Bye { round: next, player });
                }
                let games = (first..self.games.len() as u32).map(GameRef).collect();
                Step::Paired { round: next, games, bye: paired.bye }
            }
        }
    }

    /// The colour `player` has in `game`, if he plays in it.
    pub fn colour_in(&self, game: GameRef, player: PlayerId) -> Option<Colour> {
        self.game(game)?.pairing.colour_of(player)
    }

    /// The rounds of `player`, games and byes, in round order (a round robin's games in
    /// the order of its schedule).
    pub fn results_of(&self, player: PlayerId) -> Vec<RoundResult> {
        let games = self.games.iter().enumerate().filter_map(|(index, game)| {
            let colour = game.pairing.colour_of(player)?;
            Some(RoundResult {
                round: game.round,
                game: Some(GameRef(index as u32)),
                opponent: Some((game.pairing.player(colour.other()), colour)),
                result: game.result.map(|result| result.for_colour(colour)),
            })
        });
        let byes = self.byes.iter().filter(|bye| bye.player == player).map(|bye| RoundResult {
            round: bye.round,
            game: None,
            opponent: None,
            result: Some(PlayerResult::Bye),
        });
        let mut rounds: Vec<RoundResult> = games.chain(byes).collect();
        rounds.sort_by_key(|round| round.round);
        rounds
    }

    fn finish(&mut self, end: End) -> Step {
        self.end = Some(end);
        Step::Ended(end)
    }
}
