#!/usr/bin/env python3
"""Records the answers of the host's xxd (vim-common 9.0, xxd 2022-01-14),
hexdump/hd (util-linux 2.38), cmp (diffutils 3.8), base32 and cksum
(coreutils 9.1), strings (binutils 2.40) and expr (coreutils 9.1) on fixture files into
tests/unit/bytes_cases.inc (included by test_bytes.c).

The tools are needed only to record, never by the test. Usage:
  python3 tests/unit/record_bytes.py > tests/unit/bytes_cases.inc
Each case runs in a scratch directory holding FILES, under LC_ALL=C (the
sandbox's default locale), with the given stdin.
"""
import os, subprocess, tempfile, sys

FILES = {
    "bx": b"hello world\0\x01\xff binary stuff here\n",
    "z.bin": b"ab" + b"\0" * 46 + b"cd",
    "t.txt": b"line one\nsecond line here\n\tTabbed\x01\x02binary\0\0more text\nlast",
    "c1": b"hello\nworld\n",
    "c2": b"hello\nwOrld\nmore\n",
    "c3": b"hel",
    "c4": b"",
    "c5": b"hexlo\nwOrld\n",
    "c6": b"hello\nworld\nmore",
    "c7": b"a\x01\xff\t\x7f\x80 b",
    "c8": b"abcdefghi",
    "sb": b"ab\x01hello\tworld\0xyz\0four\nfive5\r\nlonger string here\x80\xffABCD",
    "d.xxd": b"00000000: 6865 6c6c 6f0a                           hello.\n",
    "p.hex": b"68656c6c6f20\n776f726c640a\n",
    "wd": b"xx" + "hello wide".encode("utf-16-le") + b"\0\0\x01" + "BIG".encode("utf-16-be")
          + b"ab" + "four".encode("utf-16-be") + "utf32 text".encode("utf-32-le") + b"\0zzzz",
    "sums": b"MD5 (bx) = 5d27902652c0d072fa560cc3988896d3\n"
            b"MD5 (c1) = 00000000000000000000000000000000\n",
}

# (group, stdin or None, argv)
CASES = []
def add(group, *argv, stdin=None):
    CASES.append((group, stdin, list(argv)))

for a in (["bx"], ["-i", "bx"], ["-b", "-c4", "bx"], ["-g3", "-u", "bx"],
          ["-p", "bx"], ["-s", "5", "-l", "10", "bx"], ["-c", "5", "-g", "0", "bx"],
          ["-s", "-4", "bx"], ["-e", "bx"], ["-e", "-g", "2", "bx"],
          ["-a", "-c", "4", "z.bin"], ["-a", "z.bin"], ["-d", "-o", "100", "bx"],
          ["-i", "-C", "-n", "9foo", "bx"], ["-cols", "5", "-ps", "bx"],
          ["-s", "-100", "bx"], ["-s", "100", "bx"], ["-p", "-c", "0", "bx"],
          ["-b", "bx"], ["-u", "-i", "bx"], ["-e", "-g", "3", "bx"],
          ["-i", "t.txt"], ["-a", "t.txt"], ["nofile"], ["-c", "300", "bx"],
          ["-l", "0", "bx"], ["-r", "d.xxd"], ["-r", "-p", "p.hex"],
          ["-r", "-i", "bx"], ["-len", "3", "bx"], ["-s", "+2", "-l", "4", "bx"]):
    add("xxd", "xxd", *a)
add("xxd", "xxd", "-i", stdin=b"abc\n")
add("xxd", "xxd", "-s", "3", stdin=b"0123456789abcdef")
add("xxd", "xxd", "-s", "-3", stdin=b"0123456789abcdef")
add("xxd", "xxd", "-r", stdin=b"0000010: 41 42\n")
add("xxd", "xxd", "-r", "-s", "2", stdin=b"0: 4142\n10: 43\n")

for a in (["bx"], ["-C", "bx"], ["-C", "z.bin"], ["z.bin"], ["-n", "5", "bx"],
          ["-s", "3", "-n", "20", "-C", "bx"], ["-C", "t.txt"], ["-v", "-C", "z.bin"],
          ["-s", "100", "bx"], ["-c", "bx"], ["-b", "bx"], ["-d", "bx"], ["-o", "bx"],
          ["-x", "bx"], ["-C", "-c", "bx"], ["-b", "-c", "t.txt"], ["nofile"],
          ["-C", "nofile", "bx"], ["bx", "t.txt"], ["-C", "-s", "30", "bx", "t.txt"],
          ["-s", "0x10", "bx"], ["-x", "z.bin"], ["-C", "sb"], ["-c", "c7"]):
    add("hexdump", "hexdump", *a)
