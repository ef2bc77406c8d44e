#!/usr/bin/env python3
"""Records the answers of the host's join and split (coreutils 9.1) and
column (util-linux 2.38.1) on fixture files into
tests/unit/join_column_split_cases.inc (included by
test_join_column_split.c).

The tools are needed only to record, never by the test. Usage:
  python3 tests/unit/record_text3.py > tests/unit/join_column_split_cases.inc
Each case runs in a fresh scratch directory holding FILES, under LC_ALL=C
(the sandbox's default locale; the *_utf8 groups under LC_ALL=C.UTF-8),
with the given stdin (a pipe). For split, the files a run leaves beside the
fixtures are recorded too, each as "== NAME ==\\n" and its bytes, in name
order.
"""
import os, shutil, subprocess, sys, tempfile

FILES = {
    "j1": b"a 1\nb 2\nc 3\ne 5\n",
    "j2": b"a x\nc z\nd w\ne v\n",
    "jdup1": b"a 1\na 2\nb 3\n",
    "jdup2": b"a x\na y\nb z\nb zz\n",
    "jcsv1": b"id,name\n1,ann\n2,bob\n4,dan\n",
    "jcsv2": b"id,age\n1,30\n3,50\n4,44\n",
    "jblank": b"  a   1  \n\tb\t2\n\nc 3 extra\n",
    "jblank2": b"a p\nb q\nc r\n",
    "junsorted": b"b 2\na 1\nc 3\n",
    "jcase1": b"A 1\nb 2\nC 3\n",
    "jcase2": b"a x\nB y\nc z\n",
    "jf2": b"x a 1\ny b 2\nz c 3\n",
    "jempty": b"",
    "jnonl": b"a 1\nb 2",
    "jz1": b"a 1\0b 2\0",
    "jz2": b"a x\0b y\0",
    "jkeys": b" x\n1 y\n",
    "jhead1": b"K V1\nb 1\na 2\n",
    "jhead2": b"K V2\na 9\n",
    "jtab": b"a\tb c\td\n",
    "c1": b"a b c\nddd e\n\nf gg hhhh iiiii\n",
    "c2": b"a  b   c d\n  x y\n\n\nz\n",
    "ccsv": b"name,age,city\nann,30,paris\nbob,,rome\ncarol,44\n,5,x\n",
    "ctrail": b"a,\nb,c,\n , ,b\n",
    "cblank": b"\n  \n\n",
    "cnum": b"".join(b"%d\n" % i for i in range(1, 41)),
    "cwords": b"apple\nbanana\ncherry\ndate\nelderberry\nfig\ngrape\n"
              b"honeydew\nkiwi\nlemon\nmango\nnectarine\n",
    "clong": b"x" * 90 + b"\nshort\n",
    "chigh": b"caf\xc3\xa9 ok\nna\xefve x\n",
    "cjson": b"a b\nc\n\"q\\ \x01\n",
    "cwide": "\u4e2d\u6587 x\nab y\n\u00e9t\u00e9 z\n".encode(),
    "s10": b"".join(b"%d\n" % i for i in range(1, 11)),
    "s30": b"".join(b"%d\n" % i for i in range(1, 31)),
    "sbytes": bytes(range(97, 123)) * 3 + b"\n",
    "slong": b"aa\nbbbbbbbbbbbb\ncc\ndddd\n\neeeeeee\nf",
    "s700": b"y" * 700,
    "scomma": b"a,b,c,d,e",
    "stwo": b"ab",
}

CASES = []  # (group, stdin, argv, env)


def add(group, *argv, stdin=None, env=None):
    CASES.append((group, stdin, list(argv), env or {}))


