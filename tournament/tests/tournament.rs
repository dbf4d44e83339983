//! A tournament driven as the service drives it: starting, results, withdrawals, the end,
//! and what it refuses.

use stonemate_tournament::{
    Colour, End, Format, GameRef, GameResult, PlayerId, PlayerResult, Points, RecordError, Step, Tournament,
};

use crate::common::entrants;

const WHITE_WINS: GameResult = GameResult::Win { winner: Colour::White };

#[test]
fn withdrawal_forfeits_unfinished_games_and_keeps_finished_ones() {
    let mut tournament = Tournament::start(Format::RoundRobin { division: 10, double: false }, &entrants(4)).unwrap();
    let first_of_1 =
        (0..6).map(GameRef).find(|&g| tournament.game(g).unwrap().pairing.colour_of(PlayerId(1)).is_some()).unwrap();
    tournament.record(first_of_1, GameResult::Draw).unwrap();
    let withdrawal = tournament.withdraw(PlayerId(1)).unwrap();
    assert_eq!(withdrawal.forfeited.len(), 2);
    assert_eq!(withdrawal.step, Step::Waiting);
    assert_eq!(tournament.game(first_of_1).unwrap().result, Some(GameResult::Draw), "finished games stand");
    for game in withdrawal.forfeited {
        let colour = tournament.colour_in(game, PlayerId(1)).unwrap();
        assert_eq!(tournament.game(game).unwrap().result, Some(GameResult::Forfeit { winner: colour.other() }));
    }
    assert_eq!(tournament.withdraw(PlayerId(1)).unwrap_err(), RecordError::AlreadyWithdrawn(PlayerId(1)));
    assert_eq!(tournament.withdraw(PlayerId(9)).unwrap_err(), RecordError::UnknownPlayer(PlayerId(9)));
}

#[test]
fn results_are_refused_twice_or_for_unknown_games() {
    let mut tournament = Tournament::start(Format::RoundRobin { division: 10, double: false }, &entrants(3)).unwrap();
    tournament.record(GameRef(0), WHITE_WINS).unwrap();
    assert_eq!(tournament.record(GameRef(0), WHITE_WINS).unwrap_err(), RecordError::GameOver(GameRef(0)));
    assert_eq!(tournament.record(GameRef(7), WHITE_WINS).unwrap_err(), RecordError::UnknownGame(GameRef(7)));
    tournament.record(GameRef(1), WHITE_WINS).unwrap();
    assert_eq!(tournament.record(GameRef(2), WHITE_WINS).unwrap(), Step::Ended(End::Completed));
    assert_eq!(tournament.record(GameRef(2), WHITE_WINS).unwrap_err(), RecordError::TournamentOver);
}

#[test]
fn swiss_pairs_each_round_when_the_last_ends_then_completes() {
    let mut swiss = Tournament::start(Format::Swiss { rounds: Some(3) }, &entrants(6)).unwrap();
    for round in 1..=3 {
        let games: Vec<GameRef> =
            (0..swiss.games().len() as u32).map(GameRef).filter(|&g| swiss.game(g).unwrap().result.is_none()).collect();
        assert_eq!(games.len(), 3);
        assert_eq!(swiss.advance(), Step::Waiting, "nothing to pair while games are on");
        let mut last = Step::Waiting;
        for game in games {
            last = swiss.record(game, GameResult::Draw).unwrap();
        }
        if round < 3 {
            assert!(
                matches!(last, Step::Paired { round: r, ref games, bye: None } if r == round + 1 && games.len() == 3)
            );
        } else {
            assert_eq!(last, Step::Ended(End::Completed));
        }
    }
    assert_eq!(swiss.advance(), Step::Ended(End::Completed), "advancing again changes nothing");
}

#[test]
fn state_round_trips_through_serde() {
    let mut swiss = Tournament::start(Format::Swiss { rounds: None }, &entrants(5)).unwrap();
    swiss.record(GameRef(0), GameResult::TimeOut { winner: Colour::Black }).unwrap();
    swiss.withdraw(PlayerId(5)).unwrap();
    let text = serde_json::to_string(&swiss).unwrap();
    let back: Tournament = serde_json::from_str(&text).unwrap();
    assert_eq!(back, swiss);
}

#[test]
fn results_of_lists_games_and_byes_by_round() {
    let mut swiss = Tournament::start(Format::Swiss { rounds: Some(2) }, &entrants(3)).unwrap();
    // Round 1: 1 against 2, 3 has the bye.
    swiss.record(GameRef(0), GameResult::TimeOut { winner: Colour::Black }).unwrap();
    let third = swiss.results_of(PlayerId(3));
    assert_eq!(third[0].result, Some(PlayerResult::Bye));
    assert_eq!((third[1].round, third[1].result), (2, None), "round 2 is being played");
    let first = swiss.results_of(PlayerId(1));
    let loser =
        if first[0].opponent.unwrap().1 == Colour::White { PlayerResult::TimeLoss } else { PlayerResult::TimeWin };
    assert_eq!(first[0].result, Some(loser));
    let points: Points = swiss.results_of(PlayerId(2)).iter().filter_map(|r| r.result).map(PlayerResult::points).sum();
    let row = swiss.standings().divisions[0].iter().find(|r| r.player == PlayerId(2)).unwrap().points;
    assert_eq!(points, row);
}
