//! The turn picker: `/play` (or the Play button) opens a private message of select menus
//! (buttons, for a step of few choices) that narrow the legal turns step by step (the
//! engine's [`Picker`]: no per-game code here), with Back at every step; the last step
//! previews the turn on the board and in words, with Confirm and Cancel. Confirm plays the
//! turn through [`play::play`], as every turn is played.
//!
//! Everything a step needs is in its components' ids ([`Action::Pick`]: the game, the
//! record's version when the picker opened, the choices so far), so a picker survives a
//! restart; once the game has changed, its presses are refused and change nothing (a
//! second Confirm included). Cancel stands: a Confirm pressed after it is refused until the
//! player opens or moves a picker of that game again. `/settings confirm:on` puts the same
//! preview before a typed `/move`, `/drop` or `/pass` ([`preview`]).

use stonemate_engine::{Pick, PickOption, Picker, Square, Turn, preview as preview_of};

use super::play;
use crate::service::buttons::{Action, PickPath, PickPress};
use crate::service::error::Failure;
use crate::service::error::Refusal;
use crate::service::games::Fit;
use crate::service::loaded::Loaded;
use crate::service::parts::Parts;
use crate::service::text;
use crate::service::types::{Button, ButtonStyle, Caller, GameId, Message, Reply, Response, Select, SelectOption};

impl Button {
    /// The Play button: opens the turn picker of the game for the player to move.
    #[must_use]
    pub fn play(id: GameId) -> Button {
        Action::Play { id }.button("Play", ButtonStyle::Primary)
    }
}

/// The Play button for the player to move, as a turn's reply has it, when he is a person
/// (Stonemate's own turn needs no button).
pub(crate) fn play_for_mover(parts: &Parts, game: &Loaded) -> Vec<Button> {
    match game.mover() {
        Some(_) if !parts.seat.to_move(game) => vec![Button::play(game.record.id)],
        _ => Vec::new(),
    }
}

/// `/play` and the Play button: the first step of the caller's picker in a game where he
/// is to move.
pub(crate) fn open(parts: &Parts, caller: &Caller, id: Option<GameId>) -> Result<Response, Failure> {
    let (caller, game) = match id {
        Some(id) => reach(parts, caller, id)?,
        None => (caller.clone(), parts.games.open(caller, None, Fit::ToMove)?),
    };
    play::check_turn(&game, caller.user.id)?;
    step(parts, &caller, &game, PickPath::EMPTY, false)
}

/// A press of a picker's component: a choice (`value`, from the select menu), Back,
/// Confirm or Cancel. Refused, changing nothing, when the caller is not the player to
/// move or the game changed since the picker opened.
pub(crate) fn press(
    parts: &Parts,
    caller: &Caller,
    press: PickPress,
    (id, version, path): (GameId, u64, PickPath),
    value: Option<&str>,
) -> Result<Response, Failure> {
    if press == PickPress::Cancel {
        parts.users.cancel_preview(caller.user.id, id, version);
        let text = "Cancelled: nothing was played.".to_owned();
        let message = Message::from(text);
        let reply = Reply { ok: true, message, replaces_message: true, about: Some(id), ..Reply::default() };
        return Ok(Response { reply, notices: Vec::new() });
    }
    // The game's record is read once, and the turn checked once, whatever was pressed.
    let (caller, game) = reach(parts, caller, id)?;
    let caller = &caller;
    game.check_playing(caller.user.id)?;
    if game.record.version != version {
        return Err(Refusal::PickerStale(id).into());
    }
    let mover = play::check_turn(&game, caller.user.id)?;
    match press {
        PickPress::Choose => {
            let value = value.unwrap_or_default();
            let bad = || Refusal::BadPick(format!("`{}` is not one of the choices here", text::typed(value)));
            let next = path.then(value).ok_or_else(bad)?;
            step(parts, caller, &game, next, true)
        }
        PickPress::Tap => step(parts, caller, &game, path, true),
        PickPress::Back => step(parts, caller, &game, path.back(), true),
        PickPress::Confirm => {
            if parts.users.cancelled(caller.user.id, id, version) {
                return Err(Refusal::BadPick(format!("you cancelled this turn in {id}")).into());
            }
            let turn = Picker::new(&game.position).turn(&path.steps());
            let turn = turn.ok_or_else(|| Refusal::BadPick("that is not a whole turn".to_owned()))?;
            let players = parts.users.of(&game.record);
            play::play(parts, caller, (game, &players), mover, turn)
        }
        PickPress::Cancel => unreachable!("answered above"),
    }
}

