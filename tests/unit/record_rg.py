#!/usr/bin/env python3
"""Records ripgrep 13's answers on a fixture tree into tests/unit/rg_cases.inc
(included by test_rg.c).

Needs the real rg (Debian 12: apt-get install ripgrep) only when run; the
generated test does not. Usage: python3 tests/unit/record_rg.py > tests/unit/rg_cases.inc
Each case runs host rg with cwd = the fixture dir named; expected stdout,
stderr and status are stored. Cases marked 'flue' are the command lines
agent frameworks send (no --sort): the host run adds --sort path to get
rg's deterministic order, which vsh's rg always has. JSON cases compare
with the elapsed times blanked.
"""
import os, subprocess, tempfile, re, sys

FILES = {
    # a git work tree
    "proj/.git/HEAD": b"ref: refs/heads/main\n",
    "proj/.gitignore": b"build/\n*.log\n!keep.log\n/top.txt\n",
    "proj/src/a.py": b"def foo():\n    return 1  # TODO fix\n\nclass Foo:\n    pass\n",
    "proj/src/sub/b.c": b"int main() {\n  // TODO: foo\n  return 0;\n}\n",
    "proj/build/out.txt": b"foo in build\n",
    "proj/x.log": b"foo log\n",
    "proj/keep.log": b"foo keep\n",
    "proj/top.txt": b"foo top\n",
    "proj/src/top.txt": b"foo top sub\n",
    "proj/.hidden": b"hidden foo\n",
    "proj/src/bin.dat": b"foo\0bin\n",
    "proj/docs/readme.md": b"# Foo docs\nTODO: write foo\nno newline foo",
    "proj/src/.ignore": b"sub.c\n",
    "proj/src/sub.c": b"foo sub\n",
    "proj/pats.txt": b"foo\nfoo()\n",
    "proj/u8.txt": "caf\u00e9 CAF\u00c9 \u00e9t\u00e9 na\u00efve\n\u0391\u03b2\u03b3 digits \u0663\u0664\n".encode(),
    # .gitignore outside a git work tree does not count
    "nogit/.gitignore": b"a/\n",
    "nogit/a/f.txt": b"foo a\n",
    "nogit/g.txt": b"foo g\n",
    # nested ignore rules
    "deep/.git/HEAD": b"ref: refs/heads/main\n",
    "deep/.gitignore": b"node_modules/\n*.min.js\n/docs/**/*.tmp\nlib/*\n!lib/keep.js\n**/gen/\n",
    "deep/.ignore": b"!.env\n",
    "deep/.env": b"hit\n",
    "deep/.cfg/s.txt": b"hit\n",
    "deep/a/.ignore": b"c/\n",
    "deep/a/b/c/f.txt": b"hit\n",
    "deep/a/b/c.txt": b"hit\n",
    "deep/a/gen/g.txt": b"hit\n",
    "deep/a/multi.txt": b"hit\nHIT\nhit again\n",
    "deep/x/.gitignore": b"!*.min.js\n",
    "deep/x/node_modules/m/i.js": b"hit\n",
    "deep/x/app.min.js": b"hit\n",
    "deep/x/app.js": b"hit\n",
    "deep/docs/api/z.tmp": b"hit\n",
    "deep/docs/z.tmp": b"hit\n",
    "deep/lib/keep.js": b"hit\n",
    "deep/lib/drop.js": b"hit\n",
    # a binary file whose NUL is past the first 64 KiB block
    "big/s.bin": b"foo\nbar\0\nbaz\n",
    "big/d/s.bin": b"foo\nbar\0\nbaz\n",
    "big/big.txt": b"".join(b"line %d needle\n" % i for i in range(6000)) + b"\0tail needle\n",
}

FLUE = "--line-number --with-filename --color never".split()

