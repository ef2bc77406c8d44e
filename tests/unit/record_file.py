#!/usr/bin/env python3
"""Records the answers of the host's file (5.44, Debian 12) on fixture files
into tests/unit/file_cases.inc (included by test_file.c).

file is needed only to record, never by the test. Usage:
  python3 tests/unit/record_file.py > tests/unit/file_cases.inc
The fixtures are made here (small ELF objects are put together by hand);
each case runs in a scratch directory holding them, under LC_ALL=C.
"""
import bz2, gzip, io, lzma, os, struct, subprocess, tarfile, tempfile, zipfile, zlib

def elf(etype=3, pie=True, interp=b"/lib64/ld-linux-x86-64.so.2", buildid=bytes(range(20)),
        abi=(0, 3, 2, 0), symtab=False, debug=False, osabi=0, machine=62, dynamic=True):
    """A 64-bit little-endian ELF with the given program headers and sections."""
    body = b""
    phdrs = []
    off0 = 64 + 56 * 4
    def add(data):
        nonlocal body
        o = off0 + len(body)
        body += data + b"\0" * (-len(data) % 8)
        return o
    if interp:
        o = add(interp + b"\0")
        phdrs.append((3, o, len(interp) + 1))
    if dynamic:
        d = b""
        if pie:
            d += struct.pack("<qQ", 0x6ffffffb, 0x08000000)
        d += struct.pack("<qQ", 0, 0)
        o = add(d)
        phdrs.append((2, o, len(d)))
    notes = b""
    if abi:
        notes += struct.pack("<III", 4, 16, 1) + b"GNU\0" + struct.pack("<IIII", *abi)
    if buildid:
        notes += struct.pack("<III", 4, len(buildid), 3) + b"GNU\0" + buildid
    noteo = None
    if notes:
        noteo = o = add(notes)
        phdrs.append((4, o, len(notes)))
    names = b"\0.shstrtab\0.symtab\0.debug_info\0"
    stro = add(names)
    shdrs = [struct.pack("<IIQQQQIIQQ", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
             struct.pack("<IIQQQQIIQQ", 1, 3, 0, 0, stro, len(names), 0, 0, 1, 0)]
    if symtab:
        shdrs.append(struct.pack("<IIQQQQIIQQ", 11, 2, 0, 0, stro, 0, 0, 0, 8, 24))
    if debug:
        shdrs.append(struct.pack("<IIQQQQIIQQ", 19, 1, 0, 0, stro, 0, 0, 0, 1, 0))
    if noteo is not None:
        shdrs.append(struct.pack("<IIQQQQIIQQ", 0, 7, 2, noteo, noteo, len(notes), 0, 0, 4, 0))
    shoff = off0 + len(body)
    ph = b"".join(struct.pack("<IIQQQQQQ", t, 4, o, o, o, s, s, 4 if t == 4 else 8) for t, o, s in phdrs)
    ph += b"\0" * (56 * 4 - len(ph))
    ident = b"\x7fELF\x02\x01\x01" + bytes([osabi]) + b"\0" * 8
    hdr = ident + struct.pack("<HHIQQQIHHHHHH", etype, machine, 1, 0, 64, shoff, 0, 64, 56,
                              len(phdrs), 64, len(shdrs), 1)
    return hdr + ph + body + b"".join(shdrs)

def png(wd, ht, bits=8, ctype=6, interlace=0):
    def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", wd, ht, bits, ctype, 0, 0, interlace))
            + chunk(b"IEND", b""))

def gz(data, name=None, mtime=0, os_byte=3, level=9):
    flg = 8 if name else 0
    h = b"\x1f\x8b\x08" + bytes([flg]) + struct.pack("<I", mtime) + bytes([2 if level == 9 else 0, os_byte])
    if name:
        h += name + b"\0"
    c = zlib.compressobj(level, zlib.DEFLATED, -15)
    return h + c.compress(data) + c.flush() + struct.pack("<II", zlib.crc32(data), len(data))

def tar(fmt):
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode="w", format=fmt) as t:
        ti = tarfile.TarInfo("a.txt"); ti.size = 6; t.addfile(ti, io.BytesIO(b"hello\n"))
    return b.getvalue()

