//! Board pictures for replies: the record's names and the position, drawn by the
//! renderer from the viewer's side.

use stonemate_engine::{AnyGame, Color, Square};
use stonemate_render::Picture;

use super::Service;
use super::types::{Attachment, UserId};
use crate::store::{ColorChoice, GameRecord, Side};

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

/// The side drawn at the bottom for `viewer`: his own, or White for onlookers.
pub fn perspective(record: &GameRecord, viewer: UserId) -> Color {
    record.side_of(viewer).map_or(Color::White, Side::color)
}

/// The picture of `game` as `viewer` sees it, marking `highlights`.
pub fn picture(record: &GameRecord, game: &AnyGame, viewer: UserId, highlights: Vec<Square>) -> Picture {
    Picture {
        view: game.view(),
        title: format!("{} {}", record.id, game.kind().title()),
        players: player_names(record),
        perspective: perspective(record, viewer),
        highlights,
    }
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
