#!/usr/bin/env python3
"""Generate docs/api.md, the C API reference, from include/vsh.h.

The reference part is the header itself, grouped by its section banners:
each declaration (function, type, enum, macro) with the comment written
above it. The hand-written part (the error model, the examples) is the
template scripts/api-doc.md.in; its line "@REFERENCE@" is replaced by the
generated part and "@CONTENTS@" by a table of contents.

usage: gen-api-doc.py [--check] [--header H] [--template T] [--output O]

--check compares the result with the output file instead of writing it and
fails (status 1) when they differ, so the header and the reference cannot
drift apart. Every VSH_API function must have a comment: one without is
an error, so that a new call cannot go undocumented.
"""

import argparse
import difflib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

BANNER = re.compile(r"^/\* -{20,} \*/$")
TITLE = re.compile(r"^/\* (.*?)\s*\*/$")
IDENT = re.compile(r"\b(?:vsh|VSH)_[A-Za-z0-9_]*")
# preprocessor lines of the header's frame, not part of the API
SKIP_DEFINES = {"VSH_H", "VSH_API"}


class Item:
    def __init__(self):
        self.doc = []  # comment paragraphs (lists of lines)
        self.code = []  # declaration lines
        self.names = []

    def kind(self):
        text = "\n".join(self.code)
        if "VSH_API" in text:
            return "function"
        if text.startswith("#define"):
            return "macro"
        if text.startswith("enum"):
            return "constants"
        return "type"


def comment_lines(block):
    """The text of a /* */ comment, its markers removed, dedented."""
    out = []
    for i, line in enumerate(block):
        s = line.strip()
        if i == 0:
            s = s[2:]
        if s.endswith("*/"):
            s = s[:-2]
        s = s.rstrip()
        if s.startswith("* "):
            s = s[2:]
        elif s == "*":
            s = ""
        elif i == 0:
            s = s.lstrip()
        out.append(s)
    while out and not out[0].strip():
        out.pop(0)
    while out and not out[-1].strip():
        out.pop()
    indent = min(
        (len(l) - len(l.lstrip()) for l in out if l.strip()), default=0)
    return [l[indent:] for l in out]


def declared_names(code):
    """Identifiers an item declares, in order."""
    text = "\n".join(code)
    names = []
    if text.startswith("#define"):
        names.append(text.split()[1])
    elif "VSH_API" in text:
        for m in re.finditer(r"\b(vsh_\w+)\s*\(", text):
            names.append(m.group(1))
    elif text.startswith("typedef"):
        flat = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
        m = re.search(r"\(\s*\*\s*(vsh_\w+)\s*\)\s*\(", flat)
        if m:
            names.append(m.group(1))
        else:
            m = re.search(r"(vsh_\w+)\s*;\s*$", flat.strip())
            if m:
                names.append(m.group(1))
    elif text.startswith("struct"):
        names.append(text.split()[1])
    elif text.startswith("enum"):
        flat = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
        names.extend(re.findall(r"\b(VSH_[A-Z0-9_]+)\s*=", flat))
    return names


