//! The pictures part: board PNGs and the animated replay, drawn by the renderer the
//! settings name (benchmarks swap it to measure the rest). A picture of one of the
//! record's positions carries its [`Drawing`], from which [`Pictures::redraw`] draws it
//! again: what a notice keeps in the outbox instead of the PNG.
//!
//! Drawing a large board costs more than the rest of a turn, so a picture of one of the
//! record's positions is kept by its [`Drawing`] and the record's version ([`Drawn`]): the
//! same game version seen from the same side is drawn once, whether a reply, a notice made
//! with it, or that notice's delivery a moment later asks for it.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, PoisonError};

use lru::LruCache;
use stonemate_engine::{AnyGame, Color, Square, Status};
use stonemate_render::Picture;

use super::loaded::Loaded;
use super::types::{Attachment, Drawing, UserId};
use crate::store::GameRecord;

/// Pictures kept drawn: a turn's reply, its notices and their delivery ask for one or two
/// each, and what is delivered was drawn seconds before; a 25x25 board is some 30 KB.
const KEPT_PICTURES: usize = 64;

/// The PNGs of pictures drawn lately, by what they show: the [`Drawing`] and the version of
/// the record it was drawn from (a version's names, result and turns are fixed).
type Drawn = LruCache<(Drawing, u64), Vec<u8>>;

/// The pictures part. Clones share the pictures kept drawn.
#[derive(Debug, Clone)]
pub struct Pictures {
    render: fn(&Picture) -> Vec<u8>,
    animate: fn(&[Picture]) -> Vec<u8>,
    drawn: Arc<Mutex<Drawn>>,
}

impl Pictures {
    pub fn new(render: fn(&Picture) -> Vec<u8>, animate: fn(&[Picture]) -> Vec<u8>) -> Pictures {
        let capacity = NonZeroUsize::new(KEPT_PICTURES).unwrap_or(NonZeroUsize::MIN);
        Pictures { render, animate, drawn: Arc::new(Mutex::new(LruCache::new(capacity))) }
    }

    /// The board as a PNG attachment for a private reply to `viewer`, from his side.
    pub fn board(&self, game: &Loaded, viewer: UserId, highlights: Vec<Square>) -> Attachment {
        self.drawn(game, &game.picture(Some(viewer), highlights))
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
        self.drawn(game, &game.picture(None, Vec::new()))
    }

    /// The board with `marked` squares crossed out (such as pieces proposed as dead), for
    /// a private reply to `viewer` from his side, or in public (`None`).
    pub fn marked_board(&self, game: &Loaded, viewer: Option<UserId>, marked: Vec<Square>) -> Attachment {
        let mut picture = game.picture(viewer, Vec::new());
        picture.marked = marked;
        self.drawn(game, &picture)
    }

    /// `estimate`, a copy of `game` counted in advance (`/score`, a proposal of dead
    /// pieces), for a private reply to `viewer` from his side or in public (`None`): its
    /// territory marked, its score in the header, the `marked` squares (the pieces it
    /// counted as dead) crossed out, and otherwise the header as the game itself stands.
    pub fn estimate_board(
        &self,
        game: &Loaded,
        estimate: &AnyGame,
        viewer: Option<UserId>,
        marked: Vec<Square>,
    ) -> Attachment {
        let mut picture = game.picture_of(estimate, viewer, Vec::new());
        picture.view.status = game.picture(None, Vec::new()).view.status;
        picture.view.owner = estimate.owner();
        picture.marked = marked;
        self.attachment(game, &picture)
    }

    /// `position`, one of `game`'s, as a PNG attachment for a public reply.
    pub fn public_board_at(&self, game: &Loaded, position: &AnyGame) -> Attachment {
        self.attachment(game, &game.picture_of(position, None, Vec::new()))
    }

    fn attachment(&self, game: &Loaded, picture: &Picture) -> Attachment {
        Attachment::file(file_name(game.id()), (self.render)(picture))
    }

