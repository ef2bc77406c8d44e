#!/usr/bin/env python3
"""Records the answers of the host's fmt, numfmt and shuf (coreutils 9.1),
look (util-linux 2.38.1) and envsubst (gettext-runtime 0.21) into
tests/unit/textfmt_cases.inc (included by test_textfmt.c).

The tools are needed only to record, never by the test. Usage:
  python3 tests/unit/record_textfmt.py > tests/unit/textfmt_cases.inc
Each case runs in a scratch directory holding FILES, under LC_ALL=C with
only the variables ENV in the environment, with the given stdin. shuf's
random orders cannot be recorded (the sandbox draws its own bytes): only
its messages and the runs that leave nothing to chance are.
"""
import os, subprocess, tempfile, sys

PROSE = (
    "The shell reads a line, splits it into words and runs the command it "
    "names. A word that holds a dollar sign is expanded first; the value of "
    "the variable takes its place.  Quotes keep blanks inside one word! Does "
    "that matter? It does, e.g. when a file name holds spaces (as some do).\n"
    "This line goes on with the same paragraph, adding words so that the "
    "filling has something to balance across several lines of output.\n"
    "\n"
    "    An indented paragraph starts here and runs long enough that it has "
    "to be wrapped at least once or twice, keeping its indent.\n"
    "    Its second line keeps the same indent.\n"
    "\tA tabbed line stands alone, since its indent differs.\n"
    "\n"
    "  * A list item which is rather long and needs wrapping because it is "
    "wider than seventy-five columns by a lot.\n"
    "    the item goes on here, indented more than its first line.\n"
    "Mr. Smith went to Washington. He said \"Hello there.\" Then he left!  "
    "The end (or is it?) of the story.\n"
)

def words(n):
    base = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda "
            "mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega").split()
    out = []
    for i in range(n):
        w = base[(i * 7) % len(base)]
        if i % 13 == 12:
            w += "."
        elif i % 9 == 8:
            w += ","
        out.append(w)
    return " ".join(out)

FILES = {
    "prose.txt": PROSE.encode(),
    "code.txt": (b"# a comment that is long enough to need wrapping when the width is small\n"
                 b"# second comment line\n"
                 b"int main(void) { return 0; }\n"
                 b"  # indented comment, also long enough to wrap around\n"
                 b"#\n"
                 b"# after an empty comment\n"),
    "long.txt": (words(1500) + "\n").encode(),
    "big.txt": ("x" * 6000 + " tail words here\n").encode(),
    "noeol.txt": b"no newline at the end of this short text",
    "blank.txt": b"\n\n  \n\t\nword\n\n",
    "tags.txt": (b"first line of a tagged paragraph\n"
                 b"   second line indented differently and long enough to wrap over\n"
                 b"   third line\n"
                 b"\n"
                 b"one line alone\n"
                 b"\n"
                 b"  indented alone\n"),
    "cr.txt": b"carriage\rreturn inside\fform feed\vvertical tab words\n",
    "w.txt": b"apple\nApricot\nb-and\nband\nbandit\nbanana\ncherry\ncherry pie\ndate\n",
    "ws.txt": b"Apple\napple\nBANANA\nband\nBandana\ncherry\n",
    "d.txt": b"a-b\nab\nabc\na b\nabd\n",
    "empty": b"",
    "nums.txt": b"size name\n1000 a\n2048000 b\n  3500000 c\n-1500 d\n",
    "csv.txt": b"x,1024,y\nz,1048576,w\n",
    "shufin.txt": b"one\n",
    "env.txt": (b"$A ${A} ${B}x $$A $ ${ ${A $ {A} ${B:-x} $UNSET. \\$A $1 ${A}${B}\n"
                b"${A_B} $A_B ${9} $_ ${_}\n"
                b"no newline $A"),
}

ENV = {"LC_ALL": "C", "A": "1", "B": "two words", "A_B": "ab", "_": "under"}

