//! Board pictures for replies: the record's names and the position. A picture in a
//! channel is drawn the same way up for everyone, whoever asked (the side whose home is
//! rank 1 at the bottom, as on lichess), so that a channel's pictures keep one
//! orientation from turn to turn; a private reply shows the viewer's own side.

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

/// The side drawn at the bottom: in a private reply to `viewer`, his own (the public
/// orientation for onlookers); in public (`None`), the game's one orientation.
pub fn perspective(record: &GameRecord, game: &AnyGame, viewer: Option<UserId>) -> Color {
    let public = game.view().first_rank_side;
    viewer.and_then(|viewer| record.side_of(viewer)).map_or(public, Side::color)
}

/// The picture of `game` for `viewer` (`None`: in public), marking `highlights`.
pub fn picture(record: &GameRecord, game: &AnyGame, viewer: Option<UserId>, highlights: Vec<Square>) -> Picture {
    Picture {
        view: with_result(game.view(), record),
        title: format!("{} {}", record.id, game.kind().title()),
        players: player_names(record),
        perspective: perspective(record, game, viewer),
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

/// The board as a PNG attachment for a private reply to `viewer`, from his side.
pub fn board(
    service: &Service,
    record: &GameRecord,
    game: &AnyGame,
    viewer: UserId,
    highlights: Vec<Square>,
) -> Attachment {
    attachment(service, record, &picture(record, game, Some(viewer), highlights))
}

/// The board as a PNG attachment for a public reply: the game's one orientation.
pub fn public_board(service: &Service, record: &GameRecord, game: &AnyGame) -> Attachment {
    attachment(service, record, &picture(record, game, None, Vec::new()))
}

fn attachment(service: &Service, record: &GameRecord, picture: &Picture) -> Attachment {
    Attachment { name: format!("game-{}.png", record.id.0), bytes: (service.settings.render)(picture) }
}

/// The animated replay of the game for a public reply, once a turn has been played.
pub fn animation(service: &Service, record: &GameRecord) -> Option<Attachment> {
    if record.turns.is_empty() {
        return None;
    }
    let bytes = (service.settings.animate)(&replay_pictures(record));
    (!bytes.is_empty()).then(|| Attachment { name: format!("game-{}.gif", record.id.0), bytes })
}

/// Every position of the game from the start, in the game's public orientation: the frames
/// of the animated replay.
fn replay_pictures(record: &GameRecord) -> Vec<Picture> {
    let Some(mut game) = record.kind().and_then(|kind| AnyGame::new(kind, &record.options).ok()) else {
        return Vec::new();
    };
    let mut pictures = vec![picture(record, &game, None, Vec::new())];
    for turn in &record.turns {
        if game.play_text(turn).is_err() {
            break;
        }
        pictures.push(picture(record, &game, None, Vec::new()));
    }
    pictures
}

#[cfg(test)]
mod tests {
    use stonemate_engine::GameKind;

    use super::*;
    use crate::clock::Timestamp;
    use crate::service::{ChannelId, GameId};
    use crate::store::{FORMAT, Phase};

    const ALICE: UserId = UserId(1);
    const BOB: UserId = UserId(2);
    const ONLOOKER: UserId = UserId(3);

    /// A game of `kind` between Alice (White) and Bob (Black).
    fn record(kind: GameKind) -> (GameRecord, AnyGame) {
        let game = AnyGame::new(kind, &[]).expect("default options");
        let record = GameRecord {
            format: FORMAT,
            id: GameId(1),
            version: 1,
            game: kind.name().to_owned(),
            options: game.option_pairs(),
            challenger: ALICE,
            opponent: BOB,
            names: ["alice".to_owned(), "bob".to_owned()],
            color: ColorChoice::White,
            players: Some([ALICE, BOB]),
            days: 0,
            channel: ChannelId(1),
            guild: None,
            created: Timestamp(0),
            expires: Timestamp(0),
            phase: Phase::Playing,
            turns: Vec::new(),
            clock: None,
            draw_offer: None,
            result: None,
        };
        (record, game)
    }

    #[test]
    fn public_pictures_keep_one_orientation_whoever_asks() {
        for (kind, bottom) in [(GameKind::IChess, Color::White), (GameKind::Gess, Color::Black)] {
            let (record, game) = record(kind);
            assert_eq!(perspective(&record, &game, None), bottom, "{kind:?}");
            assert_eq!(picture(&record, &game, None, Vec::new()).perspective, bottom, "{kind:?}");
        }
    }

    #[test]
    fn private_pictures_show_the_viewers_side() {
        let (record, game) = record(GameKind::IChess);
        assert_eq!(perspective(&record, &game, Some(BOB)), Color::Black);
        assert_eq!(perspective(&record, &game, Some(ALICE)), Color::White);
        assert_eq!(perspective(&record, &game, Some(ONLOOKER)), Color::White, "onlookers see the public side");
    }
}
