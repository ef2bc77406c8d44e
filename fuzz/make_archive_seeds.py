#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_archive (fuzz/corpus/archive/): small
tar (plain, gzip, bzip2, xz), zip, gzip, bzip2 and xz inputs, each behind
the byte that picks the command (see fuzz_archive.c), hostile members
included. Deterministic; run from the source directory."""
import bz2, gzip, io, lzma, os, tarfile, zipfile

T = 1704164645
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus', 'archive')
os.makedirs(out, exist_ok=True)

def tar_of(members, fmt=tarfile.GNU_FORMAT):
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode='w', format=fmt) as t:
        for name, kind, arg in members:
            i = tarfile.TarInfo(name)
            i.mtime, i.mode, i.uname, i.gname = T, 0o644, 'user', 'user'
            if kind == 'f':
                i.size = len(arg)
                t.addfile(i, io.BytesIO(arg))
            elif kind == 'd':
                i.type = tarfile.DIRTYPE
                t.addfile(i)
            elif kind == 'h':
                i.type = tarfile.LNKTYPE
                i.linkname = arg
                t.addfile(i)
            else:
                i.type = tarfile.SYMTYPE
                i.linkname = arg
                t.addfile(i)
    return b.getvalue()

plain = tar_of([('d', 'd', None), ('d/a', 'f', b'hello\n'), ('d/l', 'l', 'a'),
                ('d/h', 'h', 'd/a'), ('d/e', 'f', b'')])
evil = tar_of([('/evil', 'f', b'x'), ('../evil', 'f', b'x'), ('l', 'l', '/tmp'),
               ('l/evil', 'f', b'x'), ('m', 'l', '..'), ('m/evil', 'f', b'x')])
pax = tar_of([('long/' + 'n' * 150, 'f', b'p' * 600)], tarfile.PAX_FORMAT)
zb = io.BytesIO()
with zipfile.ZipFile(zb, 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('d/', b'')
    z.writestr('d/a', b'hello\n' * 50)
    z.writestr('../evil', b'x')
    z.writestr('/evil', b'y')
seeds = {
    'tar': b'\0' + plain, 'tar_evil': b'\0' + evil, 'tar_pax': b'\0' + pax,
    'tgz': b'\0' + gzip.compress(plain, mtime=0),
    'tbz': b'\0' + bz2.compress(evil), 'txz': b'\0' + lzma.compress(plain),
    'list': b'\1' + plain, 'list_evil': b'\1' + evil,
    'zip': b'\2' + zb.getvalue(), 'zip_list': b'\3' + zb.getvalue(),
    'gz': b'\4' + gzip.compress(b'hello\n' * 100, mtime=0),
    'bz2': b'\5' + bz2.compress(b'hello\n' * 100),
    'xz': b'\6' + lzma.compress(b'hello\n' * 100),
    'gz_two': b'\7' + gzip.compress(b'a', mtime=0) * 2 + b'junk',
}
for k, v in seeds.items():
    with open(os.path.join(out, k), 'wb') as f:
        f.write(v)