def zipped(method):
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", compression=method) as z:
        z.writestr("a.txt", "hello hello hello\n")
    return b.getvalue()

jfif = b"\xff\xd8\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x48\x00\x48\x00\x00"
sof = b"\xff\xc0" + struct.pack(">HBHHB", 17, 8, 240, 320, 3) + b"\x01\x22\x00\x02\x11\x01\x03\x11\x01"

FILES = {
    "empty": b"",
    "ascii": b"hello world\nsecond line\n",
    "crlf": b"hello\r\nworld\r\n",
    "cr": b"hello\rworld\r",
    "mixed": b"hello\r\nworld\n",
    "allterm": b"x\ry\nz\r\n",
    "noeol": b"hello world",
    "long": b"x" * 400 + b"\n" + b"y" * 10 + b"\n",
    "long301": b"x" * 301 + b"\n",
    "long300": b"x" * 300 + b"\n",
    "longu8": "é".encode() * 350 + b"\n",
    "utf8": "héllo wörld\n".encode(),
    "utf8bom": "\ufeffhello\n".encode(),
    "u8crlf": "hé\r\n".encode(),
    "latin1": b"h\xe9llo w\xf6rld\n",
    "l1mix": b"h\xe9\r\nx\n",
    "ext": b"h\x80llo\n",
    "nel": b"\x85x\n",
    "esc": b"hello\x1b[0mworld\n",
    "bs": b"a\bb\n",
    "u16le": b"\xff\xfeh\x00i\x00\n\x00",
    "u16be": b"\xfe\xff\x00h\x00i\x00\n",
    "nul": b"hello\0world\n",
    "data": b"\x00\x01\x02\x03\xfe\xff\x00\x10" * 8,
    "json": b'{"a": [1, 2, {"b": null}], "c": "d\\u00e9"}\n',
    "json2": b"[1, 2, 3]\n",
    "j_empty": b"{}",
    "j_nd": b'{"a":1}\n{"b":2}\n',
    "j_trail": b'{"a":1,}\n',
    "j_num": b"1\n",
    "j_str": b'"s"\n',
    "j_broken": b'{"a":1\n',
    "j_u8": '{"a": "é"}\n'.encode(),
    "csv": b"a,b,c\n1,2,3\n",
    "csv2": b"a,b\n1,2\n3,4\n5,6\n",
    "csv3": b'name,"x,y"\n1,2\n3,4\n',
    "xml": b'<?xml version="1.0" encoding="UTF-8"?>\n<root><a>1</a></root>\n',
    "svg": b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>\n',
    "html": b"<!DOCTYPE html>\n<html><head><title>x</title></head><body>hi</body></html>\n",
    "html2": b"<html>\n<body>hi</body>\n</html>\n",
    "html3": b"x\n<HEAD>\n",
    "sh": b"#!/bin/sh\necho hi\n",
    "sh_e": b"#!/bin/sh -e\necho hi\n",
    "sh_noeol": b"#!/bin/sh",
    "bash": b"#!/bin/bash\necho hi\n",
    "envbash": b"#!/usr/bin/env bash\necho hi\n",
    "bash_crlf": b"#!/bin/bash\r\nx\r\n",
    "bash_u8": "#!/bin/bash\necho hé\n".encode(),
    "py": b"#!/usr/bin/env python3\nprint('hi')\n",
    "py2": b"#!/usr/bin/python\nprint('hi')\n",
    "pydef": b"def f():\n  pass\n",
    "node": b"#!/usr/bin/env node\nconsole.log(1)\n",
    "node_u8": "#!/usr/bin/env node\nhé\n".encode(),
    "perl": b"#!/usr/bin/perl\nprint 1;\n",
    "awk": b"#!/usr/bin/awk -f\n{print}\n",
    "ruby": b"#!/usr/bin/env ruby\nputs 1\n",
    "zsh": b"#!/bin/zsh\necho\n",
    "other": b"#!/opt/bin/tool --flag\nx\n",
    "envother": b"#!/usr/bin/env deno\nx\n",
    "csrc": b'#include <stdio.h>\nint main(void) {\n  printf("hi\\n");\n  return 0;\n}\n',
    "cmain": b"int main() {\n}\n",
    "hdr": b"#ifndef X_H\n#define X_H\nint f(void);\n#endif\n",
    "c_ifdef": b"x\n#ifndef X\n#define Y\n",
    "c_ifonly": b"#ifdef X\n",
    "c_define": b"#define X 1\n",
    "c_pragma": b"#  pragma once\n",
    "c_struct": b"/* c */\nstruct a {\n};\n",
    "c_fnmain": b"fn main() {\n}\n",
    "cxx_ns": b"namespace std\n{\n}\n",
    "cxx_ns2": b"namespace a::b {\n",
    "cxx_tmpl": b"template <typename T>\nstruct X;\n",
    "cxx_class": b"#include <a>\nclass A {\n};\n",
    "cxx_pub": b"struct A {\npublic:\n};\n",
    "cxx_virt": b"struct A {\n  virtual void f() = 0;\n};\n",
    "js_strict": b'"use strict";\n',
    "js_req": b'const x = require("x");\n',
    "py_from": b"from os import path\n",
    "py_imp": b"import os\n",
    "py_class": b"class A(object):\n    pass\n",
    "py_try": b"try:\n    x()\nexcept ValueError:\n    pass\n",
    "py_init": b"    def __init__(self):\n",
    "pl_pod": b"x\n=head1 NAME\n",
    "pl_pkg": b"package Foo::Bar;\n1;\n",
    "nul_tail": b"hel\xff\x00\x00\x00\x00",
    "nul_tail2": b"abc\n\x00\x00",
    "gif_w0": b"GIF89a\x00\x00\x10\x00" + b"\x00" * 8,
    "gif_nover": b"GIF8xx\x37\x61\x0a\x00" + b"\x00" * 8,
    "png_noihdr": b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIXDR" + b"\x00" * 16,
    "zip_m5": zipped(zipfile.ZIP_STORED)[:8] + b"\x05\x00" + zipped(zipfile.ZIP_STORED)[10:],
    "elf_noph": elf()[:64].replace(b"\x40\x00\x00\x00\x00\x00\x00\x00\x00", b"\xff" * 9, 1),
    "one": b"a",
    "nl1": b"\n",
    "bin_sh": b"#!/bin/sh\n\x00\x01",
    "bin_bash": b"#!/bin/bash\n\x00",
    "bin_node": b"#!/usr/bin/env node\n\x00",
    "bin_perl": b"#!/usr/bin/perl\n\x00",
    "bin_py": b"#!/usr/bin/python3\n\x00",
    "bin_odd": b"#!/usr/bin/x\x01y\n\x00",
    "u8_shebang": "#!/opt/é/tool\nx\n".encode(),
    "n\u00e9me": b"x\n",
    "t\tab": b"x\n",
    "pdf": b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n",
    "pdf17": b"%PDF-1.7\n",
    "gz": gz(b"hello\n"),
    "gz_name": gz(b"hello\n" * 10, name=b"hello.txt", mtime=1700000000, os_byte=255),
    "gz_fast": gz(b"abc", os_byte=0, level=1),
    "bz2": bz2.compress(b"hello\n"),
    "xz": lzma.compress(b"hello\n"),
    "xz32": lzma.compress(b"hello\n", check=lzma.CHECK_CRC32),
    "zip": zipped(zipfile.ZIP_STORED),
    "zipdefl": zipped(zipfile.ZIP_DEFLATED),
    "tar": tar(tarfile.USTAR_FORMAT),
    "gnutar": tar(tarfile.GNU_FORMAT),
    "png": png(640, 480),
    "png2": png(16, 16, 8, 2, 1),
    "png3": png(1, 1, 1, 0),
    "png4": png(32, 8, 8, 3),
    "png5": png(7, 9, 16, 4),
    "gif": b"GIF89a" + struct.pack("<HH", 320, 200) + b"\xf7\x00\x00" + b"\x00" * 20,
    "gif87": b"GIF87a" + struct.pack("<HH", 10, 20) + b"\x80\x00\x00" + b"\x00" * 20,
    "jpg": jfif + sof + b"\xff\xd9",
    "jpg2": (b"\xff\xd8\xff\xdb" + struct.pack(">H", 4) + b"\x00\x00" + b"\xff\xc2"
             + struct.pack(">HBHHB", 11, 8, 100, 200, 1) + b"\x01\x11\x00" + b"\xff\xd9"),
    "elf_pie": elf(),
    "elf_so": elf(pie=False, osabi=3),
    "elf_exe": elf(etype=2, pie=False, symtab=True),
    "elf_static": elf(etype=2, pie=False, interp=None, dynamic=False, buildid=bytes(range(8))),
    "elf_rel": elf(etype=1, interp=None, dynamic=False, buildid=None, abi=None, symtab=True),
    "elf_dbg": elf(symtab=True, debug=True),
    "elf_arm": elf(machine=183, buildid=None),
    # file gives up past 2048 program headers, and reads 8192 bytes of a
    # dynamic segment: its DF_1_PIE as the 513th entry goes unseen
    "elf_manyph": elf()[:56] + struct.pack("<H", 3000) + elf()[58:],
    "elf_dyn512": (b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 8
                   + struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, 64, 0, 0, 64, 56, 1, 64, 0, 0)
                   + struct.pack("<IIQQQQQQ", 2, 6, 120, 0, 0, 513 * 16 + 16, 0, 8)
                   + b"A" * (512 * 16) + struct.pack("<qQ", 0x6ffffffb, 0x08000000)
                   + b"\x00" * 16),
}
DIRS = ["dir"]
LINKS = {"link": "ascii", "broken": "nowhere", "dlink": "dir"}

