#!/bin/sh
# Makes the Noto fallback fonts of this folder (see README.md). Needs fontTools
# (`pip install fonttools`), Python's zlib, Debian's fonts-noto-core package unpacked in
# $CORE (`apt-get download fonts-noto-core && dpkg -x fonts-noto-core_*.deb $CORE`) and the
# wheel of the PyPI package manimgx-fonts unpacked in $WHEEL (`pip download --no-deps
# manimgx-fonts`, then unzip).
set -eu
CORE=${CORE:?unpacked fonts-noto-core}
WHEEL=${WHEEL:?unpacked manimgx-fonts wheel}
OUT=$(dirname "$0")
TMP=$(mktemp -d)
for script in Devanagari Bengali Gurmukhi Gujarati Oriya Tamil Telugu Kannada Malayalam; do
    pyftsubset "$CORE/usr/share/fonts/truetype/noto/NotoSans$script-Bold.ttf" --unicodes='*' \
        --no-hinting --layout-features='*' --drop-tables+=DSIG --glyph-names=false \
        --output-file="$TMP/NotoSans$script-Bold.ttf"
done
python3 -c "
from fontTools.ttLib import TTFont
from fontTools.varLib import instancer
instancer.instantiateVariableFont(TTFont('$WHEEL/manimgx_fonts/NotoEmoji[wght].ttf'), {'wght': 700}).save('$TMP/emoji.ttf')"
pyftsubset "$TMP/emoji.ttf" --unicodes='*' --no-hinting --layout-features='' \
    --drop-tables+=GSUB,GPOS,GDEF,vhea,vmtx,STAT,HVAR,VVAR --glyph-names=false \
    --output-file="$TMP/NotoEmoji-Bold.ttf"
rm "$TMP/emoji.ttf"
python3 -c "
import glob, os, zlib
for path in glob.glob('$TMP/*.ttf'):
    data = zlib.compress(open(path, 'rb').read(), 9)
    open(os.path.join('$OUT', os.path.basename(path) + '.z'), 'wb').write(data)"
rm -r "$TMP"
