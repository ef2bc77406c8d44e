#!/usr/bin/env python3
"""Records the answers of the host's iconv (glibc 2.36, Debian 12) on
fixture files into tests/unit/iconv_cases.inc (included by test_iconv.c).

iconv is needed only to record, never by the test. Usage:
  python3 tests/unit/record_iconv.py > tests/unit/iconv_cases.inc
Each case runs in a scratch directory holding FILES, under the given
LC_ALL, with the given stdin; a case naming an output file (-o) records its
content too.
"""
import os, subprocess, tempfile

U8 = "café € “hi” ﬁ œ ß 中 Ærøskøbing ǣ Ŧ ½ ™ — … ©\n".encode()
FILES = {
    "u.txt": U8,
    "bad.txt": b"a\xffb\xc3\xa9\n",
    "inc.txt": b"ab\xc3",
    "x.txt": b"x\n",
    "l1.txt": bytes(range(0x20, 0x7f)) + bytes(range(0xa0, 0x100)) + b"\n",
    "cp.txt": bytes(range(0x80, 0xa0)),
    "u16.txt": "\ufeffhé😀\n".encode("utf-16-le"),
    "u16be.txt": "\ufeffhé😀\n".encode("utf-16-be"),
    "u16nb.txt": "hé😀\n".encode("utf-16-le"),
    "u32.txt": "\ufeffhé😀\n".encode("utf-32-be"),
    "emoji.txt": "a😀b\n".encode(),
    "sur.txt": b"a\xed\xa0\x80b",
    "over.txt": b"a\xc0\x80b",
    "odd16.txt": b"a\0b",
    "lone.txt": b"a\0\x00\xd8b\0",
    "big.txt": b"\x00\x00\x11\x00",
    "empty.txt": b"",
    "one_e.txt": "é".encode(),
    "ucs4big.txt": b"a\0\0\0\0\0\x11\0\0\0\0\x40",
    "ucs4bad.txt": b"a\0\0\0\0\0\0\x80",
    "ign_inc.txt": "aé".encode("utf-16-le") + b"x",
    "u8_inc2.txt": b"\xd7uu\xe8",
    "u8_f5.txt": b"ab\xf5\x80",
    "alt.txt": "ʹ ℃ · ∙ ǅ x\n".encode(),
    "ucs2sur.txt": b"\x00a\xd8\x3d\xde\x00\x00b",
}
CASES = []
def add(loc, *argv, stdin=None, out=None):
    CASES.append((loc, stdin, list(argv), out))

C = "C"
for t in ("ASCII//TRANSLIT", "ascii//translit", "LATIN1//TRANSLIT", "ISO-8859-15//TRANSLIT",
          "CP1252//TRANSLIT", "US-ASCII//TRANSLIT//IGNORE", "UCS-2//TRANSLIT"):
    add(C, "iconv", "-f", "UTF-8", "-t", t, "u.txt")
    add("C.UTF-8", "iconv", "-f", "UTF-8", "-t", t, "u.txt")
