//! Drawing a [`Picture`] into the thread's reused frame and encoding it: the one path
//! from a picture to pixels, shared by PNGs, test frames and the frames of an animation.

use std::cell::RefCell;

use crate::encode;
use crate::frame::Frame;
use crate::layout::{self, LONG_SIDE, Layout};
use crate::palette::{Base, Ground, Palette};
use crate::picture::Picture;
use crate::{board, header};

thread_local! {
    /// The frame each thread draws into, kept between pictures to avoid a fresh allocation.
    static FRAME: RefCell<Frame> = RefCell::new(Frame::default());
}

/// The picture as PNG bytes, [`LONG_SIDE`] pixels on its long side (less for tiny boards).
#[must_use]
pub fn png(picture: &Picture) -> Vec<u8> {
    png_at(picture, LONG_SIDE)
}

/// The picture as PNG bytes, `long_side` pixels on its long side (less for tiny boards):
/// for thumbnails, and for benchmarks that need many cell sizes.
#[must_use]
pub fn png_at(picture: &Picture, long_side: usize) -> Vec<u8> {
    FRAME.with_borrow_mut(|frame| {
        let rows = layout::hand_rows(&picture.view, long_side);
        draw(picture, long_side, rows, frame);
        encode::png(frame)
    })
}

/// Draws `picture` into `frame` at `long_side` pixels, with `hand_rows` rows for each hand
/// (so that the frames of one animation all share a layout).
pub(crate) fn draw(picture: &Picture, long_side: usize, hand_rows: usize, frame: &mut Frame) -> Layout {
    let layout = Layout::new(&picture.view, picture.perspective, long_side, hand_rows);
    frame.reset(layout.width, layout.height, Palette::get().ground(Ground::Normal(Base::Page)));
    board::draw(frame, picture, &layout);
    header::draw(frame, picture, &layout);
    layout
}

/// The picture as an indexed frame in [`palette`] (for tests and tools that compare pixels).
#[must_use]
pub fn frame(picture: &Picture) -> Frame {
    let mut frame = Frame::default();
    draw(picture, LONG_SIDE, layout::hand_rows(&picture.view, LONG_SIDE), &mut frame);
    frame
}