CASES = []
def add(group, *argv, stdin=None):
    CASES.append((group, stdin, list(argv)))

# fmt
for a in ([], ["-w", "40"], ["-u"], ["-s", "-w", "30"], ["-c", "-w", "50"],
          ["-t", "-w", "50"], ["-g", "50"], ["-30"], ["-w", "60", "-g", "40"],
          ["-u", "-w", "20"], ["-s"], ["-c"], ["-t"], ["-w", "10"], ["-w", "1"],
          ["-w", "0"], ["--width=35", "--uniform-spacing"], ["-p", "  "]):
    add("fmt", "fmt", *a, "prose.txt")
for a in (["-p", "#", "-w", "30"], ["-p", "# ", "-w", "25"], ["-p", " #", "-w", "30"],
          ["-p", "#"], ["-w", "30"], ["--prefix=#", "-s", "-w", "20"]):
    add("fmt", "fmt", *a, "code.txt")
for a in ([], ["-w", "50"], ["-u", "-w", "72"], ["-g", "60"]):
    add("fmt", "fmt", *a, "long.txt")
add("fmt", "fmt", "big.txt")
add("fmt", "fmt", "-w", "20", "big.txt")
add("fmt", "fmt", "noeol.txt")
add("fmt", "fmt", "-w", "10", "noeol.txt")
add("fmt", "fmt", "blank.txt")
add("fmt", "fmt", "-p", "x", "blank.txt")
for a in (["-t"], ["-t", "-w", "30"], ["-c", "-w", "30"], [], ["-s", "-w", "20"]):
    add("fmt", "fmt", *a, "tags.txt")
add("fmt", "fmt", "cr.txt")
add("fmt", "fmt", "-u", "-w", "15", "cr.txt")
add("fmt", "fmt", "prose.txt", "-", "code.txt", stdin=b"from stdin, a short line\n")
add("fmt", "fmt", "-w", "12", stdin=b"a b c d e f g h i j k l m n o p q r s t u v w x y z\n")
add("fmt", "fmt", stdin=b"")
add("fmt", "fmt", stdin=b"   \n")
add("fmt", "fmt", stdin=b"word")
add("fmt", "fmt", "-w", "20", stdin=b"Two  spaces.  Between sentences.  And more text here.\n")
add("fmt", "fmt", "-u", stdin=b"Spaced    out     words.   Sentence one.  Two.\nNext line.\n")
add("fmt", "fmt", "-w", "30", stdin=b"\tTab indented text that wraps over the width here.\n\tand more\n")
add("fmt", "fmt", "nofile")
add("fmt", "fmt", "subdir")
add("fmt", "fmt", "-w", "20", "code.txt", "subdir", "noeol.txt")
add("fmt", "fmt", "nofile", "prose.txt")
add("fmt", "fmt", "-w", "x")
add("fmt", "fmt", "-w", "2501")
add("fmt", "fmt", "-w", "2500", "noeol.txt")
add("fmt", "fmt", "-w", "99999999999999999999999")
add("fmt", "fmt", "-g", "80")
add("fmt", "fmt", "-g", "80", "-w", "70")
add("fmt", "fmt", "-w", "-5")
add("fmt", "fmt", "-w", "5x")
add("fmt", "fmt", "-10x")
add("fmt", "fmt", "-w", "30", "-5")
add("fmt", "fmt", "-x")
add("fmt", "fmt", "--bogus")
add("fmt", "fmt", "-w")