# ---- join -------------------------------------------------------------------
for a in (["j1", "j2"], ["-a1", "j1", "j2"], ["-a", "2", "j1", "j2"],
          ["-a1", "-a2", "j1", "j2"], ["-v1", "j1", "j2"], ["-v", "2", "j1", "j2"],
          ["-v1", "-v2", "j1", "j2"], ["-a1", "-e", "EMPTY", "-o", "0,1.2,2.2", "j1", "j2"],
          ["-o", "2.2,1.1", "j1", "j2"], ["-o", "1.2 2.2", "j1", "j2"],
          ["-o", "0", "-a2", "j1", "j2"], ["-o", "auto", "-a1", "-a2", "-e", "-", "j1", "j2"],
          ["-o", "auto", "jblank", "jblank2"], ["jdup1", "jdup2"], ["-v1", "jdup1", "jdup2"],
          ["-t", ",", "jcsv1", "jcsv2"], ["-t", ",", "--header", "jcsv1", "jcsv2"],
          ["-t", ",", "--header", "-a1", "-a2", "-e", "NA", "-o", "auto", "jcsv1", "jcsv2"],
          ["--header", "-a1", "jhead1", "jhead2"], ["--header", "jhead1", "jhead2"],
          ["jblank", "jblank2"], ["-a1", "-a2", "jblank", "jblank2"],
          ["junsorted", "j2"], ["--check-order", "junsorted", "j2"],
          ["--nocheck-order", "junsorted", "j2"], ["--check-order", "j1", "j1"],
          ["junsorted", "junsorted"], ["-a1", "junsorted", "j2"],
          ["-i", "jcase1", "jcase2"], ["jcase1", "jcase2"], ["--ignore-case", "-a2", "jcase1", "jcase2"],
          ["-1", "2", "jf2", "j2"], ["-1", "2", "-2", "1", "-o", "1.1,1.3,2.2", "jf2", "j2"],
          ["-j", "1", "j1", "j2"], ["-j1", "j1", "j2"], ["-2", "1", "-1", "1", "j1", "j2"],
          ["j1", "jempty"], ["-a1", "j1", "jempty"], ["-v2", "jempty", "j2"],
          ["jnonl", "j1"], ["-z", "jz1", "jz2"], ["-a1", "jkeys", "jkeys"],
          ["-t", "", "j1", "j1"], ["-t", "", "-o", "1.1,2.1", "j1", "j1"],
          ["-t", "\t", "jtab", "jtab"], ["-t", "\\0", "j1", "j1"],
          ["-e", "X", "-o", "1.5,2.9", "j1", "j2"],
          # errors
          [], ["j1"], ["j1", "j2", "j3"], ["-", "-"], ["nofile", "j2"], ["j1", "nofile"],
          ["-t", "ab", "j1", "j2"], ["-t", ",", "-t", ":", "j1", "j2"],
          ["-o", "3.1", "j1", "j2"], ["-o", "1.0", "j1", "j2"], ["-o", "1", "j1", "j2"],
          ["-o", "0.1", "j1", "j2"], ["-o", "1.x", "j1", "j2"], ["-1", "0", "j1", "j2"],
          ["-j", "x", "j1", "j2"], ["-1", "1", "-1", "2", "j1", "j2"],
          ["-v", "3", "j1", "j2"], ["-a", "x", "j1", "j2"], ["-e", "a", "-e", "b", "j1", "j2"],
          ["-x", "j1", "j2"], ["--bogus", "j1", "j2"], ["-1"],
          ["--check", "junsorted", "j2"], ["--header", "--nocheck", "junsorted", "j2"],
          # the obsolete -j1 FIELD, -j2 FIELD and -o LIST LIST forms
          ["-j1", "2", "jf2", "j2"], ["-j1", "2", "-j2", "1", "jf2", "j2"],
          ["-j2", "1", "j2", "jf2"], ["-j2", "jf2", "jf2"], ["-o", "1.1", "2.2", "j1", "j2"],
          ["-o", "1.1", "2.2", "1.2", "j1", "j2"], ["-o", "1.1", "j1", "j2", "x"],
          ["j1", "-o", "1.2", "j2", "2.1"], ["-j1", "3", "jf2", "j2", "j2"],
          ["-j1", "0", "jf2", "j2"]):
    add("join", "join", *a)
