"""Prints the code points kept in DroidSansFallback-CJK (see README.md), one U+XXXX a line,
for `pyftsubset --unicodes-file`."""


def encodes(ch, codec, low=None, high=None):
    try:
        data = ch.encode(codec)
    except UnicodeEncodeError:
        return False
    return (low is None or low <= data) and (high is None or data <= high)


def code_points():
    kept = set()
    for cp in range(0x4E00, 0xA000):
        ch = chr(cp)
        if (encodes(ch, "gb2312") or encodes(ch, "big5", b"\xa4\x40", b"\xc6\x7e")
                or encodes(ch, "euc_jp", b"\xb0\xa1", b"\xcf\xd3")):
            kept.add(cp)
    kept.update(cp for cp in range(0xAC00, 0xD7A4) if encodes(chr(cp), "euc_kr"))
    for low, high in [(0x3000, 0x303F), (0x3040, 0x30FF), (0x3100, 0x312F), (0x3130, 0x318F), (0xFF00, 0xFFEF)]:
        kept.update(range(low, high + 1))
    return sorted(kept)


if __name__ == "__main__":
    print("\n".join("U+%04X" % cp for cp in code_points()))
