//! `/help`: every command in one line, from the one list of them, and where each game's
//! rules are.

use stonemate_engine::GameKind;

use super::types::{Reply, Response};

/// Every command users type, with what it does: the list `/help` prints, in the order of
/// `commands.md`. The Discord adapter registers exactly these (a test holds them equal).
pub const COMMANDS: [(&str, &str); 20] = [
    ("challenge", "challenge someone: `opponent`, `game`, and optionally `color`, `days` per move, `options`"),
    ("accept", "accept a challenge: the game starts"),
    ("decline", "decline a challenge"),
    ("withdraw", "take back a challenge you sent"),
    ("move", "play a turn in the game's notation: a move, drop, pass, tandem or mole drop"),
    ("drop", "drop a piece from your hand: `piece` and `square`"),
    ("pass", "pass your turn"),
    ("resign", "resign (asks you to confirm)"),
    ("draw", "offer a draw, or accept the one offered"),
    ("abort", "end a game without result before any turn is played"),
    ("claim", "win a game whose opponent has run out of time"),
    ("extratime", "give your opponent more `days` for this turn"),
    ("board", "show a game's board"),
    ("history", "the turns so far, the result, the record file and a replay"),
    ("games", "the active games and challenges of a user (you by default)"),
    ("legal", "the legal turns (from a `square`), marked on the board"),
    ("rules", "a summary of a game's rules and notation"),
    ("notify", "how you are told that it is your turn: channel, dm or off"),
    ("admin-abort", "end any game without result (Manage Server permission)"),
    ("help", "this list"),
];

/// The text of `/help`.
#[must_use]
pub fn text() -> String {
    let mut lines = vec!["**Stonemate's commands**".to_owned()];
    lines.extend(COMMANDS.iter().map(|(name, what)| format!("`/{name}` — {what}")));
    let games: Vec<&str> = GameKind::ALL.iter().map(|kind| kind.name()).collect();
    lines.push(format!("Each game's rules: `/rules game:NAME`, where NAME is {}.", games.join(", ")));
    lines.join("\n")
}

/// `/help`, for anyone, privately.
#[must_use]
pub fn help() -> Response {
    Response { reply: Reply { ok: true, private: true, text: text(), ..Reply::default() }, notices: Vec::new() }
}
