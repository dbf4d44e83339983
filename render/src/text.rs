//! Text at request time (names, titles, counts, coordinates): each glyph is rasterised
//! once per font and size into a small coverage bitmap, kept in a shared cache, and then
//! copied through a palette ramp from the page colour to the ink.
//!
//! Player names can hold any script. A character the face lacks is taken from the first
//! fallback font that has it: the CJK font, the font of its Indic script, or the emoji
//! font. One no font has is drawn as the replacement character `�` (a run of them as
//! one), and invisible joiners and variation selectors are left out (except inside Indic
//! words, where joiners choose a letter's form), so that no name is ever drawn as empty
//! boxes. Words in Indic scripts are shaped (`rustybuzz`: conjuncts, vowel signs placed
//! before or around their consonant); the fallback fonts are scaled so that their em
//! matches the face's.

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
    /// The font of one Indic script: an index into [`fonts::SCRIPTS`].
    Script(u8),
    Emoji,
}

impl Source {
    fn font(self) -> &'static FontRef<'static> {
        match self {
            Source::Face(face) => face.font(),
            Source::Cjk => fonts::cjk(),
            Source::Script(index) => fonts::SCRIPTS[usize::from(index)].1.font(),
            Source::Emoji => fonts::EMOJI.font(),
        }
    }

    /// Whether text in this font is shaped as a whole word rather than glyph by glyph.
    fn shaped(self) -> bool {
        matches!(self, Source::Script(_))
    }