def parse(header):
    """Intro comment and a list of (section title, entries); an entry is an
    Item or a free-standing note (a list of lines)."""
    lines = header.split("\n")
    i = 0
    # the opening comment
    assert lines[0].startswith("/*"), "the header must open with a comment"
    j = i
    while "*/" not in lines[j]:
        j += 1
    intro = comment_lines(lines[i:j + 1])
    i = j + 1
    sections = [["Version", []]]
    pending = None  # a comment waiting for its declaration
    last = None  # the item the previous line belonged to
    blank = True
    depth_skip = 0
    while i < len(lines):
        line = lines[i]
        s = line.strip()
        if BANNER.match(s) and i + 2 < len(lines) and \
                BANNER.match(lines[i + 2].strip()):
            title = TITLE.match(lines[i + 1].strip()).group(1)
            sections.append([title, []])
            i += 3
            pending, last, blank = None, None, True
            continue
        if not s:
            if pending is not None:
                sections[-1][1].append(pending)  # a free-standing note
                pending = None
            last, blank = None, True
            i += 1
            continue
        if s.startswith("/*"):
            j = i
            while "*/" not in lines[j]:
                j += 1
            block = comment_lines(lines[i:j + 1])
            i = j + 1
            nxt = lines[i].strip() if i < len(lines) else ""
            if last is not None and not nxt:
                last.doc.append(block)  # a comment closing an item
            else:
                if pending is not None:
                    sections[-1][1].append(pending)
                pending = block
                last = None
            continue
        if s.startswith("#"):
            # the frame: include guard, includes, extern "C", VSH_API
            m = re.match(r"#define\s+(\w+)", s)
            if s.startswith(("#if", "#ifdef", "#ifndef")) and \
                    not s.startswith("#ifndef VSH_H"):
                depth_skip += 1
            elif s.startswith("#endif") and depth_skip:
                depth_skip -= 1
            elif m and not depth_skip and m.group(1) not in SKIP_DEFINES:
                code = [line]
                while code[-1].rstrip().endswith("\\"):
                    i += 1
                    code.append(lines[i])
                i += 1
                add(sections, code, pending, last)
                last = sections[-1][1][-1]
                pending = None
                continue
            i += 1
            continue
        if depth_skip or s.startswith("}") or s.startswith('extern "C"'):
            i += 1
            continue
        # a declaration: up to a ';' outside braces
        code = []
        depth = 0
        while True:
            code.append(lines[i])
            flat = re.sub(r"/\*.*?\*/", "", lines[i])
            depth += flat.count("{") - flat.count("}")
            i += 1
            if depth == 0 and flat.rstrip().endswith(";"):
                break
        add(sections, code, pending, last)
        last = sections[-1][1][-1]
        pending = None
    return intro, [s for s in sections if s[1]]


def add(sections, code, pending, last):
    """A declaration joins the item of the line above it when there is no
    comment or blank line between them; otherwise it starts an item."""
    if last is not None and pending is None:
        last.code.extend(code)
        last.names.extend(declared_names(code))
        sections[-1][1].pop()
        sections[-1][1].append(last)
        return
    it = Item()
    if pending is not None:
        it.doc.append(pending)
    it.code = list(code)
    it.names = declared_names(code)
    sections[-1][1].append(it)


def md_text(lines):
    """Comment text as Markdown: identifiers and stray '*' made safe, runs
    of blank lines made one."""
    out = []
    for line in lines:
        if not line.strip() and out and not out[-1].strip():
            continue
        parts = line.split("`")
        for k in range(0, len(parts), 2):  # outside code spans
            p = parts[k].replace("*", "\\*").replace("<", "&lt;")
            p = re.sub(r"\b((?:vsh|VSH)_[A-Za-z0-9_]*(?:\\\*)?(?:\(\))?)",
                       lambda m: "`" + m.group(1).replace("\\*", "*") + "`",
                       p)
            parts[k] = p
        out.append("`".join(parts))
    return out


def anchor(title):
    a = title.lower()
    a = re.sub(r"[^a-z0-9 _-]", "", a)
    return a.replace(" ", "-")


def render_reference(intro, sections):
    out = ["## Reference", ""]
    out.append("Generated from the comments of `include/vsh.h` by "
               "`scripts/gen-api-doc.py`; edit the header, not this part.")
    out.append("")
    out.append("### Conventions")
    out.append("")
    # the header's opening comment, after its first paragraph (the title)
    k = intro.index("") if "" in intro else 0
    conv = ["" if l.strip() == "Conventions" else l for l in intro[k:]]
    while conv and not conv[0].strip():
        conv.pop(0)
    out.extend(md_text(conv))
    out.append("")
    for title, entries in sections:
        out.append("### " + title)
        out.append("")
        for e in entries:
            if isinstance(e, Item):
                names = e.names or ["(declaration)"]
                if e.code[0].startswith("struct "):
                    names = ["struct " + n for n in names]
                shown = names if len(names) <= 4 else names[:3] + ["..."]
                head = ", ".join("`%s`" % n if n != "..." else n
                                 for n in shown)
                out.append("#### " + head)
                out.append("")
                out.append("```c")
                out.extend(l.rstrip() for l in e.code)
                out.append("```")
                out.append("")
                for para in e.doc:
                    out.extend(md_text(para))
                    out.append("")
            else:
                out.extend(md_text(e))
                out.append("")
    while out and not out[-1]:
        out.pop()
    return out


