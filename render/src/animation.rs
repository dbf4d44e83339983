//! A whole game as one animated GIF (for `/history`), small enough for a Discord
//! attachment: frames are drawn smaller than stills, long games are thinned to at most
//! [`MAX_FRAMES`] evenly spread positions (the first and last always kept), and each frame
//! after the first stores only the rectangle that changed, with unchanged pixels
//! transparent so that they compress to almost nothing. If the result still exceeds
//! [`MAX_ANIMATION_BYTES`], it is made again with half as many frames.

use std::borrow::Cow;

use gif::{DisposalMethod, Encoder, Repeat};

use crate::draw::draw;
use crate::frame::Frame;
use crate::layout;
use crate::palette::{Palette, TRANSPARENT};
use crate::picture::Picture;

/// The long side of an animation frame (smaller than a still: many frames, one file).
pub const ANIMATION_LONG_SIDE: usize = 560;
/// At most this many positions are shown; longer games are thinned evenly.
pub const MAX_FRAMES: usize = 200;
/// The animation never exceeds this many bytes (Discord's smallest upload limit is 10 MB;
/// this leaves room for the message around it).
pub const MAX_ANIMATION_BYTES: usize = 8 * 1024 * 1024;
/// How long each position shows, in hundredths of a second.
pub const FRAME_DELAY: u16 = 70;
/// How long the final position shows before the animation starts over.
pub const LAST_FRAME_DELAY: u16 = 400;

/// The positions as an animated GIF, one frame per picture (thinned as described above).
/// Frames must share the board's size; a picture whose size differs from the first is
/// skipped. No pictures give no bytes.
#[must_use]
pub fn animation(pictures: &[Picture]) -> Vec<u8> {
    let mut limit = MAX_FRAMES;
    loop {
        let chosen = thin(pictures.len(), limit);
        let bytes = encode(pictures, &chosen);
        if bytes.len() <= MAX_ANIMATION_BYTES || chosen.len() <= 2 {
            return bytes;
        }
        limit = chosen.len() / 2;
    }
}

/// At most `limit` (at least 2) indices into `count` items, evenly spread, keeping the
/// first and the last.
fn thin(count: usize, limit: usize) -> Vec<usize> {
    let limit = limit.max(2);
    if count <= limit {
        return (0..count).collect();
    }
    let mut chosen: Vec<usize> = (0..limit).map(|i| (i * (count - 1) + (limit - 1) / 2) / (limit - 1)).collect();
    chosen.dedup();
    chosen
}

fn encode(pictures: &[Picture], chosen: &[usize]) -> Vec<u8> {
    let Some(&first) = chosen.first() else { return Vec::new() };
    let rows = chosen.iter().map(|&i| layout::hand_rows(&pictures[i].view, ANIMATION_LONG_SIDE)).max().unwrap_or(0);
    let mut previous = Frame::default();
    let layout = draw(&pictures[first], ANIMATION_LONG_SIDE, rows, &mut previous);
    let (width, height) = (layout.width as u16, layout.height as u16);
    let mut palette = Palette::get().bytes();
    palette.resize(256 * 3, 0);
    let mut bytes = Vec::new();
    let mut encoder = Encoder::new(&mut bytes, width, height, &palette).expect("writing to memory cannot fail");
    encoder.set_repeat(Repeat::Infinite).expect("writing to memory cannot fail");
    let delay = |index: usize| if index + 1 == chosen.len() { LAST_FRAME_DELAY } else { FRAME_DELAY };
    let mut whole = gif::Frame::from_indexed_pixels(width, height, previous.pixels.clone(), None);
    whole.delay = delay(0);
    encoder.write_frame(&whole).expect("writing to memory cannot fail");
    let mut current = Frame::default();
    for (index, &picture) in chosen.iter().enumerate().skip(1) {
        draw(&pictures[picture], ANIMATION_LONG_SIDE, rows, &mut current);
        if (current.width, current.height) != (previous.width, previous.height) {
            continue;
        }
        let mut frame = difference(&previous, &current);
        frame.delay = delay(index);
        encoder.write_frame(&frame).expect("writing to memory cannot fail");
        std::mem::swap(&mut previous, &mut current);
    }
    drop(encoder);
    bytes
}

/// A GIF frame holding the rectangle where `next` differs from `previous`, with the
/// unchanged pixels inside it transparent (the previous frame stays beneath).
fn difference(previous: &Frame, next: &Frame) -> gif::Frame<'static> {
    let width = next.width;
    let changed = |y: usize, x: usize| previous.pixels[y * width + x] != next.pixels[y * width + x];
    let rows: Vec<usize> = (0..next.height).filter(|&y| (0..width).any(|x| changed(y, x))).collect();
    let (Some(&top), Some(&bottom)) = (rows.first(), rows.last()) else {
        let mut frame = gif::Frame::from_indexed_pixels(1, 1, vec![TRANSPARENT], Some(TRANSPARENT));
        frame.dispose = DisposalMethod::Keep;
        return frame;
    };
    let left = (0..width).find(|&x| (top..=bottom).any(|y| changed(y, x))).unwrap_or(0);
    let right = (0..width).rev().find(|&x| (top..=bottom).any(|y| changed(y, x))).unwrap_or(width - 1);
    let mut pixels = Vec::with_capacity((right - left + 1) * (bottom - top + 1));
    for y in top..=bottom {
        for x in left..=right {
            pixels.push(if changed(y, x) { next.pixels[y * width + x] } else { TRANSPARENT });
        }
    }
    gif::Frame {
        left: left as u16,
        top: top as u16,
        width: (right - left + 1) as u16,
        height: (bottom - top + 1) as u16,
        buffer: Cow::Owned(pixels),
        transparent: Some(TRANSPARENT),
        dispose: DisposalMethod::Keep,
        ..gif::Frame::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinning_keeps_first_and_last_and_respects_the_limit() {
        assert_eq!(thin(5, 10), vec![0, 1, 2, 3, 4]);
        let chosen = thin(1000, MAX_FRAMES);
        assert!(chosen.len() <= MAX_FRAMES);
        assert_eq!(chosen.first(), Some(&0));
        assert_eq!(chosen.last(), Some(&999));
        assert!(chosen.windows(2).all(|pair| pair[0] < pair[1]));
    }
}