/// The game a picker's component names, and the caller as the game's server sees him: a
/// player pressing in a direct message (a turn ping sent there) reaches his own games,
/// as if he pressed in their server; anyone else only what [`Games::named`] lets him.
///
/// [`Games::named`]: crate::service::games::Games::named
fn reach(parts: &Parts, caller: &Caller, id: GameId) -> Result<(Caller, Loaded), Failure> {
    if caller.guild.is_none() {
        let record = parts.games.load(id)?;
        if record.seats.involves(caller.user.id) {
            let caller = Caller { guild: record.guild(), ..caller.clone() };
            return Ok((caller, parts.games.loaded(record)?));
        }
    }
    Ok((caller.clone(), parts.games.loaded(parts.games.named(caller, id)?)?))
}

/// The preview of `turn` in `game` with Confirm and Cancel, for a typed turn of a player
/// who asked for it (`/settings confirm:on`); `None` when the picker cannot reach the turn
/// (it is illegal): it is then refused as any turn is, board and all.
pub(crate) fn preview(parts: &Parts, caller: &Caller, game: &Loaded, turn: Turn) -> Option<Result<Response, Failure>> {
    let path = Picker::new(&game.position).path_to(turn)?;
    let path = PickPath::new(&path.join("."))?;
    Some(step(parts, caller, game, path, false))
}

/// The picker of `game` after `path`: the next step's menu, or the preview of the turn.
fn step(parts: &Parts, caller: &Caller, game: &Loaded, path: PickPath, replaces: bool) -> Result<Response, Failure> {
    // A picker shown again takes back its player's Cancel in this game.
    parts.users.reopen_preview(caller.user.id, game.id());
    let picker = Picker::new(&game.position);
    let steps = path.steps();
    let at = picker.at(&steps).map_err(|error| Refusal::BadPick(error.to_string()))?;
    let (id, version) = (game.id(), game.record.version);
    let action = |press| Action::Pick { press, id, version, path };
    let mut buttons = Vec::new();
    if !steps.is_empty() {
        buttons.push(action(PickPress::Back).button("Back", ButtonStyle::Secondary));
    }
    let reply = match at {
        Pick::Choose(options) => {
            // What is still possible is marked on the board once something is chosen.
            let left = if steps.is_empty() { Vec::new() } else { picker.turns_after(&steps).unwrap_or_default() };
            let image = parts.pictures.board(game, caller.user.id, touched(&left));
            let taps = taps(&options, path, |path| Action::Pick { press: PickPress::Tap, id, version, path });
            let selects = match taps {
                Some(taps) => {
                    // Choices first, then Back and Cancel: one row on a phone when it fits.
                    buttons.splice(0..0, taps);
                    Vec::new()
                }
                None => vec![Select {
                    custom_id: action(PickPress::Choose).to_string(),
                    placeholder: if steps.is_empty() { "Choose your turn".to_owned() } else { "Then…".to_owned() },
                    options: options
                        .into_iter()
                        .map(|option| SelectOption { value: option.value, label: option.label })
                        .collect(),
                }],
            };
            buttons.push(action(PickPress::Cancel).button("Cancel", ButtonStyle::Danger));
            let chosen = match picker.chosen(&steps) {
                Ok(chosen) if !chosen.is_empty() => {
                    let labels: Vec<String> = chosen.into_iter().map(|option| option.label).collect();
                    format!(" (so far: {})", text::typed(&labels.join(", ")))
                }
                _ => String::new(),
            };
            Reply {
                message: Message::from(format!("Your turn in {id}: choose it below{chosen}.")),
                images: vec![image],
                selects,
                ..Reply::default()
            }
        }
        Pick::Done(turn) => {
            let shown = preview_of(&game.position, turn).map_err(Refusal::Illegal)?;
            let image = parts.pictures.board_at(game, &shown.after, caller.user.id, arrows(turn, &shown.after));
            buttons.insert(0, action(PickPress::Confirm).button("Confirm", ButtonStyle::Success));
            buttons.push(action(PickPress::Cancel).button("Cancel", ButtonStyle::Danger));
            Reply {
                message: Message::from(format!("Your turn in {id}: {} Confirm to play it.", text::typed(&shown.words))),
                images: vec![image],
                ..Reply::default()
            }
        }
    };
    Ok(private(Reply { ok: true, buttons, replaces_message: replaces, about: Some(id), ..reply }))
}

