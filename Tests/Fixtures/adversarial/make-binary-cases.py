#!/usr/bin/env python3
"""Writes the adversarial cases whose bytes an editor would mangle: invalid UTF-8, NUL and
other control bytes, byte-order marks, UTF-16, CR line endings, invisible or
normalisation-sensitive Unicode, and very large scalars.

Run it from anywhere: `python3 Tests/Fixtures/adversarial/make-binary-cases.py`. It rewrites
only the files listed below, byte for byte the same every time. Then re-record the goldens
with `FLOWSPEC_RECORD_GOLDEN=1 swift test --filter AdversarialCorpusTests` and review them.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# A minimal clean spec, as lines without line breaks.
CLEAN = [
    "flowspec: 1",
    "machines:",
    "  M:",
    "    initial: a",
    "    defaults: { kind: input }",
    "    states:",
    "      a: { on: { go: b } }",
    "      b: { kind: terminal }",
]

# The same with one unreachable state (`lost`) at the end.
FINDING = CLEAN + ["      lost: { kind: terminal }"]


def lf(lines):
    return ("\n".join(lines) + "\n").encode("utf-8")


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as handle:
        handle.write(data)


BOM = b"\xef\xbb\xbf"

CASES = {}

# Invisible and normalisation-sensitive Unicode (editors may normalise or drop these).
CASES["062-unicode-rtl-and-bidi.yaml"] = lf([
    "# Hebrew and Arabic names, and a target with a right-to-left override (U+202E) that reorders how it displays.",
    "flowspec: 1",
    "machines:",
    "  M:",
    "    initial: \u05e9\u05dc\u05d5\u05dd",
    "    defaults: { kind: input }",
    "    states:",
    "      \u05e9\u05dc\u05d5\u05dd: { on: { go: \u0645\u0631\u062d\u0628\u0627 } }",
    "      \u0645\u0631\u062d\u0628\u0627: { on: { go: \"admin\u202enimda\" } }",
    "      done: { kind: terminal }",
])
CASES["063-unicode-zero-width.yaml"] = lf([
    "# A state that looks like `start` but holds a zero-width space (U+200B), and a target `done` with a zero-width joiner (U+200D).",
    "flowspec: 1",
    "machines:",
    "  M:",
    "    initial: start",
    "    defaults: { kind: input }",
    "    states:",
    "      \"sta\u200brt\": { on: { go: \"do\u200dne\" } }",
    "      done: { kind: terminal }",
])
CASES["064-unicode-combining-marks.yaml"] = lf([
    "# Event names with combining marks: e + U+0301, and z with a stack of six combining marks.",
    "flowspec: 1",
    "machines:",
    "  M:",
    "    initial: a",
    "    defaults: { kind: input }",
    "    states:",
    "      a: { on: { \"e\u0301\": b, \"z\u0338\u0321\u031b\u0300\u0301\u0302\": b } }",
    "      b: { kind: terminal }",
])
CASES["065-unicode-nfc-nfd.yaml"] = lf([
    "# Two state keys that differ only by normalisation: caf\u00e9 in NFC (U+00E9) and in NFD (e + U+0301).",
    "flowspec: 1",
    "machines:",
    "  M:",
    "    initial: \"caf\u00e9\"",
    "    defaults: { kind: input }",
    "    states:",
    "      \"caf\u00e9\": { on: { go: done } }",
    "      \"cafe\u0301\": { on: { go: done } }",
    "      done: { kind: terminal }",
])
CASES["067-unicode-line-separators-in-comment.yaml"] = lf([
    "# A comment holding U+2028 (LINE SEPARATOR) here:\u2028and U+0085 (NEL) here:\u0085(not line breaks in YAML 1.2).",
] + FINDING)
CASES["068-unicode-line-separator-in-quoted.yaml"] = lf(
    ["# A double-quoted summary holding U+2028 (LINE SEPARATOR), then an unreachable state on line 11."]
    + FINDING[:3] + ["    summary: \"before\u2028after\""] + FINDING[3:])

# Invalid UTF-8.
def invalid(label, bad, where="name"):
    head = f"# Invalid UTF-8: {label}.\n".encode()
    if where == "comment":
        return head + b"# here: " + bad + b"\n" + lf(CLEAN)
    body = lf(CLEAN[:6]) + b"      a: { on: { go: b" + bad + b" } }\n" + lf(CLEAN[7:])
    return head + body

CASES["070-utf8-overlong.yaml"] = invalid("an overlong encoding of '/' (C0 AF) inside a target", b"\xc0\xaf")
CASES["071-utf8-lone-continuation.yaml"] = invalid("a lone continuation byte (80) inside a target", b"\x80")
CASES["072-utf8-truncated-at-end.yaml"] = (
    b"# Invalid UTF-8: the file ends in the middle of a three-byte sequence (E2 82).\n" + lf(CLEAN) + b"# \xe2\x82")
CASES["073-utf8-encoded-surrogate.yaml"] = invalid("an encoded UTF-16 surrogate (ED A0 80) inside a target", b"\xed\xa0\x80")
CASES["074-utf8-invalid-in-comment.yaml"] = invalid("an FF byte inside a comment", b"\xff", where="comment")
CASES["075-utf8-four-byte-overflow.yaml"] = invalid("a four-byte sequence beyond U+10FFFF (F4 90 80 80) inside a target", b"\xf4\x90\x80\x80")

# Byte-order marks and line endings.
CASES["076-bom-crlf-clean.yaml"] = BOM + lf(CLEAN).replace(b"\n", b"\r\n")
CASES["077-bom-cr-tabs-comments-clean.yaml"] = BOM + "\r".join([
    CLEAN[0] + "\t# a tab before this comment",
    "#\tcomment\tlines\twith\ttabs",
] + CLEAN[1:] + ["# a last comment\twith a tab", ""]).encode("utf-8")
CASES["078-bom-crlf-finding.yaml"] = BOM + lf(FINDING).replace(b"\n", b"\r\n")
CASES["079-cr-only-finding.yaml"] = lf(["# CR-only line endings (classic Mac OS), with an unreachable state on line 10."] + FINDING).replace(b"\n", b"\r")
CASES["080-mixed-line-endings-finding.yaml"] = b"".join(
    (line.encode() + ending) for line, ending in zip(
        ["# Mixed LF, CRLF and CR line endings, with an unreachable state on line 10."] + FINDING,
        [b"\n", b"\r\n", b"\r", b"\n", b"\r\n", b"\r", b"\n", b"\r\n", b"\r", b"\n"]))
CASES["081-utf16le-bom-clean.yaml"] = "\ufeff".encode("utf-16-le") + lf(CLEAN).decode().encode("utf-16-le")
CASES["082-utf16be-bom-finding.yaml"] = "\ufeff".encode("utf-16-be") + lf(
    ["# UTF-16 big-endian with a byte-order mark, with an unreachable state on line 10."] + FINDING
).decode().encode("utf-16-be")
CASES["083-only-bom.yaml"] = BOM
# Invalid UTF-16: an unpaired surrogate inside a target on line 8, and an odd last byte.
def utf16_with(comment, unit, big_endian):
    codec = "utf-16-be" if big_endian else "utf-16-le"
    head = lf([f"# {comment}"] + CLEAN[:6]).decode() + "      a: { on: { go: b"
    tail = " } }\n" + lf(CLEAN[7:]).decode()
    return ("\ufeff" + head).encode(codec) + unit.to_bytes(2, "big" if big_endian else "little") + tail.encode(codec)
CASES["133-utf16le-unpaired-high-surrogate.yaml"] = utf16_with(
    "UTF-16LE with a high surrogate (D83D) not followed by a low one, inside a target on line 8.", 0xD83D, False)
CASES["134-utf16be-unpaired-low-surrogate.yaml"] = utf16_with(
    "UTF-16BE with a low surrogate (DE00) not preceded by a high one, inside a target on line 8.", 0xDE00, True)
CASES["135-utf16le-odd-length.yaml"] = "\ufeff".encode("utf-16-le") + lf(
    ["# UTF-16LE whose last byte is half a code unit (the file has an odd length)."] + CLEAN
).decode().encode("utf-16-le") + b"x"
CASES["084-bom-twice.yaml"] = BOM + BOM + lf(CLEAN)

# NUL and other control bytes.
CASES["085-nul-at-start.yaml"] = b"\x00" + lf(CLEAN)
CASES["086-nul-in-middle.yaml"] = lf(["# A NUL byte in the middle of line 5."] + CLEAN[:3] + ["    initial: a"]).replace(
    b"initial: a", b"initial:\x00a") + lf(CLEAN[4:])
CASES["087-nul-in-quoted-scalar.yaml"] = lf(["# A raw NUL byte inside a double-quoted summary."] + CLEAN[:3]) + (
    b"    summary: \"before\x00after\"\n") + lf(CLEAN[3:])
CASES["088-control-characters.yaml"] = lf(["# Raw control bytes: a BEL (07) in a plain scalar on line 5."] + CLEAN[:3]) + (
    b"    summary: ring\x07bell\n") + lf(CLEAN[3:])
CASES["089-form-feed-and-vertical-tab.yaml"] = lf(["# A form feed (0C) and a vertical tab (0B) in a comment."]) + (
    b"# \x0c page \x0b tab\n") + lf(CLEAN)
CASES["090-delete-and-c1-controls.yaml"] = lf(["# A DEL (7F) and a C1 control (U+009B, CSI) inside a quoted target."] + CLEAN[:6]) + (
    "      a: { on: { go: \"b\x7f\u009b2J\" } }\n".encode("utf-8")) + lf(CLEAN[7:])

CASES["126-tab-indentation-after-bom.yaml"] = BOM + lf(CLEAN[:5] + ["    states:", "\ta: { kind: terminal }"])

# Empty and blank files.
CASES["091-empty-file.yaml"] = b""
CASES["092-whitespace-only.yaml"] = b"   \n\t\n  \r\n \r\n\n"

# Huge scalars and long lines.
LONG = "s" * (100 * 1024)
CASES["093-huge-state-name-100k.yaml"] = lf([
    "# A 100 KB state name (valid: ASCII letters, written as an explicit `?` key); checks clean.",
    "flowspec: 1",
    "machines:",
    "  M:",
    "    initial: a",
    "    defaults: { kind: input }",
    "    states:",
    f"      a: {{ on: {{ go: {LONG} }} }}",
    f"      ? {LONG}",
    "      : { kind: terminal }",
])
CASES["124-long-implicit-key.yaml"] = lf([
    "# A 1,100-character state name written as an implicit key (YAML allows at most 1024 characters there).",
    "flowspec: 1",
    "machines:",
    "  M:",
    "    initial: a",
    "    defaults: { kind: input }",
    "    states:",
    "      a: { on: { go: b } }",
    "      b: { kind: terminal }",
    "      " + "k" * 1100 + ": { kind: terminal }",
])
CASES["094-huge-scalar-2mb.yaml"] = lf([
    "# A 2 MB summary, beyond the 1 MiB scalar limit.",
    "flowspec: 1",
    "machines:",
    "  M:",
    "    summary: " + "x" * (2 * 1024 * 1024),
    "    initial: a",
    "    states:",
    "      a: { kind: terminal }",
])
CASES["095-very-long-line.yaml"] = lf([
    "# A 20,000-character flow line with an undefined target in its middle (the excerpt is clipped).",
    "flowspec: 1",
    "machines:",
    "  M:",
    "    initial: a",
    "    defaults: { kind: input }",
    "    states:",
    "      a: { on: { " + ", ".join(f"e{i}: b" for i in range(1200)) + ", lost: nowhere, "
    + ", ".join(f"f{i}: b" for i in range(1200)) + " } }",
    "      b: { kind: terminal }",
])
CASES["121-near-miss-long-names.yaml"] = lf([
    "# A 4,000-character target that differs by one letter from a 4,000-character state (a suggestion over long names).",
    "flowspec: 1",
    "machines:",
    "  M:",
    "    initial: a",
    "    defaults: { kind: input }",
    "    states:",
    "      a: { on: { go: " + "n" * 4000 + "x, stop: b } }",
    "      b: { kind: terminal }",
    "      ? " + "n" * 4000 + "y",
    "      : { kind: terminal }",
])
CASES["122-deep-flow-nesting-over-limit.yaml"] = lf([
    "# A target nested 300 flow lists deep (over the depth limit of 256).",
    "flowspec: 1",
    "machines:",
    "  M:",
    "    initial: a",
    "    states:",
    "      a: { on: { go: " + "[" * 300 + "b" + "]" * 300 + " } }",
])
CASES["123-deep-flow-mapping-nesting.yaml"] = lf([
    "# Mappings nested 5,000 deep in flow style, never closed.",
    "flowspec: 1",
    "machines: " + "{a: " * 5000,
])

if __name__ == "__main__":
    for name, data in sorted(CASES.items()):
        write(name, data)
    print(f"wrote {len(CASES)} files")
