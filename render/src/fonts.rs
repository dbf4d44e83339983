//! The embedded fonts (DejaVu Sans, licence in `assets/DejaVu-LICENSE.txt`): rendering
//! never depends on the fonts of the machine it runs on.

use std::sync::OnceLock;

use ab_glyph::FontRef;

static SANS: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../assets/DejaVuSans-Bold.ttf");

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