CASES = [
    # (cwd, args, flue)
    ("proj", ["rg", "--version"], None),
    ("proj", ["rg"] + FLUE + ["--", "foo", "src"], True),
    ("proj", ["rg"] + FLUE + ["--", "foo", "."], True),
    ("", ["rg"] + FLUE + ["--", "foo", "proj"], True),
    ("proj", ["rg"] + FLUE + ["--fixed-strings", "--", "foo()", "src"], True),
    ("proj", ["rg"] + FLUE + ["--glob", "*.py", "--", "foo", "."], True),
    ("proj", ["rg"] + FLUE + ["--fixed-strings", "--glob", "*.md", "--", "TODO", "."], True),
    ("proj", ["rg"] + FLUE + ["--", "TODO", "src/a.py"], True),
    ("proj", ["rg"] + FLUE + ["--", "nomatch", "."], True),
    ("proj", ["rg"] + FLUE + ["--", "foo", "nosuch"], True),
    ("proj", ["rg"] + FLUE + ["--", "(foo", "."], True),
    ("nogit", ["rg"] + FLUE + ["--", "foo", "."], True),
    ("deep", ["rg"] + FLUE + ["--", "hit", "."], True),
]
S = ["--sort", "path"]
for args in [
    ["foo"], ["-n", "foo"], ["foo", "."], ["-c", "foo"], ["--count-matches", "o"],
    ["-i", "foo", "-l"], ["--files-without-match", "TODO"], ["--files"],
    ["-uu", "foo"], ["-uuu", "foo"], ["--hidden", "foo"], ["--no-ignore", "foo"],
    ["-A1", "foo"], ["-C1", "-n", "TODO"], ["-B2", "-m1", "return"], ["-A1", "-m1", "return"],
    ["--heading", "-n", "foo"], ["--heading", "-A1", "foo", "src"], ["-o", "-n", "--column", "oo"],
    ["--vimgrep", "oo"], ["-0", "-l", "foo"], ["-0", "foo"], ["-r", "X{0}", "o+"],
    ["-r", "[$0]", "o+"], ["nomatch"], ["-c", "foo", "src/a.py"], ["-c", "foo", "src/a.py", "keep.log"],
    ["-v", "-n", "o", "src/a.py"], ["-w", "Foo", "-S"], ["-S", "foo"], ["-S", "Foo"],
    ["-x", "    pass", "-n"], ["-F", "-e", "(", "-e", "foo()"], ["-g", "*.py", "foo"],
    ["-g", "!*.py", "foo"], ["--iglob", "*.PY", "foo"], ["-t", "py", "-t", "c", "foo"],
    ["-T", "py", "foo"], ["--max-depth", "1", "foo"], ["-g", "src/*.txt", "foo"],
    ["--bogus", "foo"], ["-P", r"foo(?=\(\))"], [r"foo(?=\(\))"], [r"foo\d", "-S"],
    ["foo", "src/bin.dat"], ["-c", "foo", "src/bin.dat"], ["-l", "foo", "src/bin.dat"],
    ["-c", "foo", "src/bin.dat", "src/a.py"], ["-t", "nosuch", "foo"], [r"\bfoo\b", "-o"],
    [r"^\s+\w+", "-o"], ["(?i)FOO", "-c"], ["-e", "foo", "-e", "TODO", "-n", "-o"],
    ["-q", "foo"], ["-q", "nomatch"], ["--files", "-g", "*.c"], ["-lv", "foo"],
    ["-m", "1", "-c", "o"], ["-C", "5", "class"], ["-A", "2", "-B", "1", "-n", "return"],
    ["-f", "pats.txt", "-n"], ["-f", "pats.txt", "-F", "-c"], ["-f", "nosuch.txt"],
    ["-n", "", "keep.log"], ["-c", "^", "src"], ["^$", "-n", "src/a.py"],
    [r"\s+", "-o", "src/a.py"], [r"\p{Lu}", "-o"], ["-i", "CAFÉ", "-o", "u8.txt"],
    [r"\w+", "-o", "u8.txt"], [r"\d+", "-o", "u8.txt"], ["-S", "été", "u8.txt"],
    ["--json", "foo", "src/a.py"], ["--json", "-A1", "foo", "src/a.py", "keep.log"],
    ["--json", "nomatch", "src/a.py"], ["-o", "-r", "<$1>", "f(o+)", "src"],
    ["-r", "${n}!", "(?P<n>fo)o", "keep.log"], ["--no-messages", "foo", "nosuch", "keep.log"],
    ["--max-depth", "0", "foo", "src"], ["-L", "foo", "src/sub"],
    ["--color", "always", "-n", "--column", "-A1", "-o", "TODO", "src/a.py"],
    ["--color", "always", "-H", "--heading", "foo", "src/a.py"], ["--color", "always", "-c", "foo"],
    ["--color", "always", "-l", "foo"], ["--color", "always", "-r", "XX", "foo", "keep.log"],
    ["--color", "always", "", "keep.log"], ["--color", "always", "--vimgrep", "o", "keep.log"],
    ["--color", "always", "foo", "src/bin.dat"], ["--color", "always", "-C1", "-n", "TODO"],
    ["--color=always", "-o", "-r", "Y", "o", "keep.log"], ["--color", "never", "foo"],
    ["-c", r"\/"], ["-c", r"\{"], ["-c", "a{"], ["-c", "{"], ["-c", "x{2"], ["-c", r"\<foo"],
    ["-o", "(?P<x>foo)", "keep.log"], ["-c", "(?<x>foo)"], ["-c", r"\Qfoo\E"], ["-c", "(?u)foo"],
    ["-o", r"\x{e9}", "u8.txt"], ["-c", r"\u00e9", "u8.txt"], ["-c", r"\Aclass"], ["-c", r"\h"],
    ["-c", "a{,2}"], ["-c", r"\e"], ["-c", "(?x) f o o  # c"], ["-c", ")"], ["-c", "["], ["-c", "*"],
    ["-c", "+foo"], ["-c", "foo\\"], ["-c", r"\1"], ["-c", r"(a)\1"], ["-c", "(?i"], ["-c", "(?z)x"],
    ["-c", "(?-)x"], ["-c", "(?)x"], ["-c", r"\v"], ["-c", r"\0"], ["-c", "x{3,1}"], ["-c", "a|*"],
    ["-o", r"(?i)caf\u00c9", "u8.txt"], ["-o", r"\p{Greek}+", "u8.txt"], ["-c", r"\pZ", "u8.txt"],
    ["-M", "10", "-n", "foo"], ["-M", "11", "foo", "src/a.py"],
    ["-M", "10", "--max-columns-preview", "foo", "src/a.py", "docs"], ["--trim", "TODO"],
    ["-M", "10", "-o", "foo", "keep.log"], ["-M", "5", "--vimgrep", "foo", "keep.log"],
    ["-M", "10", "-A1", "def", "src/a.py"], ["-M", "3", "--max-columns-preview", "é", "u8.txt"],
    ["-p", "foo", "src"], ["-g", "*.PY", "--glob-case-insensitive", "foo"],
    ["--no-ignore-dot", "foo"], ["--line-buffered", "foo"],
    ["-U", "-n", r"foo\(\):\n\s+return", "src/a.py"], ["-U", "-n", r"return.*\n\n", "src/a.py"],
    ["-U", "--count-matches", "o", "src/a.py"], ["-U", "-n", "--multiline-dotall", "def.*pass", "src/a.py"],
    ["-U", "-o", r"foo\(\):\n\s+return", "src/a.py"], ["-U", "-n", "--column", r"Foo:\n", "src/a.py"],
    ["-U", "--json", r"foo\(\):\n", "src/a.py"], ["-U", "-A1", "-n", r"1  #.*\n", "src/a.py"],
    ["-U", "-v", "-n", r"o.*\n.*r", "src/a.py"], ["-U", r"TODO.*\n.*", "-n"], [r"a\nb", "keep.log"],
    ["-c", r"a[\n]b", "keep.log"], ["-c", "--multiline-dotall", "f.o", "keep.log"], ["-U", "-l", r"foo\n"],
    ["-o", "[[:upper:]]"], ["-c", r"[^\n]+", "keep.log"], ["-o", "[[:alpha:]]+", "u8.txt"],
    ["-o", "[[:punct:]]+", "src/a.py"], ["-o", "[^[:alpha:]]+", "u8.txt"],
    ["--type-list"], ["-m", "abc", "foo"], ["--color", "bogus", "foo"], ["--max-depth", "x", "foo"],
]:
    CASES.append(("proj", ["rg"] + S + args, None))