add("hexdump", "hd", "bx")
add("hexdump", "hd", "-c", "bx")
add("hexdump", "hexdump", stdin=b"a")
add("hexdump", "hexdump", "-C", stdin=b"")

for a in (["c1", "c2"], ["-b", "c1", "c2"], ["-l", "c1", "c2"], ["-lb", "c1", "c2"],
          ["c1", "c3"], ["c3", "c1"], ["c1", "c4"], ["-l", "c1", "c3"],
          ["-s", "c1", "c2"], ["-n", "7", "c1", "c2"], ["-n", "8", "c1", "c2"],
          ["c1", "c1"], ["c1", "nofile"], ["-l", "c1", "c5"], ["-bl", "c5", "c1"],
          ["-i", "1", "c1", "c2"], ["c1", "c2", "1", "1"], ["-i", "2:3", "c1", "c2"],
          ["-x", "c1", "c2"], ["c1", "c2", "c3", "c4", "c5"], ["-s", "c1", "c3"],
          ["--verbose", "c1", "c5"], ["--print-bytes", "c1", "c5"],
          ["-n", "x", "c1", "c2"], ["c1", "c2", "x"], ["c1", "c6"], ["-b", "c7", "c8"],
          ["-bl", "c7", "c8"], [], ["-i", "1K", "c1", "c2"], ["-s", "c1", "nofile"]):
    add("cmp", "cmp", *a)
add("cmp", "cmp", "c1", stdin=b"hello\nwOrld\nmore\n")
add("cmp", "cmp", "-l", "-", "c8", stdin=b"abc")

for s in (b"NBSWY3DP", b"NBSWY3DPEE======", b"NBSWY3D", b"NBSWY3DPE", b"NB!SWY3DP",
          b"NBSWY3DPEE======NBSW", b"nbswy3dp", b"NBSWY===", b"NB======", b"NB=A====",
          b"NB======NB======", b"NBSW\nY3DP\n", b"NB SWY3DP"):
    add("base32", "base32", "-d", stdin=s)
    add("base32", "base32", "-di", stdin=s)
add("base32", "base32", stdin=b"hello!")
add("base32", "base32", stdin=b"")
add("base32", "base32", "-w", "10", stdin=b"".join(b"%d\n" % i for i in range(1, 31)))
for a in (["-w", "x"], ["a", "b"], ["bx"], ["-w0", "t.txt"], ["nofile"]):
    add("base32", "base32", *a)

for a in (["bx", "t.txt"], ["-a", "md5", "--untagged", "bx", "-"], ["--tag", "bx"],
          ["--untagged", "bx"], ["-a", "bsd", "--tag", "bx"], ["-a", "blake2b", "-l", "12", "bx"],
          ["-a", "sha1", "-l", "128", "bx"], ["-a", "foo", "bx"], ["nofile", "bx"],
          ["-a", "sha2", "bx"], ["-w", "bx"], ["-a", "blake2b", "-l", "512", "bx"],
          ["-a", "md5", "-c", "sums"], ["-c", "sums"], ["-a", "sysv", "-c", "sums"],
          ["-a", "md5", "--quiet", "-c", "sums"]):
    add("cksum", "cksum", *a)
for alg in ("sysv", "bsd", "crc", "md5", "sha1", "sha224", "sha256", "sha384",
            "sha512", "blake2b", "sm3"):
    add("cksum", "cksum", "-a", alg, "bx", "t.txt")
    add("cksum", "cksum", "-a", alg, stdin=b"some input\n")
add("cksum", "cksum", stdin=b"")

for a in (["sb"], ["-n", "3", "sb"], ["-3", "sb"], ["-t", "x", "sb"], ["-t", "d", "-n", "2", "sb"],
          ["-to", "sb"], ["-f", "sb", "bx"], ["nofile"], ["-w", "sb"], ["-n", "0", "sb"],
          ["-n", "x", "sb"], ["-d", "sb"], ["--bytes=5", "sb"], ["-e", "S", "sb"],
          ["-s", ",", "sb"], ["-o", "sb"], ["t.txt", "bx"]):
    add("strings", "strings", *a)