for a in (["-f", "UTF-8", "-t", "ASCII", "u.txt"], ["-c", "-f", "UTF-8", "-t", "ASCII", "u.txt"],
          ["-f", "UTF-8", "-t", "ASCII//IGNORE", "u.txt"], ["-f", "UTF-8", "-t", "LATIN1", "u.txt"],
          ["-c", "-f", "utf8", "-t", "latin1", "u.txt"], ["-f", "UTF-8", "-t", "ISO-8859-15", "u.txt"],
          ["-f", "UTF-8", "-t", "WINDOWS-1252", "-c", "u.txt"],
          ["-c", "-f", "UTF-8", "-t", "ASCII", "bad.txt"], ["-f", "UTF-8", "-t", "LATIN1//IGNORE", "bad.txt"],
          ["-f", "UTF-8", "-t", "LATIN1", "bad.txt", "x.txt"], ["-f", "UTF-8", "-t", "LATIN1", "nofile", "x.txt"],
          ["-f", "UTF-8", "-t", "LATIN1", "inc.txt", "x.txt"], ["-c", "-f", "UTF-8", "-t", "LATIN1", "inc.txt"],
          ["-f", "UTF-8//IGNORE", "-t", "LATIN1", "bad.txt"], ["-f", "UTF-16", "-t", "UTF-8", "inc.txt"],
          ["-t", "ASCII", "bad.txt"], ["-f", "ASCII", "-t", "UTF-8", "bad.txt"],
          ["-f", "LATIN1", "-t", "UTF-8", "l1.txt"], ["-f", "ISO-8859-15", "-t", "UTF-8", "l1.txt"],
          ["-f", "CP1252", "-t", "UTF-8", "l1.txt"], ["-f", "CP1252", "-t", "UTF-8", "cp.txt"],
          ["-c", "-f", "MS-ANSI", "-t", "UTF-8", "cp.txt"], ["-f", "L1", "-t", "UTF-16", "cp.txt"],
          ["-f", "UTF-16", "-t", "UTF-8", "u16.txt"], ["-f", "UTF-16", "-t", "UTF-8", "u16be.txt"],
          ["-f", "UTF-16", "-t", "UTF-8", "u16nb.txt"], ["-f", "UTF-16LE", "-t", "UTF-8", "u16.txt"],
          ["-f", "UTF-16BE", "-t", "UTF-8", "u16be.txt"], ["-f", "UTF-32", "-t", "UTF-8", "u32.txt"],
          ["-f", "UCS-4", "-t", "UTF-8", "u32.txt"], ["-f", "UCS-2", "-t", "UTF-8", "u16.txt"],
          ["-f", "UTF-8", "-t", "UTF-16", "x.txt", "x.txt"], ["-f", "UTF-8", "-t", "UTF-16", "empty.txt"],
          ["-f", "UTF-8", "-t", "UTF-32", "u.txt"], ["-f", "UTF-8", "-t", "UTF-16BE", "u.txt"],
          ["-f", "UTF-8", "-t", "UTF-16LE", "emoji.txt"], ["-f", "UTF-8", "-t", "UCS-2", "emoji.txt"],
          ["-f", "UTF-8", "-t", "UCS-2BE", "u.txt"], ["-f", "UTF-8", "-t", "UCS-4", "x.txt"],
          ["-f", "UTF-8", "-t", "UCS-4LE", "x.txt"], ["-f", "UTF-8", "-t", "UTF-32BE", "x.txt"],
          ["-f", "UTF-8", "-t", "WCHAR_T", "x.txt"], ["-f", "UTF-8", "-t", "UNICODEBIG", "x.txt"],
          ["-f", "UTF-8", "-t", "UTF-16", "sur.txt"], ["-f", "UTF-8", "-t", "UTF-16", "over.txt"],
          ["-c", "-f", "UTF-8", "-t", "UTF-8", "sur.txt"],
          ["-f", "UTF-16LE", "-t", "UTF-8", "odd16.txt"], ["-f", "UTF-16LE", "-t", "UTF-8", "lone.txt"],
          ["-f", "UTF-32LE", "-t", "UTF-8", "big.txt"], ["-f", "UTF-8", "-t", "UTF-8", "bad.txt"],
          ["-f", "ISO-10646/UTF-8/", "-t", "ISO_8859-1:1987", "x.txt"],
          ["-f", "FOO", "-t", "ASCII", "x.txt"], ["-f", "UTF-8", "-t", "BAR", "x.txt"],
          ["--from-code=UTF-8", "--to-code=LATIN1", "x.txt"], ["--from=UTF-8", "--to=ascii", "-", "x.txt"],
          ["-x"], ["--bogus"], ["-f"], ["--usage"], ["--verbose", "-f", "UTF-8", "-t", "ASCII", "x.txt", "x.txt"],
          ["-s", "-f", "UTF-8", "-t", "ASCII", "bad.txt"], ["-t", "ascii", "x.txt"],
          ["-f", "UTF-8", "-t", "ASCII", "."], ["x.txt"], ["u.txt"], ["-f", "utf-8", "u.txt"],
          ["-f", "UTF-8", "-t", "LATIN1", "-o", "o1", "x.txt"], ["-f", "UTF-8", "-t", "LATIN1", "-o", "o2", "bad.txt"]):
    out = a[a.index("-o") + 1] if "-o" in a else None
    add(C, "iconv", *a, out=out)