# numfmt
NUMFMT = [
    ["--to=si", "1000", "999999", "1", "0", "1.5"],
    ["--from=si", "1R"], ["--from=si", "1k"], ["--from=si", "1 K"], ["1 "],
    ["--from=si", "1K "], ["1000000000000000000000000000"], ["--from=si", "1000Y"],
    ["--from=si", "999Y", "--to=si"], ["12345678901234567890"], ["abc"],
    ["1", "x", "3"], ["--invalid=fail", "1", "x", "3"], ["--invalid=warn", "1x"],
    ["--invalid=ignore", "1x", "2"], ["--from=auto", "1Ki", "1K", "1Mi"],
    ["--from=iec-i", "1K"], ["--to=iec-i", "1025", "--suffix=B"],
    ["--from-unit=Ki", "1"], ["--from-unit=KiB", "1"], ["--from-unit=0", "1"],
    ["--to-unit=K", "5000"], ["--padding=0", "1"], ["--padding=-8", "1", "--to=si"],
    ["--format=%08.2f", "3.14159"], ["--format=a%%b%fc%%", "5"], ["--format=%f%f", "1"],
    ["--format=abc", "1"], ["--format=%", "1"], ["--format=%.-1f", "1"],
    ["--format=%d", "1"], ["--field=0", "1"], ["--field=2-", "a 1000 2000"],
    ["--field=x", "1"], ["--field", "1", "--field", "2", "1"], ["-d", "ab", "1"],
    ["--header=0", "1"], ["--round=up", "--to=si", "1001"], ["--round=bad", "1"],
    ["--round=near", "--to=si", "1450"], ["--to=bad", "1"], ["--to=i", "1"],
    ["--from=none", "1K"], ["--debug", "1"], ["1.23456789"], ["--", "-5"],
    ["--to=si", "--", "-1234567"], ["--grouping", "--to=si", "1"],
    ["--format=%'f", "--grouping", "1"], ["0.1", ".5", "5.", "+5"],
    ["--", "-.5", "-0.5", "-5", "-0"], ["--to=si", "0.5", "999.9", "9.99", "99.99", "9999", "99999"],
    ["--to=si", "--", "-999", "-1000", "-999999"], ["--to=iec", "--round=nearest", "1536", "1535"],
    ["--from=si", "--to=iec", "1G"], ["--format=%.3f", "--to=si", "1234567"],
    ["--format=%-10fX", "5"], ["--format=%10f", "5"], ["--padding=10", "5", "abc"],
    ["--field=2", "--invalid=warn", "a b c"], ["--suffix=B", "100B", "200"],
    ["--suffix=B", "--to=si", "1000B"], ["-d,", "--field", "2", "--to=si", "a,1000,b"],
    ["--from=si", "1.5K", "1.55K"], ["--from=auto", "1.5Ki"], ["1e5"],
    ["--to=si", "1000000000000000000000000"], ["--field", "1-2,4", "1 2 3 4"],
    ["--field", "3-2", "1"], ["--field", ",", "1"], ["--field", "1,,2", "1"],
    ["--field", "99999999999999999999999", "1"], ["--field", "1--3", "1"],
    ["--to=iec-i", "0", "1", "2048", "1048576"],
    ["--to=iec", "1023", "1024", "1048575", "10240", "102400"],
    ["--field=-", "--to=si", "1000    2000  3000000"], ["--to=si", "  1000"],
    ["--field", "2", "--to=iec", "  a   4096  b"],
    ["--round=down", "--to=si", "1999", "--", "-1999"],
    ["--round=towards-zero", "--to=si", "1999", "--", "-1999"],
    ["--round=nearest", "--to=si", "1450", "1550", "--", "-1550"],
    ["--round=up", "--to=iec", "1025"],
    ["--from=iec", "--to=si", "1K", "1M", "1G", "1T", "1P", "1E", "1Z", "1Y"],
    ["--from=si", "--to=iec-i", "1Y"], ["--to=si", "--format=%.1f", "123456789"],
    ["--to=si", "--format=%.0f", "1500"], ["--format=%.2f", "1.005", "2.5", "1"],
    ["--from=si", "--format=%.1f", "1.25K"], ["--from-unit=512", "--to=iec", "2048"],
    ["--to-unit=1000", "--to=si", "123456789"], ["1.123456789012345678"],
    ["123456789012345678"], ["1234567890123456789"], ["--debug", "1234567890123456789012"],
    ["--to=si", "123456789012345678901234567"], ["--format=%  5f", "1"],
    ["--format=%'10f", "123456"], ["--format=%5.1f", "--", "-1.25"],
    ["--from=auto", "1Mi", "1M", "1.5Gi"], ["--invalid=fail", "1K", "2"],
    ["--invalid=warn", "1K", "2", "1.5.5"], ["--header", "1"],
    ["--suffix=XYZ", "--to=si", "12345XYZ", "7"], ["--padding=5", "12", "123456"],
    ["--padding=-5", "12"], ["-d:", "--field=2,3", "--to=si", "a:2000:3000:4000"],
    ["--invalid=bogus", "1"], ["--from-unit=1M", "--to=si", "3"], ["--padding=x", "1"],
    ["--format=%.30f", "1"], ["--to=si", "--suffix=/s", "4096"], ["--bogus"],
    ["--from=iec-i", "5"], ["--from=iec-i", "1.5Ki", "2Mi"], ["--from=auto", "5i"],
    ["--from=iec-i", "--invalid=warn", "0", "3Gi"], ["--debug", "--grouping", "1000"],
    ["--debug", "--to=si", "--padding=3", "--format=%5f", "1000"],
    ["--grouping", "1234567"], ["--format=%'f", "1234567"],
]
for a in NUMFMT:
    add("numfmt", "numfmt", *a)
