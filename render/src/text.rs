//! Text at request time (names, titles, counts, coordinates): each glyph is rasterised
//! once per font and size into a small coverage bitmap, kept in a shared cache, and then
//! copied through a palette ramp from the page colour to the ink.
//!
//! Player names can hold any script. A character the face lacks is taken from the CJK
//! fallback font; one neither has is drawn as the replacement character `�` (a run of
//! them as one), and invisible joiners and variation selectors are left out, so that no
//! name is ever drawn as empty boxes.

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

/// The font a glyph comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Source {
    Face(Face),
    Cjk,
}

impl Source {
    fn font(self) -> &'static FontRef<'static> {
        match self {
            Source::Face(face) => face.font(),
            Source::Cjk => fonts::cjk(),
        }
    }
}

/// Drawn where no font has a character.
pub const REPLACEMENT: char = '\u{FFFD}';

/// Characters that show nothing by themselves (joiners, variation selectors, skin tones,
/// tags, controls): left out.
fn invisible(ch: char) -> bool {
    matches!(u32::from(ch), 0x200B..=0x200F | 0x2060..=0x206F | 0xFE00..=0xFE0F | 0x1F3FB..=0x1F3FF | 0xE0000..=0xE01EF)
        || ch.is_control()
}

/// Letters of scripts written right to left (Hebrew, Arabic, Syriac, Thaana, N'Ko, and
/// their presentation forms).
fn right_to_left(ch: char) -> bool {
    matches!(u32::from(ch), 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF)
}

/// The characters of `text` in the order they are drawn from left to right: each stretch
/// of right-to-left words (with the spaces between them) turned around. (Letters are not
/// joined: Arabic shows its letters' separate forms.)
fn visual_order(text: &str) -> Vec<char> {
    let chars: Vec<char> = text.chars().filter(|&ch| !invisible(ch)).collect();
    let mut ordered = Vec::with_capacity(chars.len());
    let mut i = 0;
    while i < chars.len() {
        if !right_to_left(chars[i]) {
            ordered.push(chars[i]);
            i += 1;
            continue;
        }
        let mut end = i;
        let mut j = i;
        while j < chars.len() && (right_to_left(chars[j]) || chars[j] == ' ') {
            if right_to_left(chars[j]) {
                end = j + 1;
            }
            j += 1;
        }
        ordered.extend(chars[i..end].iter().rev());
        i = end;
    }
    ordered
}

/// Where the glyph of each character of `text` comes from, in `face`: (font, glyph).
fn glyphs(face: Face, text: &str) -> Vec<(Source, GlyphId)> {
    let mut glyphs: Vec<(Source, GlyphId)> = Vec::with_capacity(text.len());
    let replacement = (Source::Face(face), face.font().glyph_id(REPLACEMENT));
    for ch in visual_order(text) {
        let found = [Source::Face(face), Source::Cjk]
            .into_iter()
            .map(|source| (source, source.font().glyph_id(ch)))
            .find(|(_, id)| id.0 != 0);
        match found {
            Some(glyph) => glyphs.push(glyph),
            None if glyphs.last() == Some(&replacement) => {}
            None => glyphs.push(replacement),
        }
    }
    glyphs
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

type Cache = HashMap<(Source, u16, GlyphId), Arc<Glyph>>;

fn cache() -> &'static Mutex<Cache> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    CACHE.get_or_init(Mutex::default)
}

fn rasterise(source: Source, px: u16, id: GlyphId) -> Glyph {
    let font = source.font();
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
    let scale = PxScale::from(f32::from(px));
    let mut cache = cache().lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if cache.len() > MAX_CACHED_GLYPHS {
        cache.clear();
    }
    let (mut pen, mut previous, mut glyphs) = (0.0f32, None, Vec::new());
    for (source, id) in self::glyphs(face, text) {
        let scaled = source.font().as_scaled(scale);
        // Kerning pairs exist only within one font.
        if let Some((_, previous_id)) = previous.filter(|(previous_source, _)| *previous_source == source) {
            pen += scaled.kern(previous_id, id);
        }
        let glyph = cache.entry((source, px, id)).or_insert_with(|| Arc::new(rasterise(source, px, id)));
        glyphs.push((pen.round() as i32, Arc::clone(glyph)));
        pen += scaled.h_advance(id);
        previous = Some((source, id));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_any_script_are_drawn_without_missing_glyph_boxes() {
        let names = ["李小龍", "さくら", "김민준", "Иван Петров", "محمد", "Ελένη", "Zoë 😀", "party 🎉🔥", "ท"];
        for face in [Face::Regular, Face::Bold] {
            for name in names {
                let glyphs = glyphs(face, name);
                assert!(glyphs.iter().all(|(_, id)| id.0 != 0), "{name}: a .notdef box");
                let drawn = glyphs.iter().filter(|(source, id)| !rasterise(*source, 21, *id).levels.is_empty()).count();
                let visible = name.chars().filter(|ch| !ch.is_whitespace()).count();
                assert!(drawn >= visible.min(1), "{name}: nothing drawn");
            }
        }
    }

    #[test]
    fn right_to_left_words_are_drawn_in_reading_order() {
        let drawn: String = visual_order("Мария محمد علي 1").into_iter().collect();
        assert_eq!(drawn, "Мария يلع دمحم 1");
    }

    #[test]
    fn cjk_names_come_from_the_fallback_font() {
        let glyphs = glyphs(Face::Bold, "李小龍 김");
        let sources: Vec<Source> = glyphs.iter().map(|(source, _)| *source).collect();
        assert_eq!(sources, [Source::Cjk, Source::Cjk, Source::Cjk, Source::Face(Face::Bold), Source::Cjk]);
        assert!(
            glyphs.iter().all(|&(source, id)| !rasterise(source, 21, id).levels.is_empty() || source != Source::Cjk)
        );
    }

    #[test]
    fn characters_no_font_has_become_one_replacement_character() {
        let replacement = (Source::Face(Face::Regular), fonts::sans().glyph_id(REPLACEMENT));
        // Thai is in neither font; the joiner and variation selector show nothing.
        assert_eq!(glyphs(Face::Regular, "ทท"), [replacement]);
        assert_eq!(glyphs(Face::Regular, "a\u{200D}\u{FE0F}b").len(), 2);
    }
}
