//! The embedded fonts: rendering never depends on the fonts of the machine it runs on.
//!
//! - DejaVu Sans (licence in `assets/DejaVu-LICENSE.txt`): Latin, Greek, Cyrillic, Arabic,
//!   Hebrew, many symbols and the emoticons, and the chess figures.
//! - Droid Sans Fallback (Apache-2.0, `assets/DroidSansFallback-LICENSE.txt`), cut down to
//!   the Chinese characters of GB 2312, Big5's common set and JIS level 1, the Hangul
//!   syllables of KS X 1001, kana, bopomofo and full-width forms (`assets/README.md` says
//!   how), and stored deflated: a fallback for names in Chinese, Japanese and Korean.
//! - Noto Sans Bold for nine Indic scripts (Devanagari, Bengali, Gurmukhi, Gujarati, Oriya,
//!   Tamil, Telugu, Kannada, Malayalam) and Noto Emoji at weight 700, a monochrome outline
//!   emoji font (OFL-1.1, `assets/Noto-LICENSE.txt`), stripped of hinting and deflated
//!   (`assets/README.md`): fallbacks for names in those scripts and for emoji. The Indic
//!   fonts keep their layout tables, for shaping (conjuncts, vowel signs).
//!
//! Each deflated font is inflated the first time a name needs it (and then kept).

use std::io::Read;
use std::sync::OnceLock;

use ab_glyph::FontRef;

static SANS: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../assets/DejaVuSans-Bold.ttf");
static CJK_DEFLATED: &[u8] = include_bytes!("../assets/DroidSansFallback-CJK.ttf.z");

/// DejaVu Sans: the chess figures U+2654..U+265F and the coordinates.
pub fn sans() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| FontRef::try_from_slice(SANS).expect("the embedded font is valid"))
}

/// DejaVu Sans Bold: names, titles and counts.
pub fn bold() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| FontRef::try_from_slice(BOLD).expect("the embedded font is valid"))
}

/// The CJK fallback, inflated on first use.
pub fn cjk() -> &'static FontRef<'static> {
    static CJK: Deflated = Deflated::new(CJK_DEFLATED);
    CJK.font()
}

/// A font stored deflated in the binary, inflated on first use.
pub struct Deflated {
    deflated: &'static [u8],
    data: OnceLock<Vec<u8>>,
    font: OnceLock<FontRef<'static>>,
    face: OnceLock<rustybuzz::Face<'static>>,
    plan: OnceLock<rustybuzz::ShapePlan>,
}

impl std::fmt::Debug for Deflated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Deflated")
            .field("bytes", &self.deflated.len())
            .field("inflated", &self.data.get().is_some())
            .finish()
    }
}

impl Deflated {
    const fn new(deflated: &'static [u8]) -> Deflated {
        Deflated {
            deflated,
            data: OnceLock::new(),
            font: OnceLock::new(),
            face: OnceLock::new(),
            plan: OnceLock::new(),
        }
    }

    fn data(&'static self) -> &'static [u8] {
        self.data.get_or_init(|| {
            let mut data = Vec::new();
            flate2::read::ZlibDecoder::new(self.deflated).read_to_end(&mut data).expect("the embedded font inflates");
            data
        })
    }

    /// The font, for outlines and metrics.
    pub fn font(&'static self) -> &'static FontRef<'static> {
        self.font.get_or_init(|| FontRef::try_from_slice(self.data()).expect("the embedded font is valid"))
    }

    /// The same font for the shaper.
    pub fn face(&'static self) -> &'static rustybuzz::Face<'static> {
        self.face.get_or_init(|| rustybuzz::Face::from_slice(self.data(), 0).expect("the embedded font is valid"))
    }

    /// The shaper's plan for left-to-right text in `script` with this font, made once:
    /// making it (reading the font's layout tables for the script's features) costs more
    /// than shaping a name.
    pub fn plan(&'static self, script: rustybuzz::Script) -> &'static rustybuzz::ShapePlan {
        self.plan.get_or_init(|| {
            rustybuzz::ShapePlan::new(self.face(), rustybuzz::Direction::LeftToRight, Some(script), None, &[])
        })
    }
}

/// The scripts of [`SCRIPTS`], in the same order, as the shaper names them.
pub static SCRIPT_TAGS: [rustybuzz::Script; 9] = {
    use rustybuzz::script;
    [
        script::DEVANAGARI,
        script::BENGALI,
        script::GURMUKHI,
        script::GUJARATI,
        script::ORIYA,
        script::TAMIL,
        script::TELUGU,
        script::KANNADA,
        script::MALAYALAM,
    ]
};

/// The fallback fonts for scripts whose letters change shape and order with their
/// neighbours (text in them is shaped), by the Unicode block each covers.
pub static SCRIPTS: [(std::ops::RangeInclusive<u32>, Deflated); 9] = [
    (0x0900..=0x097F, Deflated::new(include_bytes!("../assets/NotoSansDevanagari-Bold.ttf.z"))),
    (0x0980..=0x09FF, Deflated::new(include_bytes!("../assets/NotoSansBengali-Bold.ttf.z"))),
    (0x0A00..=0x0A7F, Deflated::new(include_bytes!("../assets/NotoSansGurmukhi-Bold.ttf.z"))),
    (0x0A80..=0x0AFF, Deflated::new(include_bytes!("../assets/NotoSansGujarati-Bold.ttf.z"))),
    (0x0B00..=0x0B7F, Deflated::new(include_bytes!("../assets/NotoSansOriya-Bold.ttf.z"))),
    (0x0B80..=0x0BFF, Deflated::new(include_bytes!("../assets/NotoSansTamil-Bold.ttf.z"))),
    (0x0C00..=0x0C7F, Deflated::new(include_bytes!("../assets/NotoSansTelugu-Bold.ttf.z"))),
    (0x0C80..=0x0CFF, Deflated::new(include_bytes!("../assets/NotoSansKannada-Bold.ttf.z"))),
    (0x0D00..=0x0D7F, Deflated::new(include_bytes!("../assets/NotoSansMalayalam-Bold.ttf.z"))),
];

/// The emoji fallback (monochrome outlines).
pub static EMOJI: Deflated = Deflated::new(include_bytes!("../assets/NotoEmoji-Bold.ttf.z"));