    /// The scale that sets this font at `px` pixels: the face's own for the faces and the
    /// CJK font (as ever), and for the Noto fallbacks, whose line height is larger for
    /// the same letters, the one that gives them the face's em.
    fn scale(self, px: u16) -> PxScale {
        let px = f32::from(px);
        match self {
            Source::Face(_) | Source::Cjk => PxScale::from(px),
            Source::Script(_) | Source::Emoji => {
                let em_share = |font: &FontRef<'_>| font.height_unscaled() / font.units_per_em().unwrap_or(1000.0);
                PxScale::from(px * em_share(self.font()) / em_share(fonts::bold()))
            }
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

/// The joiners that choose the form of an Indic letter (ZWNJ, ZWJ).
fn joiner(ch: char) -> bool {
    matches!(ch, '\u{200C}' | '\u{200D}')
}

/// Letters of scripts written right to left (Hebrew, Arabic, Syriac, Thaana, N'Ko, and
/// their presentation forms).
fn right_to_left(ch: char) -> bool {
    matches!(u32::from(ch), 0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF)
}

/// The characters of `text` in the order they are drawn from left to right: each stretch
/// of right-to-left words (with the spaces between them) turned around. (Letters are not
/// joined: Arabic shows its letters' separate forms.) Joiners stay (see [`runs`]).
fn visual_order(text: &str) -> Vec<char> {
    let chars: Vec<char> = text.chars().filter(|&ch| joiner(ch) || !invisible(ch)).collect();
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

/// The font of the Indic script `ch` belongs to.
fn script(ch: char) -> Option<Source> {
    let index = fonts::SCRIPTS.iter().position(|(block, _)| block.contains(&u32::from(ch)))?;
    Some(Source::Script(index as u8))
}

/// The font that draws `ch`: the face, then the fallbacks in turn, each only if it has
/// the character. A mark or sign shared by several Indic scripts (such as the danda)
/// stays in the font of the word it is in.
fn source(face: Face, ch: char, previous: Option<Source>) -> Option<Source> {
    let has = |source: Source| source.font().glyph_id(ch).0 != 0;
    if let Some(previous) = previous.filter(|previous| previous.shaped() && !ch.is_ascii() && has(*previous)) {
        return Some(previous);
    }
    let own_script = script(ch);
    [Some(Source::Face(face)), Some(Source::Cjk), own_script, Some(Source::Emoji)]
        .into_iter()
        .flatten()
        .find(|&source| has(source))
        .or_else(|| {
            // A sign of the Indic blocks that a script's font other than its block's has
            // (the Vedic signs, say); other characters never inflate every Indic font.
            let indic = matches!(u32::from(ch), 0x0900..=0x0DFF | 0x1CD0..=0x1CFF | 0xA830..=0xA83F | 0xA8E0..=0xA8FF);
            (0..fonts::SCRIPTS.len() as u8).map(Source::Script).filter(|_| indic).find(|&source| has(source))
        })
}

/// `text` cut into runs of one font each, in drawing order: `None` for a run of
/// characters no font has (drawn as one replacement character).
fn runs(face: Face, text: &str) -> Vec<(Option<Source>, String)> {
    let mut runs: Vec<(Option<Source>, String)> = Vec::new();
    for ch in visual_order(text) {
        let previous = runs.last().and_then(|(source, _)| *source);
        let source = if joiner(ch) {
            // A joiner only counts inside a shaped word; elsewhere it shows nothing.
            match previous {
                Some(source) if source.shaped() => Some(source),
                _ => continue,
            }
        } else {
            source(face, ch, previous)
        };
        match runs.last_mut() {
            Some((last, run)) if *last == source => run.push(ch),
            _ => runs.push((source, ch.to_string())),
        }
    }
    runs
}

/// Where the glyph of each character of `text` comes from, in `face`: (font, glyph); the
/// glyphs of a shaped word are those the shaper chose.
#[cfg(test)]
fn glyphs(face: Face, text: &str) -> Vec<(Source, GlyphId)> {
    place(face, 21, text).0.iter().map(|placed| (placed.source, placed.id)).collect()
}

/// A glyph placed on a line: its font, its id, and its pen position relative to the line's
/// start (x right, y down from the baseline), in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Placed {
    source: Source,
    id: GlyphId,
    x: f32,
    y: f32,
}

/// A line's glyphs, placed, and its width.
type Placement = (Vec<Placed>, f32);

/// At most this many placed lines are kept; past it the cache starts afresh, like the
/// glyphs' ([`MAX_CACHED_GLYPHS`]).
const MAX_CACHED_LINES: usize = 2048;

/// Lines placed lately, by a hash of face, size and text, each with its text (a hit is
/// checked against it). A table measures each cell before it draws it, and every page of a
/// tournament's standings sets the same names again: placing a name (choosing each
/// character's font, shaping Indic words) cost more than drawing it.
type Placements = HashMap<u64, (Box<str>, Arc<Placement>), foldhash::fast::RandomState>;

fn placements() -> &'static Mutex<Placements> {
    static PLACEMENTS: OnceLock<Mutex<Placements>> = OnceLock::new();
    PLACEMENTS.get_or_init(Mutex::default)
}

/// The glyphs of `text` at `px` pixels, placed, and the width of the line: from the cache
/// when they were placed lately.
fn place(face: Face, px: u16, text: &str) -> Arc<Placement> {
    use std::hash::BuildHasher;
    static KEYS: OnceLock<foldhash::fast::RandomState> = OnceLock::new();
    let key = KEYS.get_or_init(Default::default).hash_one((face, px, text));
    let mut cache = placements().lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((kept, placement)) = cache.get(&key)
        && **kept == *text
    {
        return Arc::clone(placement);
    }
    if cache.len() >= MAX_CACHED_LINES {
        cache.clear();
    }
    let placement = Arc::new(place_anew(face, px, text));
    cache.insert(key, (text.into(), Arc::clone(&placement)));
    placement
}

/// The glyphs of `text` at `px` pixels, placed, and the width of the line.
fn place_anew(face: Face, px: u16, text: &str) -> Placement {
    let replacement = Source::Face(face);
    let (mut pen, mut placed) = (0.0f32, Vec::<Placed>::new());
    for (source, run) in runs(face, text) {
        let Some(source) = source else {
            let id = replacement.font().glyph_id(REPLACEMENT);
            placed.push(Placed { source: replacement, id, x: pen, y: 0.0 });
            pen += replacement.font().as_scaled(replacement.scale(px)).h_advance(id);
            continue;
        };
        let scaled = source.font().as_scaled(source.scale(px));
        if source.shaped() {
            let Source::Script(index) = source else { unreachable!("only scripts are shaped") };
            let (font, script) = (&fonts::SCRIPTS[usize::from(index)].1, fonts::SCRIPT_TAGS[usize::from(index)]);
            let mut buffer = rustybuzz::UnicodeBuffer::new();
            buffer.push_str(&run);
            // The run's script is its font's, even for a run of signs the scripts share.
            buffer.set_direction(rustybuzz::Direction::LeftToRight);
            buffer.set_script(script);
            let shaped = rustybuzz::shape_with_plan(font.face(), font.plan(script), buffer);
            let (h, v) = (scaled.h_scale_factor(), scaled.v_scale_factor());
            for (info, position) in shaped.glyph_infos().iter().zip(shaped.glyph_positions()) {
                let id = GlyphId(info.glyph_id as u16);
                let (x, y) = (pen + position.x_offset as f32 * h, -(position.y_offset as f32) * v);
                placed.push(Placed { source, id, x, y });
                pen += position.x_advance as f32 * h;
            }
            continue;
        }
        let mut previous = None;
        for ch in run.chars() {
            let id = source.font().glyph_id(ch);
            // Kerning pairs exist only within one font (and one run).
            if let Some(previous) = previous {
                pen += scaled.kern(previous, id);
            }
            placed.push(Placed { source, id, x: pen, y: 0.0 });
            pen += scaled.h_advance(id);
            previous = Some(id);
        }
    }
    (placed, pen)
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

type Cache = HashMap<(Source, u16, GlyphId), Arc<Glyph>, foldhash::fast::RandomState>;

fn cache() -> &'static Mutex<Cache> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    CACHE.get_or_init(Mutex::default)
}

fn rasterise(source: Source, px: u16, id: GlyphId) -> Glyph {
    let font = source.font();
    let glyph = id.with_scale_and_position(source.scale(px), point(0.0, 0.0));
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

/// A line of text set in one face and size: glyphs with their pen positions (x, y).
struct Line {
    glyphs: Vec<((i32, i32), Arc<Glyph>)>,
    width: i32,
}

fn set(face: Face, px: u16, text: &str) -> Line {
    let placement = place(face, px, text);
    let (placed, width) = (&placement.0, placement.1);
    let mut cache = cache().lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if cache.len() > MAX_CACHED_GLYPHS {
        cache.clear();
    }
    let glyphs = placed
        .iter()
        .map(|&Placed { source, id, x, y }| {
            let glyph = cache.entry((source, px, id)).or_insert_with(|| Arc::new(rasterise(source, px, id)));
            ((x.round() as i32, y.round() as i32), Arc::clone(glyph))
        })
        .collect();
    Line { glyphs, width: width.round() as i32 }
}

/// The width of `text` in pixels (measured from the glyphs' advances: nothing is drawn).
#[must_use]
pub fn width(face: Face, px: u16, text: &str) -> usize {
    place(face, px, text).1.round().max(0.0) as usize
}

/// `text`, shortened with an ellipsis if needed to fit in `max_width` pixels: its longest
/// beginning that fits with the ellipsis, found by halving (a 32-character name measures
/// five cuts, not twenty).
#[must_use]
pub fn fit(face: Face, px: u16, text: &str, max_width: usize) -> String {
    if width(face, px, text) <= max_width {
        return text.to_owned();
    }
    let chars: Vec<char> = text.chars().collect();
    let cut = |kept: usize| chars[..kept].iter().collect::<String>().trim_end().to_owned() + "…";
    let fits = |kept: usize| width(face, px, &cut(kept)) <= max_width;
    // Longer beginnings are wider; should shaping ever make one narrower, the search may
    // stop short of the longest, and the walk down below still only returns one that fits.
    let kept: Vec<usize> = (0..chars.len()).collect();
    let found = kept.partition_point(|&kept| fits(kept));
    (0..found).rev().find(|&kept| fits(kept)).map(cut).unwrap_or_default()
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
    for ((pen, rise), glyph) in &line.glyphs {
        let left = x as i32 + pen + glyph.left;
        let top = baseline as i32 + rise + glyph.top;
        blit(frame, glyph, (left, top), ramp);
    }
    (x as i32 + line.width).max(0) as usize
}

/// Draws `glyph` with its top left corner at `(left, top)`, each covered pixel its level's
/// shade of `ramp`, clipped to the frame: row by row over slices (a table page draws about
/// 150,000 glyph pixels, and a bounds check per pixel was a third of drawing it).
fn blit(frame: &mut Frame, glyph: &Glyph, (left, top): (i32, i32), ramp: &[u8]) {
    let (frame_width, frame_height) = (frame.width as i32, frame.height as i32);
    let width = glyph.width as i32;
    // The glyph's columns inside the frame.
    let (first, end) = ((-left).max(0), width.min(frame_width - left));
    if width == 0 || first >= end {
        return;
    }
    for (row, levels) in glyph.levels.chunks_exact(glyph.width).enumerate() {
        let y = top + row as i32;
        if y < 0 {
            continue;
        }
        if y >= frame_height {
            break;
        }
        let start = (y * frame_width + left + first) as usize;
        let pixels = &mut frame.pixels[start..start + (end - first) as usize];
        for (pixel, &level) in pixels.iter_mut().zip(&levels[first as usize..end as usize]) {
            if level > 0 {
                *pixel = ramp[usize::from(level)];
            }
        }
    }
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
    fn names_in_indic_scripts_emoji_cjk_arabic_and_latin_have_every_glyph() {
        let bold = Source::Face(Face::Bold);
        let names = [
            ("अक्षय कुमार", Source::Script(0)),
            ("সত্যজিৎ রায়", Source::Script(1)),
            ("சுப்பிரமணிய பாரதி", Source::Script(5)),
            ("🎉🔥🏆🐉🚀", Source::Emoji),
            ("李小龍", Source::Cjk),
            ("محمد علي", bold),
            ("Zoë Ångström", bold),
        ];
        let replacement = bold.font().glyph_id(REPLACEMENT);
        for (name, expected) in names {
            let glyphs = glyphs(Face::Bold, name);
            assert!(glyphs.iter().all(|(_, id)| id.0 != 0), "{name}: a .notdef box");
            assert!(!glyphs.contains(&(bold, replacement)), "{name}: a replacement character");
            for (source, id) in &glyphs {
                // Only the spaces between words come from the face.
                assert!(*source == expected || *source == bold, "{name}: {source:?}");
                if *source == expected && *id != expected.font().glyph_id(' ') {
                    assert!(!rasterise(*source, 21, *id).levels.is_empty(), "{name}: {id:?} draws nothing");
                }
            }
        }
    }

    #[test]
    fn indic_words_are_shaped() {
        let font = fonts::SCRIPTS[0].1.font();
        // The vowel sign i is written after the consonant and drawn before it.
        let (placed, _) = place_anew(Face::Bold, 21, "कि");
        let ka = placed.iter().find(|glyph| glyph.id == font.glyph_id('क')).expect("ka is drawn");
        let sign = placed.iter().find(|glyph| glyph.id != font.glyph_id('क')).expect("the sign is drawn");
        assert!(sign.x < ka.x, "the sign comes first: {placed:?}");
        // K + virama + SS is one conjunct, not three separate letters.
        assert!(place(Face::Bold, 21, "क्ष").0.len() < 3);
        // The joiner keeps the half form: it is shaped with its word, not dropped.
        assert_ne!(place(Face::Bold, 21, "क्\u{200D}ष").0, place(Face::Bold, 21, "क्ष").0);
    }

    #[test]
    fn a_line_placed_again_comes_from_the_cache_as_it_was_placed() {
        for name in ["Magnus Carlsen", "अक्षय कुमार", "李小龍", "محمد علي", "party 🎉🔥"]
        {
            for (face, px) in [(Face::Regular, 19), (Face::Bold, 19), (Face::Bold, 24)] {
                let first = place(face, px, name);
                assert_eq!(*first, place_anew(face, px, name), "{name}");
                assert!(Arc::ptr_eq(&first, &place(face, px, name)), "{name} placed twice");
            }
        }
        // Another size or face is another line.
        assert_ne!(place(Face::Bold, 19, "Zoë").1, place(Face::Bold, 24, "Zoë").1);
    }

    #[test]
    fn fallback_fonts_are_set_at_the_faces_size() {
        // The height of a Devanagari letter's top bar and of a Latin capital are alike.
        let latin = rasterise(Source::Face(Face::Bold), 21, fonts::bold().glyph_id('H'));
        let (placed, _) = place_anew(Face::Bold, 21, "क");
        let devanagari = rasterise(placed[0].source, 21, placed[0].id);
        let (latin_top, devanagari_top) = (-latin.top, -devanagari.top);
        assert!((latin_top - devanagari_top).abs() <= 3, "{latin_top} vs {devanagari_top}");
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