add("numfmt", "numfmt", "--header", "--field", "1", "--to=si", "nums.txt")
add("numfmt", "numfmt", "--header", "--to=si", stdin=FILES["nums.txt"])
add("numfmt", "numfmt", "--header=2", "--to=iec", "--padding=8", stdin=FILES["nums.txt"])
add("numfmt", "numfmt", "-d,", "--field=2", "--to=iec-i", stdin=FILES["csv.txt"])
add("numfmt", "numfmt", "--to=si", stdin=b"1000\n2000")
add("numfmt", "numfmt", "--to=si", stdin=b"1000\nx\n3000\n")
add("numfmt", "numfmt", "--to=si", "--invalid=warn", stdin=b"1000\nx\n3000\n")
add("numfmt", "numfmt", "--field=1,3", "--from=iec", stdin=b"1K 2K 3K\n\t4K  5K   6K\n")
add("numfmt", "numfmt", "--debug", "--header", "5")

# look
for a in (["b", "w.txt"], ["-f", "a", "w.txt"], ["-d", "band", "w.txt"],
          ["-t", "n", "bandz", "w.txt"], ["a", "empty"], ["a", "nofile"],
          ["a", "b", "c"], ["-x"], ["ban"], ["-a", "ban"], ["-df", "BAN", "w.txt"],
          ["c", "w.txt"], ["z", "w.txt"], ["cherry", "w.txt"], ["cherry ", "w.txt"],
          ["-f", "ban", "ws.txt"], ["-f", "BA", "ws.txt"], ["apple", "ws.txt"],
          ["-d", "ab", "d.txt"], ["-d", "a-b", "d.txt"], ["a b", "d.txt"], [],
          ["--alphanum", "--ignore-case", "BAND", "w.txt"], ["--terminate=a", "bxa", "w.txt"],
          ["-t", "", "b", "w.txt"], ["--bogus"], ["a", "subdir"]):
    add("look", "look", *a)

