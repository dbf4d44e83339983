//! The command handlers, grouped by feature: each is a function of the caller, its typed
//! arguments and the [`Parts`] it works with. [`dispatch`] and [`press`] route what comes
//! in to them.

pub(crate) mod challenge;
pub(crate) mod community;
pub(crate) mod complete;
pub(crate) mod due;
pub(crate) mod endings;
pub(crate) mod history;
pub(crate) mod seat;
pub(crate) mod turns;
pub(crate) mod vacation;
pub(crate) mod views;

use challenge::Terms;

use crate::service::error::Refusal;
use crate::service::types::{Caller, Command, GameId, Level, Response};
use crate::service::{Parts, help, text};

/// Runs one typed command.
pub(crate) fn dispatch(parts: &Parts, caller: &Caller, command: Command) -> Result<Response, Refusal> {
    match command {
        Command::Challenge { opponent, game, color, days, options, level } => {
            let options = Terms::options(options.as_deref())?;
            let terms = Terms { opponent: Some(&opponent), kind: game, color, days, options, level };
            challenge::challenge(parts, caller, terms)
        }
        Command::OpenChallenge { game, color, days, options } => {
            let options = Terms::options(options.as_deref())?;
            let level = Level::Medium;
            challenge::challenge(parts, caller, Terms { opponent: None, kind: game, color, days, options, level })
        }
        Command::Accept { challenge } => challenge::accept(parts, caller, challenge),
        Command::Decline { challenge } => challenge::decline(parts, caller, challenge),
        Command::Withdraw { challenge } => challenge::withdraw(parts, caller, challenge),
        Command::Move { notation, game } => turns::turn(parts, caller, game, &notation),
        Command::Drop { piece, square, game } => turns::drop(parts, caller, game, &piece, &square),
        Command::Pass { game } => turns::turn(parts, caller, game, "pass"),
        Command::Resign { game } => endings::ask_resign(parts, caller, game),
        Command::Draw { game } => endings::draw(parts, caller, game),
        Command::Abort { game } => endings::abort(parts, caller, game),
        Command::Claim { game } => endings::claim(parts, caller, game),
        Command::ExtraTime { game, days } => endings::extra_time(parts, caller, game, days),
        Command::Board { game } => views::show_board(parts, caller, game),
        Command::History { game } => history::history(parts, caller, game),
        Command::Games { user } => views::games(parts, caller, user.as_ref()),
        Command::Finished { user, page } => views::finished_games(parts, caller, user.as_ref(), page),
        Command::Vacation { days } => vacation::vacation(parts, caller, days),
        Command::Legal { game, square } => views::legal(parts, caller, game, square.as_deref()),
        Command::Rules { game } => views::rules(game),
        Command::Notify { mode } => views::set_notify(parts, caller, mode),
        Command::AdminAbort { game } => endings::admin_abort(parts, caller, game),
        Command::Help => Ok(help::help()),
        Command::Stats { user, game } => community::stats(parts, caller, user.as_ref(), game),
        Command::Leaderboard { game } => community::leaderboard(parts, caller, game),
    }
}

/// Runs one button press (see [`Service::press`](crate::service::Service::press)).
pub(crate) fn press(parts: &Parts, caller: &Caller, custom_id: &str) -> Result<Response, Refusal> {
    let bad = || Refusal::UnknownButton(text::typed(&custom_id.chars().take(100).collect::<String>()));
    let (action, id) = custom_id.split_once(':').ok_or_else(bad)?;
    if let Some(step) = custom_id.strip_prefix(history::PREFIX) {
        let (id, turn) = history::parse(step).ok_or_else(bad)?;
        return history::step_history(parts, caller, id, turn);
    }
    let id = GameId(id.parse::<u32>().map_err(|_| bad())?);
    // Every action below looks the id up in the caller's server only.
    match action {
        "accept" => challenge::accept(parts, caller, Some(id)),
        "decline" => challenge::decline(parts, caller, Some(id)),
        "resign" => endings::resign(parts, caller, id),
        "draw-accept" => endings::answer_draw(parts, caller, id, true),
        "draw-decline" => endings::answer_draw(parts, caller, id, false),
        "rematch" => community::rematch(parts, caller, id),
        _ => Err(bad()),
    }
}