add("join", "join", "-", "j2", stdin=b"a 1\nc 3\n")
add("join", "join", "j1", "-", stdin=b"b 7\nc 8\n")
add("join", "join", "-", "j2", stdin=b"c 3\na 1\nz 9\n")
add("join", "join", "-a1", "-t", ",", "-", "jcsv2", stdin=b"1,x,y\n2,,\n")

# ---- column -----------------------------------------------------------------
for a in (["c1"], ["-x", "c1"], ["-c", "20", "c1"], ["-x", "-c", "20", "c1"],
          ["cnum"], ["-x", "cnum"], ["-c", "30", "cnum"], ["-x", "-c", "30", "cnum"],
          ["-c", "0", "cnum"], ["cwords"], ["-x", "cwords"], ["-c", "40", "cwords"],
          ["-c", "17", "cwords"], ["clong"], ["c2"], ["cwords", "cnum"],
          ["-t", "c1"], ["-t", "c2"], ["-t", "-L", "c2"], ["-t", "-l", "2", "c2"],
          ["-t", "-l", "1", "c1"], ["-t", "-s", ",", "ccsv"], ["-t", "-s", ",", "-o", " | ", "ccsv"],
          ["-t", "-s", ", ", "ccsv"], ["-t", "-o", "|", "c1"], ["-t", "-o", "", "c1"],
          ["-t", "-N", "A,B,C,D", "c1"], ["-t", "-N", "A,B", "c1"], ["-t", "-N", "A,B", "-d", "c1"],
          ["-t", "-R", "2", "c1"], ["-t", "-R", "1,4", "-N", "W,X,Y,ZZZZZZ", "c1"],
          ["-t", "-R", "x", "c1"], ["-t", "-N", "p,q,r", "-R", "Q", "c1"], ["-t", "-R", "9", "c1"],
          ["-t", "-N", "a,b,c,d", "-H", "b,4", "c1"], ["-t", "-N", "a,b,c", "-O", "c,a", "c1"],
          ["-t", "-O", "3", "c1"], ["-t", "-s", ",", "-N", "N,A,C", "-O", "C", "-R", "A", "ccsv"],
          ["-t", "-e", "c1"], ["-t", "-c", "10", "c1"], ["-t", "chigh"], ["chigh"],
          ["-J", "-N", "x,y", "cjson"], ["-J", "-N", "x,y", "-n", "Tab", "cjson"],
          ["-J", "-s", ",", "-N", "Name,Age,City", "ccsv"], ["-t", "-J", "-N", "a", "-L", "c2"],
          ["-J", "-N", "a,b", "-H", "1", "cjson"], ["-J", "-N", "x", "c1"], ["-J", "c1"],
          ["-t", "-s", "", "c1"], ["-t", "-s", "a", "c1"],
          ["-t", "-s", ",", "ctrail"], ["-t", "-s", ", ", "-o", "|", "ctrail"],
          ["-t", "-s", ",", "-l", "2", "ctrail"], ["-t", "-L", "cblank"], ["-t", "cblank"],
          ["cblank"], ["-t", "-L", "-N", "a", "cblank"],
          # errors
          ["nofile"], ["nofile", "c1"], ["no file", "c1"], ["-N", "a,b", "c1"], ["-R", "1", "c1"],
          ["-c", "x", "c1"], ["-c", "-1", "c1"], ["-t", "-l", "0", "c1"], ["-t", "-l", "x", "c1"],
          ["-Z", "c1"], ["--bogus", "c1"], ["-t", "-c"]):
    add("column", "column", *a)
add("column", "column", stdin=b"one\ntwo\nthree\n")
add("column", "column", "-t", stdin=b"k v\nkey value\n")
add("column", "column", "-t", "-", "c1", stdin=b"k v\n")
add("column", "column", "cnum", env={"COLUMNS": "30"})
add("column", "column", "-t", "c1", env={"COLUMNS": "5"})
add("column", "column", "-c", "50", "cnum", env={"COLUMNS": "30"})
for a in (["cwide"], ["-t", "cwide"], ["-t", "-R", "1", "cwide"], ["chigh"], ["-t", "chigh"],
          ["-x", "-c", "20", "cwide"], ["-t", "-s", "\u6587", "cwide"]):
    add("column_utf8", "column", *a, env={"LC_ALL": "C.UTF-8"})

