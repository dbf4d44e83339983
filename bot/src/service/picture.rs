//! Board pictures for replies: the record's names and the position, drawn by the
//! renderer from the viewer's side.

use stonemate_engine::{AnyGame, BoardView, Color, EndReason, Ending, Outcome, Square, Status};
use stonemate_render::Picture;

use super::Service;
use super::text;
use super::types::{Attachment, UserId};
use crate::store::{ColorChoice, Finish, GameRecord, GameResult, Side};

/// How the game calls its sides, `[white, black]`, in lower case: `white`, `black`
/// (Chogo's second side is `green`).
pub fn side_names(record: &GameRecord) -> [String; 2] {
    let names =
        record.kind().and_then(|kind| AnyGame::new(kind, &record.options).ok()).map(|game| game.view().side_names);
    names.unwrap_or(["White", "Black"]).map(str::to_lowercase)
}

/// The name of one side, in lower case.
pub fn side_name(record: &GameRecord, side: Side) -> String {
    let [white, black] = side_names(record);
    if side == Side::White { white } else { black }
}

/// The names shown for `[white, black]`; before colours are fixed, as the challenge says.
pub fn player_names(record: &GameRecord) -> [String; 2] {
    if let Some([white, black]) = record.players {
        return [record.name_of(white).to_owned(), record.name_of(black).to_owned()];
    }
    let [challenger, opponent] = record.names.clone();
    match record.color {
        ColorChoice::White => [challenger, opponent],
        ColorChoice::Black => [opponent, challenger],
        ColorChoice::Random => {
            let both = format!("{challenger} or {opponent}");
            [both.clone(), both]
        }
    }
}

/// `alice (white) vs bob (black)` once colours are fixed, else the challenge's two names;
/// for messages, so the names are escaped.
pub fn sides(record: &GameRecord) -> String {
    let [white, black] = player_names(record).map(|name| text::name(&name));
    let [white_side, black_side] = side_names(record);
    match record.players {
        Some(_) => format!("{white} ({white_side}) vs {black} ({black_side})"),
        None => format!("{} vs {}", text::name(&record.names[0]), text::name(&record.names[1])),
    }
}

/// The side drawn at the bottom for `viewer`: his own, or White for onlookers.
pub fn perspective(record: &GameRecord, viewer: UserId) -> Color {
    record.side_of(viewer).map_or(Color::White, Side::color)
}

/// The picture of `game` as `viewer` sees it, marking `highlights`.
pub fn picture(record: &GameRecord, game: &AnyGame, viewer: UserId, highlights: Vec<Square>) -> Picture {
    Picture {
        view: with_result(game.view(), record),
        title: format!("{} {}", record.id, game.kind().title()),
        players: player_names(record),
        perspective: perspective(record, viewer),
        highlights,
    }
}

/// The view of the record's last position shows how the game ended, also when the board
/// alone cannot tell (a resignation, a claimed time win, an agreed draw, an abort): the
/// engine knows only the endings its rules make.
fn with_result(mut view: BoardView, record: &GameRecord) -> BoardView {
    let last = usize::try_from(view.turns_played).is_ok_and(|played| played == record.turns.len());
    if let (true, Status::Ongoing { .. }, Some(result)) = (last, view.status, &record.result) {
        if let Some(ending) = ending(result) {
            view.status = Status::Finished(ending);
        }
    }
    view
}

/// The ending a picture shows for a result the players made (`None` for the rules' own).
fn ending(result: &GameResult) -> Option<Ending> {
    let reason = match result.finish {
        Finish::Rules => return None,
        Finish::Resignation => EndReason::Resignation,
        Finish::Agreement => EndReason::Agreement,
        Finish::Timeout => EndReason::Timeout,
        Finish::Aborted | Finish::AdminAborted => EndReason::Aborted,
    };
    let outcome = result.winner.map_or(Outcome::Draw, |side| Outcome::Winner(side.color()));
    Some(Ending { outcome, reason })
}

/// The board as a PNG attachment.
pub fn board(
    service: &Service,
    record: &GameRecord,
    game: &AnyGame,
    viewer: UserId,
    highlights: Vec<Square>,
) -> Attachment {
    let picture = picture(record, game, viewer, highlights);
    Attachment { name: format!("game-{}.png", record.id.0), bytes: (service.settings.render)(&picture) }
}

/// The animated replay of the game as `viewer` sees it, once a turn has been played.
pub fn animation(service: &Service, record: &GameRecord, viewer: UserId) -> Option<Attachment> {
    if record.turns.is_empty() {
        return None;
    }
    let bytes = (service.settings.animate)(&replay_pictures(record, viewer));
    (!bytes.is_empty()).then(|| Attachment { name: format!("game-{}.gif", record.id.0), bytes })
}

/// Every position of the game from the start, as `viewer` sees it: the frames of the
/// animated replay.
fn replay_pictures(record: &GameRecord, viewer: UserId) -> Vec<Picture> {
    let Some(mut game) = record.kind().and_then(|kind| AnyGame::new(kind, &record.options).ok()) else {
        return Vec::new();
    };
    let mut pictures = vec![picture(record, &game, viewer, Vec::new())];
    for turn in &record.turns {
        if game.play_text(turn).is_err() {
            break;
        }
        pictures.push(picture(record, &game, viewer, Vec::new()));
    }
    pictures
}