/// The most choices a step shows as buttons of their own rather than a select menu: with
/// Back and Cancel they fill one or two of Discord's rows of five, and one tap on a phone
/// beats opening a menu to choose among so few.
pub(crate) const MAX_TAPS: usize = 4;

/// Each choice as a button of its own (labelled as in the menu, within Discord's 80
/// characters), when the step has at most [`MAX_TAPS`] and every path with the choice
/// added still fits a button's id; otherwise `None` (a select menu).
fn taps(options: &[PickOption], path: PickPath, action: impl Fn(PickPath) -> Action) -> Option<Vec<Button>> {
    if options.len() > MAX_TAPS {
        return None;
    }
    options
        .iter()
        .map(|option| {
            let label: String = option.label.chars().take(MAX_BUTTON_LABEL).collect();
            Some(action(path.then(&option.value)?).button(&label, ButtonStyle::Primary))
        })
        .collect()
}

/// Discord's limit on a button's label.
const MAX_BUTTON_LABEL: usize = 80;

/// The squares the turns still possible touch, to mark on the board.
fn touched(turns: &[Turn]) -> Vec<Square> {
    let mut squares: Vec<Square> = turns.iter().flat_map(Turn::touched).collect();
    squares.sort_unstable();
    squares.dedup();
    squares
}

/// The arrow a preview draws for `turn`: from where a piece leaves to where it lands. A
/// block the view draws moving already (Gess) gets none; drops and passes have none.
fn arrows(turn: Turn, after: &stonemate_engine::AnyGame) -> Vec<(Square, Square)> {
    match turn {
        Turn::Move { from, to, .. } | Turn::Relocate { from, to } if after.view().block_move.is_none() => {
            vec![(from, to)]
        }
        _ => Vec::new(),
    }
}

/// The picker is its caller's alone, however it was reached (also from a typed `/move`
/// with `confirm:on`, whose other answers are public).
fn private(reply: Reply) -> Response {
    Response { reply: Reply { private: true, ..reply }, notices: Vec::new() }
}

/// `/settings`: sets `confirm` when given; answers with the caller's settings.
pub(crate) fn settings(
    parts: &Parts,
    caller: &Caller,
    confirm: Option<bool>,
    threads: Option<bool>,
) -> Result<Response, Failure> {
    let me = caller.user.id;
    if let Some(threads) = threads {
        // A server's setting: its managers', in it; checked before anything is changed.
        let Some(guild) = caller.guild.filter(|_| caller.admin) else {
            return Err(Refusal::ServerSettingNotAdmin.into());
        };
        parts.users.set_threads(guild, threads)?;
    }
    if let Some(confirm) = confirm {
        let old = parts.users.record(me)?;
        let name = crate::service::games::short_name(&caller.user.name);
        let old = old.unwrap_or_else(|| crate::store::UserRecord::new(me, name));
        parts.users.save(&crate::store::UserRecord { confirm, ..old })?;
    }
    let on_off = |on: bool| if on { "on" } else { "off" };
    let mut text = format!(
        "Your settings: notify {}; confirm {} (with confirm on, a typed /move, /drop or /pass first shows its preview).",
        parts.users.notify_mode(me).name(),
        on_off(parts.users.confirms(me)),
    );
    if let Some(guild) = caller.guild {
        let threads = on_off(parts.users.threads(guild)?);
        text.push_str(&format!(
            " This server: threads {threads} (with threads on, each game started here gets a thread)."
        ));
    }
    Ok(Response { reply: Reply { ok: true, message: Message::from(text), ..Reply::default() }, notices: Vec::new() })
}
