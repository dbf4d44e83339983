//! Helpers the test modules share: fields of entrants, random results, and a driver that
//! plays a tournament to its end with random results and withdrawals.

use rand::Rng;
use rand::rngs::StdRng;
use stonemate_tournament::{Colour, Entrant, GameRef, GameResult, PlayerId, Step, Tournament};

/// `n` rated entrants, `P1` the strongest: seeding order is id order.
pub fn entrants(n: usize) -> Vec<Entrant> {
    (1..=n as u64).map(|id| Entrant { id: PlayerId(id), rating: Some(2000 - id as i32) }).collect()
}

/// A random result: wins, draws and time-outs for either side.
pub fn random_result(rng: &mut StdRng) -> GameResult {
    let winner = if rng.gen_bool(0.5) { Colour::White } else { Colour::Black };
    match rng.gen_range(0..10) {
        0..=5 => GameResult::Win { winner },
        6..=8 => GameResult::Draw,
        _ => GameResult::TimeOut { winner },
    }
}

/// Plays `tournament` to its end: before each result, with chance `withdrawals`, a random
/// player still in withdraws. `seen` is shown every step (and the tournament after it).
pub fn play_out(
    tournament: &mut Tournament,
    rng: &mut StdRng,
    withdrawals: f64,
    mut seen: impl FnMut(&Tournament, &Step),
) {
    seen(tournament, &Step::Waiting);
    while tournament.end().is_none() {
        if rng.gen_bool(withdrawals) {
            let active: Vec<PlayerId> = tournament.players().iter().filter(|p| !p.withdrawn).map(|p| p.id).collect();
            let leaving = active[rng.gen_range(0..active.len())];
            let withdrawal = tournament.withdraw(leaving).expect("an active player withdraws");
            seen(tournament, &withdrawal.step);
            continue;
        }
        let open: Vec<usize> =
            (0..tournament.games().len()).filter(|&index| tournament.games()[index].result.is_none()).collect();
        let game = GameRef(open[rng.gen_range(0..open.len())] as u32);
        let step = tournament.record(game, random_result(rng)).expect("an open game takes its result");
        seen(tournament, &step);
    }
}