    /// `picture`, of `game`'s current position, with how to draw it again: drawn unless
    /// this version of the game was drawn so already.
    fn drawn(&self, game: &Loaded, picture: &Picture) -> Attachment {
        let turns = &game.record.turns;
        let drawing = u32::try_from(turns.len()).ok().map(|count| Drawing {
            game: game.id(),
            turns: count,
            line: line(turns),
            black_bottom: picture.perspective == Color::Black,
            ended: matches!(picture.view.status, Status::Finished(_)),
            highlights: indices(&picture.highlights),
            marked: indices(&picture.marked),
        });
        let Some(drawing) = drawing else { return self.attachment(game, picture) };
        let key = (drawing, game.record.version);
        let bytes = match self.kept(&key) {
            Some(bytes) => bytes,
            None => self.keep(key.clone(), (self.render)(picture)),
        };
        Attachment { name: file_name(game.id()), bytes, drawing: Some(key.0) }
    }

    /// The PNG kept for `key`, if it was drawn lately.
    fn kept(&self, key: &(Drawing, u64)) -> Option<Vec<u8>> {
        self.drawn.lock().unwrap_or_else(PoisonError::into_inner).get(key).cloned()
    }

    /// Keeps `bytes` as the PNG of `key`; returns them.
    fn keep(&self, key: (Drawing, u64), bytes: Vec<u8>) -> Vec<u8> {
        self.drawn.lock().unwrap_or_else(PoisonError::into_inner).put(key, bytes.clone());
        bytes
    }

    /// The picture `drawing` describes, drawn again from `record` (the game's, as stored
    /// now): `None` if the record no longer leads through that position (a takeback and a
    /// different turn since) or cannot be replayed to it.
    pub fn redraw(&self, record: &GameRecord, drawing: &Drawing) -> Option<Attachment> {
        let count = usize::try_from(drawing.turns).ok()?;
        let turns = record.turns.get(..count)?;
        if record.id != drawing.game || line(turns) != drawing.line {
            return None;
        }
        let key = (drawing.clone(), record.version);
        if let Some(bytes) = self.kept(&key) {
            // Drawn when the notice was made, from this very version.
            return Some(Attachment { name: file_name(record.id), bytes, drawing: Some(key.0) });
        }
        let (positions, error) = stonemate_engine::replay::positions(record.kind, &record.options, turns).ok()?;
        if error.is_some() {
            return None;
        }
        let position = positions.into_iter().nth(count)?;
        let squares = |indices: &[u16]| indices.iter().filter_map(|&index| Square::from_index(index.into())).collect();
        let game = Loaded { record: record.clone(), position, stored: None };
        let mut picture = game.picture_of(&game.position, None, squares(&drawing.highlights));
        if !drawing.ended {
            // As it was: an ending the record gained since (a resignation) is not shown.
            picture.view = game.position.view();
        }
        picture.perspective = if drawing.black_bottom { Color::Black } else { Color::White };
        picture.marked = squares(&drawing.marked);
        let bytes = self.keep(key, (self.render)(&picture));
        Some(Attachment { name: file_name(record.id), bytes, drawing: Some(drawing.clone()) })
    }

    /// The animated replay of the game for a public reply, once a turn has been played.
    pub fn animation(&self, game: &Loaded) -> Option<Attachment> {
        if game.record.turns.is_empty() {
            return None;
        }
        let bytes = (self.animate)(&game.replay_pictures());
        (!bytes.is_empty()).then(|| Attachment::file(format!("game-{}.gif", game.id().0), bytes))
    }
}

/// A board picture's file name: `game-12.png`.
fn file_name(id: crate::service::GameId) -> String {
    format!("game-{}.png", id.0)
}

/// The CRC-32 of `turns`, each followed by a newline: a [`Drawing`]'s `line`.
fn line(turns: &[String]) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    for turn in turns {
        hasher.update(turn.as_bytes());
        hasher.update(b"\n");
    }
    hasher.finalize()
}

/// The squares' indices, as a [`Drawing`] keeps them.
fn indices(squares: &[Square]) -> Vec<u16> {
    squares.iter().filter_map(|square| u16::try_from(square.index()).ok()).collect()
}
