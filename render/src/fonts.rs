//! The embedded fonts: rendering never depends on the fonts of the machine it runs on.
//!
//! - DejaVu Sans (licence in `assets/DejaVu-LICENSE.txt`): Latin, Greek, Cyrillic, Arabic,
//!   Hebrew, many symbols and the emoticons, and the chess figures.
//! - Droid Sans Fallback (Apache-2.0, `assets/DroidSansFallback-LICENSE.txt`), cut down to
//!   the Chinese characters of GB 2312, Big5's common set and JIS level 1, the Hangul
//!   syllables of KS X 1001, kana, bopomofo and full-width forms (`assets/README.md` says
//!   how), and stored deflated: a fallback for names in Chinese, Japanese and Korean.

use std::sync::OnceLock;

use std::io::Read;

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
    static DATA: OnceLock<Vec<u8>> = OnceLock::new();
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| {
        let data = DATA.get_or_init(|| {
            let mut data = Vec::new();
            flate2::read::ZlibDecoder::new(CJK_DEFLATED).read_to_end(&mut data).expect("the embedded font inflates");
            data
        });
        FontRef::try_from_slice(data).expect("the embedded font is valid")
    })
}