# shuf: what does not depend on the draws
for a in (["-n", "x"], ["-i", "5-4"], ["-i", "5-3"], ["-i", "x"], ["-i", "1-2", "-i", "3-4"],
          ["-e", "-i", "1-3"], ["-i", "1-3", "a"], ["-r"], ["-n", "1", "-n", "2", "-e", "a"],
          ["-o", "a", "-o", "b", "-e", "a"], ["--random-source=a", "--random-source=b", "-e", "x"],
          ["-r", "-i", "3-2"], ["-n", "-1", "-e", "a"], ["-i", "1-"], ["-i", "-5"],
          ["-i", "1-99999999999999999999999"], ["a", "b"], ["nofile"], ["-e"], ["-rn3", "-e"],
          ["-i", "0-0"], ["-n", "2K", "-e", "a"], ["-n", "0", "-e", "a", "b"],
          ["-n", "0", "nofile"], ["shufin.txt"], ["-i", "7-7", "-n", "5"],
          ["-r", "-n", "3", "-e", "same"], ["-r", "-n", "2", "shufin.txt"],
          ["--random-source=empty", "-e", "a", "b"], ["--random-source=nofile", "-e", "a", "b"],
          ["-n", "99999999999999999999999", "-e", "x"], ["--bogus"], ["-i", "1-2-3"],
          ["subdir"], ["--random-source=nofile", "-n", "0", "-e", "a", "b"],
          ["--random-source=nofile", "-e"], ["--random-source=nofile", "-i", "1-0"],
          ["--random-source=nofile", "-r", "-n", "0", "-e", "a"],
          ["--random-source=nofile", "-e", "a"]):
    add("shuf", "shuf", *a)
add("shuf", "shuf", stdin=b"only\n")
add("shuf", "shuf", stdin=b"no newline")
add("shuf", "shuf", stdin=b"")

# envsubst
add("envsubst", "envsubst", stdin=FILES["env.txt"])
add("envsubst", "envsubst", "$B ${_}", stdin=FILES["env.txt"])
add("envsubst", "envsubst", "nothing here", stdin=FILES["env.txt"])
add("envsubst", "envsubst", "${A_B}$A", stdin=FILES["env.txt"])
for a in (["-v"], ["a", "b"], ["-x"], ["--foo"], ["-v", "$A ${B} $A $ {C} ${D $_x1 $1 ${E}x$F"],
          ["--variables", "plain text"], ["-v", "a", "b"], ["--variables"]):
    add("envsubst", "envsubst", *a)
add("envsubst", "envsubst", stdin=b"$")
add("envsubst", "envsubst", stdin=b"${A")
add("envsubst", "envsubst", stdin=b"end $A")
add("envsubst", "envsubst", stdin=b"")

def cstr(b):
    out = '"'
    prev_hex = False
    for ch in b:
        c = chr(ch)
        if c == '\\': s = '\\\\'
        elif c == '"': s = '\\"'
        elif c == '\n': s = '\\n'
        elif c == '\t': s = '\\t'
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

def cstr_lines(b):
    # long strings as adjacent literals, one a line of output
    if len(b) < 200:
        return cstr(b)
    parts = b.split(b"\n")
    pieces = [p + b"\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    return "\n        ".join(cstr(p) for p in pieces)

def main():
    d = tempfile.mkdtemp()
    os.mkdir(os.path.join(d, "subdir"))
    for name, data in FILES.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    print("/* Generated by tests/unit/record_textfmt.py: do not edit. */")
    print("static const struct { const char *name; const char *data; size_t len; } textfmt_files[] = {")
    for name, data in FILES.items():
        print("    {%s, %s, %d}," % (cstr(name.encode()), cstr_lines(data), len(data)))
    print("};")
    groups = []
    for g, _, _ in CASES:
        if g not in groups:
            groups.append(g)
    for g in groups:
        print("static const bh_case textfmt_%s[] = {" % g)
        for grp, stdin, argv in CASES:
            if grp != g:
                continue
            assert len(argv) <= 15, argv
            p = subprocess.run(argv, cwd=d, input=stdin or b"", capture_output=True, env=ENV)
            if b"\0" in p.stdout or b"\0" in p.stderr or (stdin and b"\0" in stdin):
                sys.stderr.write("skipped (NUL): %r\n" % argv)
                continue
            args = ", ".join(cstr(a.encode()) for a in argv)
            print("    BH_CASE(%s, %d, %s, %s, %s)," % (
                cstr(stdin) if stdin is not None else "NULL", p.returncode,
                cstr_lines(p.stdout), cstr(p.stderr), args))
        print("};")

main()