CASES = []
def add(*argv, stdin=None):
    CASES.append((stdin, list(argv)))

names = sorted(FILES)
for i in range(0, len(names), 8):
    add("file", *names[i:i + 8])
add("file", "dir", "link", "broken", "dlink", "nofile")
add("file", "n\u00e9me", "t\tab", "one")
add("file", "-i", "one", "bin_sh", "bin_odd", "bin_perl")
add("file", "-L", "link", "broken", "dlink")
add("file", "-h", "link")
add("file", "-b", "ascii", "png")
add("file", "-F", "|", "ascii", "png")
add("file", "-N", "ascii", "png")
add("file", "-bF", "|", "ascii")
add("file", "-i", "ascii", "utf8", "latin1", "ext", "empty", "dir", "link", "broken", "nofile")
add("file", "-i", "json", "xml", "html", "sh", "py", "csrc", "pdf", "gz", "bz2", "xz")
add("file", "-i", "zip", "tar", "png", "gif", "jpg", "nul", "crlf", "elf_pie", "elf_so")
add("file", "-i", "node", "perl", "awk", "zsh", "ruby", "csv2", "j_nd", "u16le")
add("file", "--mime-type", "ascii", "png", "dir")
add("file", "--mime-encoding", "ascii", "utf8", "latin1", "nul", "dir")
add("file", "-bi", "ascii")
add("file", "-", stdin=b"hello\n")
add("file", "-")
add("file", "-f", "list")
add("file")
add("file", "-x", "ascii")
add("file", "--bogus")

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
    FILES["list"] = b"ascii\npng\ndir\n"
    for name, data in FILES.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    for name in DIRS:
        os.mkdir(os.path.join(d, name))
    for name, target in LINKS.items():
        os.symlink(target, os.path.join(d, name))
    print("/* Generated by tests/unit/record_file.py: do not edit. */")
    print("static const struct { const char *name; const char *data; size_t len; } file_files[] = {")
    for name, data in FILES.items():
        print("    {%s, %s, %d}," % (cstr(name.encode()), cstr(data), len(data)))
    print("};")
    print("static const char *const file_dirs[] = {%s, NULL};" % ", ".join(cstr(x.encode()) for x in DIRS))
    print("static const char *const file_links[][2] = {%s};" % ", ".join(
        "{%s, %s}" % (cstr(k.encode()), cstr(v.encode())) for k, v in LINKS.items()))
    print("static const bh_case file_cases[] = {")
    for stdin, argv in CASES:
        p = subprocess.run(argv, cwd=d, input=stdin or b"", capture_output=True,
                           env={"LC_ALL": "C", "PATH": os.environ["PATH"], "TZ": "UTC"})
        args = ", ".join(cstr(a.encode()) for a in argv)
        print("    BH_CASE(%s, %d, %s, %s, %s)," % (
            cstr(stdin) if stdin is not None else "NULL", p.returncode,
            cstr(p.stdout), cstr(p.stderr), args))
    print("};")

main()
