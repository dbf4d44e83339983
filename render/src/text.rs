//! Text at request time (names, titles, counts, coordinates): each glyph is rasterised
//! once per face and size into a small coverage bitmap, kept in a shared cache, and then
//! copied through a palette ramp from the page colour to the ink.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use ab_glyph::{Font, FontRef, GlyphId, PxScale, ScaleFont, point};

use crate::fonts;
use crate::frame::Frame;
use crate::palette::TEXT_LEVELS;

/// Which font text is set in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Face {
    Regular,
    Bold,
}

impl Face {
    fn font(self) -> &'static FontRef<'static> {
        match self {
            Face::Regular => fonts::sans(),
            Face::Bold => fonts::bold(),
        }
    }
}

/// One glyph's coverage, as ramp levels, placed relative to the pen on the baseline.
#[derive(Debug)]
struct Glyph {
    left: i32,
    top: i32,
    width: usize,
    levels: Vec<u8>,
}

/// At most this many glyphs are cached; past it the cache starts afresh (player names can
/// bring any character, so the cache must not grow without bound).
const MAX_CACHED_GLYPHS: usize = 4096;

type Cache = HashMap<(Face, u16, GlyphId), Arc<Glyph>>;

fn cache() -> &'static Mutex<Cache> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    CACHE.get_or_init(Mutex::default)
}

fn rasterise(face: Face, px: u16, id: GlyphId) -> Glyph {
    let font = face.font();
    let glyph = id.with_scale_and_position(PxScale::from(f32::from(px)), point(0.0, 0.0));
    let Some(outlined) = font.outline_glyph(glyph) else {
        return Glyph { left: 0, top: 0, width: 0, levels: Vec::new() };
    };
    let bounds = outlined.px_bounds();
    let width = bounds.width() as usize;
    let mut levels = vec![0u8; width * bounds.height() as usize];
    outlined.draw(|x, y, coverage| {
        let level = (coverage.clamp(0.0, 1.0) * (TEXT_LEVELS - 1) as f32).round() as u8;
        levels[y as usize * width + x as usize] = level;
    });
    Glyph { left: bounds.min.x as i32, top: bounds.min.y as i32, width, levels }
}

/// A line of text set in one face and size: glyphs with their pen positions.
struct Line {
    glyphs: Vec<(i32, Arc<Glyph>)>,
    width: i32,
}

fn set(face: Face, px: u16, text: &str) -> Line {
    let font = face.font();
    let scaled = font.as_scaled(PxScale::from(f32::from(px)));
    let mut cache = cache().lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if cache.len() > MAX_CACHED_GLYPHS {
        cache.clear();
    }
    let (mut pen, mut previous, mut glyphs) = (0.0f32, None, Vec::new());
    for ch in text.chars().filter(|ch| !ch.is_control()) {
        let id = font.glyph_id(ch);
        if let Some(previous) = previous {
            pen += scaled.kern(previous, id);
        }
        let glyph = cache.entry((face, px, id)).or_insert_with(|| Arc::new(rasterise(face, px, id)));
        glyphs.push((pen.round() as i32, Arc::clone(glyph)));
        pen += scaled.h_advance(id);
        previous = Some(id);
    }
    Line { glyphs, width: pen.round() as i32 }
}

/// The width of `text` in pixels.
#[must_use]
pub fn width(face: Face, px: u16, text: &str) -> usize {
    set(face, px, text).width.max(0) as usize
}

/// `text`, shortened with an ellipsis if needed to fit in `max_width` pixels.
#[must_use]
pub fn fit(face: Face, px: u16, text: &str, max_width: usize) -> String {
    if width(face, px, text) <= max_width {
        return text.to_owned();
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let shorter: String = chars.iter().collect::<String>().trim_end().to_owned() + "…";
        if width(face, px, &shorter) <= max_width {
            return shorter;
        }
    }
    String::new()
}

/// The height of capital letters, for centring text vertically.
#[must_use]
pub fn cap_height(px: u16) -> usize {
    (f32::from(px) * 0.73).round() as usize
}

/// Draws `text` with its baseline at `baseline` and its left end at `x`, mixing the page
/// into the ink through `ramp`; returns the pen position after it.
pub fn draw(frame: &mut Frame, face: Face, px: u16, (x, baseline): (usize, usize), text: &str, ramp: &[u8]) -> usize {
    let line = set(face, px, text);
    for (pen, glyph) in &line.glyphs {
        let left = x as i32 + pen + glyph.left;
        let top = baseline as i32 + glyph.top;
        for (row, levels) in glyph.levels.chunks(glyph.width.max(1)).enumerate() {
            for (column, &level) in levels.iter().enumerate() {
                let (px_x, px_y) = (left + column as i32, top + row as i32);
                if level > 0 && px_x >= 0 && px_y >= 0 {
                    frame.set(px_x as usize, px_y as usize, ramp[usize::from(level)]);
                }
            }
        }
    }
    (x as i32 + line.width).max(0) as usize
}
