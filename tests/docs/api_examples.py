#!/usr/bin/env python3
"""Compile, link and run the C examples of docs/api.md.

Every ```c block that holds a main() is a whole program: it is compiled
against include/vsh.h with warnings as errors, linked with the library
given, run, and its standard output compared with the ```text block that
follows it ("It prints:"). Any failure fails the test.

usage: api_examples.py --cc CC --include DIR --lib LIBRARY [--cflags FLAGS]
                       [--min N] DOC
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile


def examples(doc):
    """(title, code, expected output or None) for each example."""
    out = []
    title = "?"
    lines = doc.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            title = line.lstrip("#").strip()
        if line.strip() == "```c":
            j = i + 1
            while lines[j].strip() != "```":
                j += 1
            code = "\n".join(lines[i + 1:j]) + "\n"
            i = j + 1
            if not re.search(r"\bint main\s*\(", code):
                continue
            expect = None
            k = i
            while k < len(lines) and not lines[k].startswith(("```", "#")):
                k += 1
            if k < len(lines) and lines[k].strip() == "```text":
                m = k + 1
                while lines[m].strip() != "```":
                    m += 1
                expect = "\n".join(lines[k + 1:m]) + "\n"
            out.append((title, code, expect))
            continue
        i += 1
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cc", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--cflags", default="")
    ap.add_argument("--min", type=int, default=1,
                    help="fewest examples the page must hold")
    ap.add_argument("doc")
    a = ap.parse_args()
    with open(a.doc, encoding="utf-8") as f:
        found = examples(f.read())
    if len(found) < a.min:
        print("api_examples: %d examples in %s, expected at least %d"
              % (len(found), a.doc, a.min))
        return 1
    libdir = os.path.dirname(os.path.abspath(a.lib))
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, (title, code, expect) in enumerate(found, 1):
            src = os.path.join(tmp, "ex%d.c" % n)
            exe = os.path.join(tmp, "ex%d" % n)
            with open(src, "w", encoding="utf-8") as f:
                f.write(code)
            cmd = ([a.cc, "-std=c11", "-Wall", "-Wextra", "-Werror",
                    "-pedantic", "-pthread", "-I", a.include] +
                   shlex.split(a.cflags) +
                   [src, "-o", exe, a.lib, "-Wl,-rpath," + libdir])
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                print("FAIL %s: does not compile\n%s%s"
                      % (title, " ".join(cmd) + "\n", r.stderr))
                failed += 1
                continue
            try:
                r = subprocess.run([exe], capture_output=True, text=True,
                                   timeout=60, cwd=tmp)
            except subprocess.TimeoutExpired:
                print("FAIL %s: still running after 60 s" % title)
                failed += 1
                continue
            if r.returncode != 0:
                print("FAIL %s: exit status %d\n%s%s"
                      % (title, r.returncode, r.stdout, r.stderr))
                failed += 1
            elif expect is not None and r.stdout != expect:
                print("FAIL %s: prints\n%s\ninstead of\n%s"
                      % (title, r.stdout, expect))
                failed += 1
            else:
                print("ok   %s" % title)
    print("api_examples: %d of %d examples pass"
          % (len(found) - failed, len(found)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