# ---- split ------------------------------------------------------------------
for a in (["s10"], ["-l", "3", "s10"], ["-l", "3", "--verbose", "s10", "p"],
          ["-l", "4", "-d", "s10"], ["-l", "4", "-x", "s10", "h"],
          ["-l", "1", "--numeric-suffixes=7", "s10"], ["-l", "4", "--numeric-suffixes=03", "-a", "3", "s10"],
          ["-l", "2", "--hex-suffixes=9", "--verbose", "s10"],
          ["-l", "1", "-a", "1", "s30"], ["-l", "1", "-a", "1", "-d", "s30"],
          ["-l", "1", "--numeric-suffixes=7", "-a", "1", "s10"],
          ["-b", "1", "s700"], ["-b", "7", "-d", "-a", "1", "s700"],
          ["-b", "10", "sbytes"], ["-b", "1K", "s700"], ["-b", "0.5K", "s700"],
          ["-b", "1b", "s700"], ["-b", "1KB", "s700"], ["-b", "x", "s10"], ["-b", "0", "s10"],
          ["-b", "-3", "s10"], ["-b", "99999999999999999999", "s10"], ["-b", "1Q", "s10"],
          ["-C", "5", "slong"], ["-C", "3", "slong"], ["-C", "20", "--verbose", "slong"],
          ["-C", "1", "slong"],
          ["-n", "3", "s10"], ["-n", "3", "--verbose", "sbytes"], ["-n", "5", "stwo"],
          ["-n", "5", "-e", "stwo"], ["-n", "2/3", "s10"], ["-n", "3/3", "s10"],
          ["-n", "l/3", "s30"], ["-n", "l/3", "slong"], ["-n", "l/2/3", "s30"],
          ["-n", "l/5", "--verbose", "slong"], ["-n", "l/5", "-e", "slong"],
          ["-n", "l/4/5", "slong"], ["-n", "l/1/5", "slong"],
          ["-n", "r/3", "s10"], ["-n", "r/3", "--verbose", "-a", "3", "--additional-suffix=.txt", "s10"],
          ["-n", "r/2/3", "s10"], ["-n", "r/4", "-e", "stwo"], ["-n", "r/4", "stwo"],
          ["-n", "12", "s10"], ["-n", "30", "-a", "1", "s10"], ["-n", "4/3", "s10"], ["-n", "0", "s10"],
          ["-n", "x", "s10"], ["-n", "l/x", "s10"], ["-n", "3/2/1", "s10"], ["-n", "0/2", "s10"],
          ["-t", ",", "-l", "2", "scomma"], ["-t", ",", "-n", "l/2", "scomma"],
          ["-t", "xy", "s10"], ["-t", "", "s10"], ["-t", ",", "-t", ":", "s10"],
          ["-3", "s10"], ["-l", "3", "-b", "3", "s10"], ["-l", "0", "s10"], ["-l", "x", "s10"],
          ["-a", "x", "s10"], ["-a", "0", "-l", "5", "s10"], ["s10", "p", "q"], ["nofile"],
          ["--numeric-suffixes=x", "s10"], ["--numeric-suffixes=100", "s10"],
          ["--additional-suffix=a/b", "s10"], ["-Z", "s10"], ["--bogus", "s10"],
          ["-e", "-l", "4", "s10", "out."], ["-u", "-l", "5", "s10"], ["s10", "-"],
          ["-b", "1", "-d", "s700", "n"], ["-l", "1", "s10", "s"], ["-l", "1", "s10", "s1"],
          ["-l", "1", "-d", "-a", "1", "s10", "s1"],
          ["-l", "1", "s10", "nodir/x"], ["-n", "r/3/2", "s10"], ["-n", "l/0", "s10"],
          ["-n", "2", "-e", "jempty"], ["-n", "2", "jempty"], ["-n", "r/2", "jempty"],
          ["-n", "l/3", "jempty"], ["jempty"], ["-b", "K", "s700"], ["-b", "2MiB", "s10"],
          ["-b", "1Z", "s10"], ["-C", "0", "s10"], ["-n", "1/1", "s10"], ["-n", "l/1/1", "s10"],
          ["-n", "r/1/1", "s10"], ["-n", "l/3/3", "s10"], ["-n", "3/3", "stwo"],
          ["-5", "-3", "s10"], ["-35", "s30"], ["-l", "2", "-5", "s10"]):
    add("split", "split", *a)
