//! The animated replay of a whole game: a real GIF, thinned to at most `MAX_FRAMES`
//! frames, under `MAX_ANIMATION_BYTES`, each frame the picture of one position.

use crate::samples;

use stonemate_engine::notation::record_tokens;
use stonemate_engine::{AnyGame, GameKind};
use stonemate_render::{ANIMATION_LONG_SIDE, MAX_ANIMATION_BYTES, MAX_FRAMES, Picture, animation};

/// One picture per position of the 19x19 sample game, start included.
fn pictures() -> Vec<Picture> {
    let options = vec![("pieces".to_owned(), "RNB".to_owned())];
    let mut game = AnyGame::new(GameKind::Go, &options).unwrap();
    let mut pictures = vec![Picture::new(game.view())];
    for turn in record_tokens(include_str!("records/go-19x19-rnb.txt")) {
        game.play_text(&turn).unwrap();
        pictures.push(Picture::new(game.view()));
    }
    pictures
}

/// Where a GIF frame lies and how long it shows: (left, top, width, height, delay).
type FrameInfo = (u16, u16, u16, u16, u16);

/// The size of a GIF and its frames.
fn frames(bytes: &[u8]) -> (u16, u16, Vec<FrameInfo>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(bytes).expect("a GIF");
    let (width, height) = (decoder.width(), decoder.height());
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a readable frame") {
        frames.push((frame.left, frame.top, frame.width, frame.height, frame.delay));
    }
    (width, height, frames)
}

#[test]
fn a_game_animates_one_frame_per_position_within_the_bounds() {
    let pictures = pictures();
    let bytes = animation(&pictures);
    assert!(bytes.len() <= MAX_ANIMATION_BYTES);
    let (width, height, frames) = frames(&bytes);
    let long = usize::from(width.max(height));
    assert!(long <= ANIMATION_LONG_SIDE && long > ANIMATION_LONG_SIDE - 20, "{width}x{height}");
    assert_eq!(frames.len(), pictures.len());
    assert_eq!((frames[0].0, frames[0].1, frames[0].2, frames[0].3), (0, 0, width, height));
    // Later frames hold only the rectangle that changed: a drop and the header.
    assert!(frames[1..].iter().all(|f| u32::from(f.2) * u32::from(f.3) < u32::from(width) * u32::from(height)));
    assert!(frames.last().unwrap().4 > frames[0].4, "the final position is held longer");
}

#[test]
fn long_games_are_thinned_to_the_frame_limit() {
    let pictures = pictures();
    let long: Vec<Picture> = pictures.iter().chain(&pictures).chain(&pictures).cloned().collect();
    let (_, _, frames) = frames(&animation(&long));
    assert!(frames.len() <= MAX_FRAMES && frames.len() >= MAX_FRAMES / 2, "{} frames", frames.len());
}

#[test]
fn no_positions_make_no_animation() {
    assert!(animation(&[]).is_empty());
}

#[test]
fn hand_games_keep_one_layout_while_hands_come_and_go() {
    let (start, busy) = (samples::chogo_start(), samples::chogo_busy());
    let bytes = animation(&[start, busy]);
    let (_, _, frames) = frames(&bytes);
    assert_eq!(frames.len(), 2, "both positions share the first one's size");
}

/// The picture a GIF ends on: every frame laid over the ones before it.
fn final_picture(bytes: &[u8]) -> Vec<u8> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(bytes).expect("a GIF");
    let width = usize::from(decoder.width());
    let mut canvas = vec![0u8; width * usize::from(decoder.height())];
    while let Some(frame) = decoder.read_next_frame().expect("a readable frame") {
        for (i, &index) in frame.buffer.iter().enumerate() {
            let (x, y) = (
                usize::from(frame.left) + i % usize::from(frame.width),
                usize::from(frame.top) + i / usize::from(frame.width),
            );
            if Some(index) != frame.transparent {
                canvas[y * width + x] = index;
            }
        }
    }
    canvas
}

#[test]
fn the_changed_rectangles_add_up_to_the_last_position() {
    let pictures = pictures();
    let last = pictures.last().unwrap().clone();
    assert_eq!(final_picture(&animation(&pictures)), final_picture(&animation(&[last])));
}
