//! The pictures part: board PNGs and the animated replay, drawn by the renderer the
//! settings name (benchmarks swap it to measure the rest).

use stonemate_engine::{AnyGame, Square};
use stonemate_render::Picture;

use super::loaded::Loaded;
use super::types::{Attachment, UserId};

/// The pictures part.
#[derive(Debug)]
pub struct Pictures {
    render: fn(&Picture) -> Vec<u8>,
    animate: fn(&[Picture]) -> Vec<u8>,
}

impl Pictures {
    pub fn new(render: fn(&Picture) -> Vec<u8>, animate: fn(&[Picture]) -> Vec<u8>) -> Pictures {
        Pictures { render, animate }
    }

    /// The board as a PNG attachment for a private reply to `viewer`, from his side.
    pub fn board(&self, game: &Loaded, viewer: UserId, highlights: Vec<Square>) -> Attachment {
        self.attachment(game, &game.picture(Some(viewer), highlights))
    }

    /// `position`, one of `game`'s (a turn's preview), as a PNG attachment for a private
    /// reply to `viewer`, from his side.
    pub fn board_at(
        &self,
        game: &Loaded,
        position: &AnyGame,
        viewer: UserId,
        arrows: Vec<(Square, Square)>,
    ) -> Attachment {
        let picture = game.picture_of(position, Some(viewer), Vec::new());
        self.attachment(game, &stonemate_render::Picture { arrows, ..picture })
    }

    /// The board as a PNG attachment for a public reply: the game's one orientation.
    pub fn public_board(&self, game: &Loaded) -> Attachment {
        self.attachment(game, &game.picture(None, Vec::new()))
    }

    /// The board with `marked` squares crossed out (such as pieces proposed as dead), for
    /// a private reply to `viewer` from his side, or in public (`None`).
    pub fn marked_board(&self, game: &Loaded, viewer: Option<UserId>, marked: Vec<Square>) -> Attachment {
        let mut picture = game.picture(viewer, Vec::new());
        picture.marked = marked;
        self.attachment(game, &picture)
    }

    /// `position`, one of `game`'s, as a PNG attachment for a public reply.
    pub fn public_board_at(&self, game: &Loaded, position: &AnyGame) -> Attachment {
        self.attachment(game, &game.picture_of(position, None, Vec::new()))
    }

    fn attachment(&self, game: &Loaded, picture: &Picture) -> Attachment {
        Attachment { name: format!("game-{}.png", game.id().0), bytes: (self.render)(picture) }
    }

    /// The animated replay of the game for a public reply, once a turn has been played.
    pub fn animation(&self, game: &Loaded) -> Option<Attachment> {
        if game.record.turns.is_empty() {
            return None;
        }
        let bytes = (self.animate)(&game.replay_pictures());
        (!bytes.is_empty()).then(|| Attachment { name: format!("game-{}.gif", game.id().0), bytes })
    }
}
