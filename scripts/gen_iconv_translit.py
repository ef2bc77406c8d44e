#!/usr/bin/env python3
"""Writes builtins/text/iconv/translit.inc: what glibc 2.36's iconv puts for
a character that //TRANSLIT replaces, recorded from the host's iconv (run
only here, never at build or test time).

Two tables. tr_c: the replacements of the C locale. tr_u: the exceptions of
a UTF-8 locale (C.UTF-8): there a character is first looked up in tr_u, then
replaced by its canonical decomposition without combining marks (computed
with utf8proc at run time, as iconv_translit() in translit.c does; each
non-ASCII piece looked up in tr_u, then tr_c), then looked up in tr_c. An
entry of tr_u with a NULL replacement means "none" (the '?'). tr_x holds,
for a UTF-8 locale and the targets ISO-8859-1, ISO-8859-15 and
Windows-1252, the replacements that use a character of the target itself
and so differ from the ASCII ones (recorded over U+00A0..U+2FFF and
U+FB00..U+FB4F).

Usage: python3 scripts/gen_iconv_translit.py > builtins/text/iconv/translit.inc
"""
import ctypes, subprocess, sys

U = ctypes.CDLL("libutf8proc.so.2")
U.utf8proc_decompose_char.restype = ctypes.c_ssize_t
U.utf8proc_category.restype = ctypes.c_int
DECOMPOSE = 1 << 4

def decompose(cp):
    buf = (ctypes.c_int32 * 32)()
    last = ctypes.c_int(0)
    n = U.utf8proc_decompose_char(cp, buf, 32, DECOMPOSE, ctypes.byref(last))
    return [buf[i] for i in range(n)] if n > 0 else [cp]

CPS = [c for c in range(0xA0, 0x30000) if not 0xD800 <= c < 0xE000]

def record(loc):
    data = "".join(chr(c) + "\n" for c in CPS).encode("utf-32-le")
    p = subprocess.run(["iconv", "-c", "-f", "UTF-32LE", "-t", "ASCII//TRANSLIT"],
                       input=data, capture_output=True, env={"LC_ALL": loc})
    lines = p.stdout.split(b"\n")
    assert len(lines) == len(CPS) + 1
    return {c: l.decode() for c, l in zip(CPS, lines) if l != b"?"}

def main():
    C = record("C")
    W = record("C.UTF-8")
    exc = {}

    def base(cp):
        if cp in exc:
            return exc[cp]
        return C.get(cp)

    def rule(cp):
        d = decompose(cp)
        if d == [cp]:
            return None
        out = ""
        for ch in d:
            if U.utf8proc_category(ch) in (6, 7, 8):
                continue
            if ch < 128:
                out += chr(ch)
                continue
            b = base(ch)
            if b is None:
                return None
            out += b
        return out if out else None

    def emulate(cp):
        if cp in exc:
            return exc[cp]
        r = rule(cp)
        return r if r is not None else C.get(cp)

    for _ in range(4):
        changed = False
        for cp in CPS:
            want = W.get(cp)
            if emulate(cp) != want:
                exc[cp] = want
                changed = True
        if not changed:
            break
    assert all(emulate(cp) == W.get(cp) for cp in CPS)

    def cstr(s):
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'

    # Targets with characters beyond ASCII: glibc may put one of those
    # first (U+02B9 is U+00B4 in ISO-8859-1, "'" in ASCII).
    targets = {"ICS_LATIN1": ("ISO-8859-1", "latin-1"),
               "ICS_LATIN9": ("ISO-8859-15", "iso8859-15"),
               "ICS_CP1252": ("WINDOWS-1252", "cp1252")}

    def has(pyenc, ch):
        try:
            chr(ch).encode(pyenc)
            return True
        except UnicodeEncodeError:
            return False

    def emulate_to(cp, pyenc):
        if cp in exc:
            r = exc[cp]
        else:
            r = None
            d = decompose(cp)
            if d != [cp]:
                out = ""
                ok = True
                for ch in d:
                    if U.utf8proc_category(ch) in (6, 7, 8):
                        continue
                    if ch < 128 or has(pyenc, ch):
                        out += chr(ch)
                        continue
                    b = base(ch)
                    if b is None:
                        ok = False
                        break
                    out += b
                if ok and out:
                    r = out
            if r is None:
                r = C.get(cp)
        return "?" if r is None else r

    alt = []
    subset = [c for c in CPS if c < 0x3000 or 0xFB00 <= c < 0xFB50]
    for cs, (name, pyenc) in targets.items():
        todo = [c for c in subset if not has(pyenc, c)]
        data = "".join(chr(c) + "\n" for c in todo).encode("utf-8")
        p = subprocess.run(["iconv", "-f", "UTF-8", "-t", name + "//TRANSLIT"],
                           input=data, capture_output=True, env={"LC_ALL": "C.UTF-8"})
        lines = p.stdout.split(b"\n")
        assert len(lines) == len(todo) + 1
        for c, l in zip(todo, lines):
            got = l.decode(pyenc)
            if got != emulate_to(c, pyenc):
                alt.append((c, cs, got))

    def marked(s):
        out = ""
        for ch in s:
            o = ord(ch)
            if o < 128:
                out += ch.replace("\\", "\\\\").replace('"', '\\"')
            else:
                out += '\\x80\\x%02x\\x%02x\\x%02x""' % (o >> 16, (o >> 8) & 255, o & 255)
        return '"' + out + '"'

    def table(name, m):
        print("static const iconv_tr %s[] = {" % name)
        items = sorted(m.items())
        for i in range(0, len(items), 4):
            print("    " + " ".join("{0x%X, %s}," % (c, cstr(v) if v is not None else "NULL")
                                  for c, v in items[i:i + 4]))
        print("};")

    print("/* Generated by scripts/gen_iconv_translit.py from glibc 2.36's iconv:")
    print(" * do not edit. */")
    table("tr_c", C)
    table("tr_u", exc)
    print("/* UTF-8 locale, targets beyond ASCII: what differs from the above;")
    print(" * \\x80 and three bytes stand for a code point of the target. */")
    print("static const iconv_tr_alt tr_x[] = {")
    for c, cs, got in sorted(alt):
        print("    {0x%X, %s, %s}," % (c, cs, marked(got)))
    print("};")
    print("%d %d %d" % (len(C), len(exc), len(alt)), file=sys.stderr)

main()