for args in [
    ["hit"], ["--files"], ["--files", "--hidden"], ["--files", "-u"], ["--files", "-uu"],
    ["hit", "a"], ["hit", "a/b"], ["--files", "x"], ["-g", "**/b/**", "--files"],
    ["-g", "a/**", "--files"], ["-g", "!a/**", "--files"], ["-g", "*.js", "--files", "-uu"],
    ["-g", "!node_modules", "--files", "-uu"], ["--max-depth", "1", "--files"],
    ["--no-ignore-vcs", "--files"], ["-t", "js", "--files"], ["-T", "js", "--files"],
    ["-t", "txt", "-g", "!a/b/**", "--files"], ["-i", "hit", "-c"],
    ["--json", "-A1", "hit", "a/multi.txt"], ["-F", "-x", "hit", "-n"],
]:
    CASES.append(("deep", ["rg"] + S + args, None))
for args in [["needle", "-c", "big.txt"], ["needle", "-c"], ["tail", "big.txt"], ["tail"],
             ["-a", "tail", "big.txt"], ["--binary", "-c", "needle"], ["needle", "-l"],
             ["needle", "-l", "big.txt"], ["line 59.. needle", "big.txt"], ["line 39.. needle"],
             ["--binary", "line 39.. needle"], ["foo", "s.bin"], ["-n", "ba", "s.bin"],
             ["-c", "foo", "s.bin"], ["foo", "d"], ["--binary", "foo", "d"]]:
    CASES.append(("big", ["rg"] + S + args, None))