add("split", "split", "-l", "4", stdin=b"".join(b"%d\n" % i for i in range(1, 10)))
add("split", "split", "-l", "2", "-", "in-", stdin=b"a\nb\nc\n")
add("split", "split", "-n", "2", stdin=b"abc\n")
add("split", "split", "-n", "r/2", stdin=b"a\nb\nc\n")
add("split", "split", "-b", "3", stdin=b"abcdefgh")
add("split", "split", "-C", "4", stdin=b"abcdefgh\nij\n")
add("split", "split", "-l", "1", "--verbose", "-", "p '$q", stdin=b"a\nb\n")
add("split", "split", "-l", "1", "--verbose", "-", "p'q", stdin=b"a\n")
for pre in ("a\tb", "x'\ty", "\u00e9", "a\\b", "p$q"):
    add("split", "split", "-l", "1", "--verbose", "-", pre, stdin=b"a\n")
add("split", "split", "-n", "r/2", "-", stdin=b"")
add("split", "split", stdin=b"")


def cstr(b):
    out = '"'
    prev_hex = False
    for ch in b:
        c = chr(ch)
        if c == '\\':
            s = '\\\\'
        elif c == '"':
            s = '\\"'
        elif c == '\n':
            s = '\\n'
        elif c == '\t':
            s = '\\t'
        elif 32 <= ch < 127:
            s = c
            if prev_hex and c in '0123456789abcdefABCDEF':
                s = '""' + c
        else:
            s = '\\x%02x' % ch
        prev_hex = s.startswith('\\x')
        out += s
    return out + '"'


def run(stdin, argv, env):
    d = tempfile.mkdtemp()
    try:
        for name, data in FILES.items():
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
        e = {"PATH": os.environ["PATH"], "LC_ALL": "C"}
        e.update(env)
        p = subprocess.run(argv, cwd=d, input=stdin or b"", capture_output=True, env=e)
        files = b""
        for name in sorted(os.listdir(d)):
            if name in FILES:
                continue
            with open(os.path.join(d, name), "rb") as f:
                files += b"== " + name.encode() + b" ==\n" + f.read()
        return p, files
    finally:
        shutil.rmtree(d)


def main():
    print("/* Generated by tests/unit/record_text3.py: do not edit. */")
    print("static const struct { const char *name; const char *data; size_t len; } "
          "t3_files[] = {")
    for name, data in FILES.items():
        print("    {%s, %s, %d}," % (cstr(name.encode()), cstr(data), len(data)))
    print("};")
    groups = []
    for g, _, _, _ in CASES:
        if g not in groups:
            groups.append(g)
    for g in groups:
        print("static const t3_case t3_%s[] = {" % g)
        for grp, stdin, argv, env in CASES:
            if grp != g:
                continue
            p, files = run(stdin, argv, env)
            envs = ", ".join("%s=%s" % kv for kv in env.items() if kv[0] != "LC_ALL")
            args = ", ".join(cstr(a.encode()) for a in argv)
            print("    {%s, %s, %d, %s, %d, %s, %d, %s, {%s}}," % (
                cstr(stdin) if stdin is not None else "NULL",
                cstr(envs.encode()) if envs else "NULL",
                p.returncode, cstr(p.stdout), len(p.stdout), cstr(p.stderr),
                len(files), cstr(files), args))
        print("};")


main()