def contents(doc_lines):
    """Links to the ## and ### headings; a repeated title gets the suffix
    -1, -2, ... as GitHub gives its anchor."""
    toc = []
    used = {}
    in_code = False
    for l in doc_lines:
        if l.startswith("```"):
            in_code = not in_code
        if in_code:
            continue
        m = re.match(r"^(#+) (.*)$", l)
        if not m:
            continue
        title = m.group(2)
        a = anchor(title)
        n = used.get(a, 0)
        used[a] = n + 1
        if n:
            a = "%s-%d" % (a, n)
        depth = len(m.group(1)) - 2
        if depth in (0, 1):
            toc.append("%s- [%s](#%s)" % ("  " * depth, title, a))
    return toc


def check(header_text, sections):
    """Every VSH_API function and every typedef is in the reference, and
    every function has a comment."""
    errors = []
    declared = set(re.findall(r"VSH_API[^;(]*?\b(vsh_\w+)\s*\(", header_text))
    typedefs = set(re.findall(r"\}\s*(vsh_\w+)\s*;", header_text))
    typedefs |= set(re.findall(r"typedef\s+struct\s+\w+\s+(vsh_\w+)\s*;",
                               header_text))
    typedefs |= set(re.findall(r"\(\s*\*\s*(vsh_\w+)\s*\)\s*\(",
                               header_text))
    seen = {}
    for _, entries in sections:
        for e in entries:
            if isinstance(e, Item):
                for n in e.names:
                    seen[n] = e
    for n in sorted(declared | typedefs):
        if n not in seen:
            errors.append("%s is declared but not in the reference" % n)
    for n in sorted(declared):
        if n in seen and not seen[n].doc:
            errors.append("%s has no comment in include/vsh.h" % n)
    return errors


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--header", default=os.path.join(ROOT, "include", "vsh.h"))
    ap.add_argument("--template",
                    default=os.path.join(ROOT, "scripts", "api-doc.md.in"))
    ap.add_argument("--output", default=os.path.join(ROOT, "docs", "api.md"))
    a = ap.parse_args()
    with open(a.header, encoding="utf-8") as f:
        header = f.read()
    with open(a.template, encoding="utf-8") as f:
        template = f.read().split("\n")
    intro, sections = parse(header)
    errors = check(header, sections)
    if errors:
        for e in errors:
            print("gen-api-doc: " + e, file=sys.stderr)
        return 1
    ref = render_reference(intro, sections)
    doc = []
    for l in template:
        if l == "@REFERENCE@":
            doc.extend(ref)
        else:
            doc.append(l)
    toc = contents([l for l in doc if l != "@CONTENTS@"])
    out = []
    for l in doc:
        if l == "@CONTENTS@":
            out.extend(toc)
        else:
            out.append(l)
    text = "\n".join(out).rstrip("\n") + "\n"
    if a.check:
        try:
            with open(a.output, encoding="utf-8") as f:
                old = f.read()
        except OSError as e:
            print("gen-api-doc: %s" % e, file=sys.stderr)
            return 1
        if old != text:
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), text.splitlines(True), a.output,
                "generated from " + a.header))
            print("gen-api-doc: %s is out of date; run scripts/gen-api-doc.py"
                  % a.output, file=sys.stderr)
            return 1
        return 0
    with open(a.output, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