for a in (["-c", "-f", "UTF-8", "-t", "ASCII", "one_e.txt", "x.txt"],
          ["-c", "-f", "UTF-8", "-t", "ASCII", "one_e.txt"],
          ["-f", "UCS-4LE", "-t", "UTF-8", "ucs4big.txt"], ["-f", "UCS-4LE", "-t", "UTF-16LE", "ucs4big.txt"],
          ["-c", "-f", "UCS-4LE", "-t", "UTF-16LE", "ucs4big.txt"],
          ["-f", "UCS-4LE", "-t", "LATIN1//TRANSLIT", "ucs4big.txt"], ["-f", "UCS-4LE", "-t", "UTF-8", "ucs4bad.txt"],
          ["-c", "-f", "UCS-4LE", "-t", "UTF-8", "ucs4bad.txt"],
          ["-f", "UTF-16LE", "-t", "ASCII//IGNORE", "ign_inc.txt"], ["-f", "UTF-8", "-t", "UTF-8//IGNORE", "u8_inc2.txt"],
          ["-f", "UTF-8", "-t", "LATIN1", "u8_f5.txt"], ["-c", "-f", "UTF-8", "-t", "LATIN1", "u8_f5.txt"],
          ["-f", "UCS-2BE", "-t", "UTF-8//IGNORE", "ucs2sur.txt"], ["-f", "UCS-2BE", "-t", "UTF-8", "ucs2sur.txt"]):
    add(C, "iconv", *a)
for t in ("ASCII", "LATIN1", "ISO-8859-15", "CP1252"):
    add("C.UTF-8", "iconv", "-f", "UTF-8", "-t", t + "//TRANSLIT", "alt.txt")
    add(C, "iconv", "-f", "UTF-8", "-t", t + "//TRANSLIT", "alt.txt")
add("C.UTF-8", "iconv", "-t", "LATIN1", "u.txt")
add("C.UTF-8", "iconv", "-f", "LATIN1", "l1.txt")
add(C, "iconv", "-f", "UTF-8", "-t", "ASCII//TRANSLIT", stdin="naïve café Œuvre\n".encode())
add(C, "iconv", "-f", "UTF-8", "-t", "UTF-16", stdin=b"ok\n")

def cstr(b):
    out = '"'
    prev_hex = False
    for ch in b:
        c = chr(ch)
        if c == '\\': s = '\\\\'
        elif c == '"': s = '\\"'
        elif c == '\n': s = '\\n'
        elif c == '?': s = '\\?'
        elif 32 <= ch < 127:
            s = c
            if prev_hex and c in '0123456789abcdefABCDEF':
                s = '""' + c
        else:
            s = '\\x%02x' % ch
        prev_hex = s.startswith('\\x')
        out += s
    return out + '"'

def main():
    d = tempfile.mkdtemp()
    for name, data in FILES.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    print("/* Generated by tests/unit/record_iconv.py: do not edit. */")
    print("static const struct { const char *name; const char *data; size_t len; } iconv_files[] = {")
    for name, data in FILES.items():
        print("    {%s, %s, %d}," % (cstr(name.encode()), cstr(data), len(data)))
    print("};")
    print("static const ic_case iconv_cases[] = {")
    for loc, stdin, argv, outf in CASES:
        if outf and os.path.exists(os.path.join(d, outf)):
            os.unlink(os.path.join(d, outf))
        p = subprocess.run(argv, cwd=d, input=stdin or b"", capture_output=True,
                           env={"LC_ALL": loc, "PATH": os.environ["PATH"]})
        fdata = None
        if outf and os.path.exists(os.path.join(d, outf)):
            fdata = open(os.path.join(d, outf), "rb").read()
        args = ", ".join(cstr(a.encode()) for a in argv)
        print("    {%s, %s, %d, %d, %s, %d, %s, %s, %s, %d, {%s}}," % (
            cstr(loc.encode()), cstr(stdin) if stdin is not None else "NULL",
            len(stdin or b""), p.returncode, cstr(p.stdout), len(p.stdout),
            cstr(p.stderr), cstr(outf.encode()) if outf else "NULL",
            cstr(fdata) if fdata is not None else "NULL", len(fdata or b""), args))
    print("};")

main()
