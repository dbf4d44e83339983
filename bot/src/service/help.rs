//! `/help`: every command in one line, from the one list of them ([`COMMANDS`]), and where
//! each game's rules are.

use stonemate_engine::GameKind;

use super::commands::COMMANDS;
use super::types::{Reply, Response};

/// The text of `/help`.
#[must_use]
pub fn text() -> String {
    let mut lines = vec!["**Stonemate's commands**".to_owned()];
    lines.extend(COMMANDS.iter().map(|spec| format!("`/{}` — {}", spec.name, spec.help)));
    let games: Vec<&str> = GameKind::ALL.iter().map(|kind| kind.name()).collect();
    lines.push(format!("Each game's rules: `/rules game:NAME`, where NAME is {}.", games.join(", ")));
    lines.push(format!("{}.", super::ratings::EXPLAINED));
    lines.join("\n")
}

/// `/help`, for anyone, privately.
#[must_use]
pub fn help() -> Response {
    Response { reply: Reply { ok: true, private: true, text: text(), ..Reply::default() }, notices: Vec::new() }
}