for args in [["foo", "-A"], ["foo", "-e"], ["foo", "--glob"], ["foo", "--type"], ["-Y", "foo"], ["--sort", "bogus", "foo"]]:
    CASES.append(("proj", ["rg"] + args, None))
STDIN = [
    ("proj", ["rg", "foo"], b"a foo\nb\nfoo c\n"),
    ("proj", ["rg", "-n", "-H", "foo"], b"a foo\nb\nfoo c\n"),
    ("proj", ["rg", "--sort", "path", "-c", "foo", "-", "keep.log"], b"a foo\n"),
    ("proj", ["rg", "x"], b"bin\0x\n"),
]


def cstr(b):
    out = []
    for ch in b:
        if ch == 0x22: out.append('\\"')
        elif ch == 0x5c: out.append('\\\\')
        elif ch == 0x0a: out.append('\\n')
        elif ch == 0x09: out.append('\\t')
        elif 0x20 <= ch < 0x7f: out.append(chr(ch))
        else: out.append('\\%03o' % ch)
    # pieces end after each \n; pack them into source lines of ~76 columns
    pieces, cur = [], ""
    for t in out:
        cur += t
        if t == "\\n":
            pieces.append(cur)
            cur = ""
    if cur:
        pieces.append(cur)
    if not pieces:
        return '""'
    lines, line = [], ""
    for pc in pieces:
        while len(pc) > 72:  # a long piece is cut, never inside an escape
            k = 72
            while k > 60 and "\\" in pc[k - 4:k]:
                k -= 1
            if line:
                lines.append(line)
                line = ""
            lines.append(pc[:k])
            pc = pc[k:]
        if len(line) + len(pc) > 72 and line:
            lines.append(line)
            line = ""
        line += pc
    if line:
        lines.append(line)
    return '\n'.join('    "%s"' % l for l in lines)


def main():
    tmp = tempfile.mkdtemp()
    for p, data in FILES.items():
        full = os.path.join(tmp, p)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(data)
    os.symlink("../a.py", os.path.join(tmp, "proj/src/sub/link.py"))
    os.makedirs(os.path.join(tmp, "empty"), exist_ok=True)
    o = sys.stdout
    o.write("/* rg_cases.inc - generated by tests/unit/record_rg.py from ripgrep\n"
            " * 13.0.0 (Debian 12) run on the same fixture tree; do not edit by hand. */\n\n")
    o.write("static void fixture(bh *h) {\n")
    for p, data in FILES.items():
        if p == "big/big.txt":  # built by rgt_big, the same bytes
            o.write("  rgt_big(h, \"%s\");\n" % p)
            continue
        o.write("  rgt_file(h, \"%s\",\n%s, %d);\n" % (p, cstr(data), len(data)))
    o.write('  rgt_symlink(h, "../a.py", "proj/src/sub/link.py");\n')
    o.write('  rgt_mkdir(h, "empty");\n')
    o.write("}\n\nstatic const rgt_case cases[] = {\n")
    allc = [(c, a, f, None) for c, a, f in CASES] + [(c, a, None, i) for c, a, i in STDIN]
    allc.append(("empty", ["rg", "foo"], None, None))
    for cwd, args, flue, stdin in allc:
        host = list(args)
        if flue:
            host = [args[0]] + S + args[1:]
        r = subprocess.run(host, cwd=os.path.join(tmp, cwd), input=stdin if stdin is not None else b"",
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE) if stdin is not None else \
            subprocess.run(host, cwd=os.path.join(tmp, cwd), stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = r.stdout, r.stderr
        if args[1:] == ["--version"]:
            out = b"rg (vsh; ripgrep 13 compatible) 13.0.0\n"
        if flue:  # the unsorted run words a missing path without "IO error"
            err = re.sub(rb"(\S+): IO error for operation on \S+: ", rb"\1: ", err)
        json = b"--json" in [a.encode() for a in args]
        o.write("    {\"%s\", %s, %d, %d, {%s, NULL},\n" % (
            cwd, "NULL" if stdin is None else cstr(stdin), 0 if stdin is None else len(stdin), r.returncode,
            ", ".join('"%s"' % a.replace("\\", "\\\\").replace('"', '\\"') for a in args)))
        o.write("%s, %d,\n%s, %d},\n" % (cstr(out), len(out), cstr(err), json))
    o.write("};\n")


main()