add("strings", "strings", "-f", stdin=FILES["sb"])
for a in (["-e", "l", "wd"], ["-e", "b", "wd"], ["-e", "L", "wd"], ["-e", "B", "wd"],
          ["-el", "-t", "x", "-n", "3", "wd"], ["-e", "b", "-n", "1", "-td", "wd"],
          ["-eL", "-n", "1", "-tx", "wd"]):
    add("strings", "strings", *a)

EXPR = [
    "1 + 2", "5 / 0", "a + 1", "3 * 4", "10 % 3", "-7 / 2", "-7 % 2", "1 = 1",
    "a < b", "10 < 9", "10 < 9a", "abc : a\\(.\\)", "abc : a.", "abc : x",
    "abc : x\\(.\\)", "length abcd", "substr hello 2 3", "substr hello 0 2",
    "substr hello 5 9", "index hello lo", "index hello z", "match abc ab",
    "0 | 3", "2 & 3", "0 & 3", "1 +", "1 2", "( 1 + 2", "( 1 + 2 3", "",
    "+ length", "length", "00", "-0", "1 + 2 * 3", "( 1 + 2 ) * 3",
    "abc = abc", "01 = 1", "a != b", "5 >= 5", "-- 3", "--foo", "-3 + 1",
    "a\\( : x", "abc : a\\{1", "+1 + 1", "99999999999999999999 = 99999999999999999999",
    "substr abc 1 -1", "x : .*", "ab : \\(a\\)\\(b\\)", "x (", ")", "1 + 1 )",
    "( 2 )", "substr abc x 1", "abc : \\(x\\)*", "-- -- 2", "3 < 20",
    "aXb : .*X\\(.*\\)", "abc : *b", "a*c : a*", "^ab : ^a", "ab : a$", "a$ : a$",
    "1 | 1 / 0", "0 & 1 / 0", "100 > 99", "-5 < -10", "abc > abd", "1 - -1",
    "match aaa a*", "aaa : a\\{2\\}", "abc : ABC", "( ( 1 ) )", "length + length",
    "index + abc", "substr", "1 = 1 = 1", "2 > 1 > 0", "abc : \\(b\\)",
    "9223372036854775807 + 0", "-9223372036854775808 + 0", "1 <= 02",
    "99999999999999999998 < 99999999999999999999", "-1 < -01", "0 = -0",
    "length é", "substr éab 2 1", "1 / 0 | 1",
]
for e in EXPR:
    add("expr", "expr", *(e.split(" ") if e else []))
add("expr", "expr", "", "|", "0")
add("expr", "expr", "", "=", "0")
add("expr", "expr", "a\nb", ":", "a.b")

def cstr(b):
    out = '"'
    prev_hex = False
    for ch in b:
        c = chr(ch)
        if c == '\\': s = '\\\\'
        elif c == '"': s = '\\"'
        elif c == '\n': s = '\\n'
        elif c == '\t': s = '\\t'
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
    env = dict(os.environ, LC_ALL="C")
    print("/* Generated by tests/unit/record_bytes.py: do not edit. */")
    print("static const struct { const char *name; const char *data; size_t len; } bytes_files[] = {")
    for name, data in FILES.items():
        print("    {%s, %s, %d}," % (cstr(name.encode()), cstr(data), len(data)))
    print("};")
    groups = []
    for g, _, _ in CASES:
        if g not in groups:
            groups.append(g)
    for g in groups:
        print("static const bh_case bytes_%s[] = {" % g)
        for grp, stdin, argv in CASES:
            if grp != g:
                continue
            p = subprocess.run(argv, cwd=d, input=stdin or b"", capture_output=True, env=env)
            if b"\0" in p.stdout or b"\0" in p.stderr or (stdin and b"\0" in stdin):
                sys.stderr.write("skipped (NUL): %r\n" % argv)
                continue
            args = ", ".join(cstr(a.encode()) for a in argv)
            print("    BH_CASE(%s, %d, %s, %s, %s)," % (
                cstr(stdin) if stdin is not None else "NULL", p.returncode,
                cstr(p.stdout), cstr(p.stderr), args))
        print("};")

main()
