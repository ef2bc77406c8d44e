"""Checks on a workspace archive before it is extracted.

libvsh's vsh_hydrate already refuses absolute names, `..` components,
device/FIFO/special members, duplicate paths, members under a symlink or
non-directory member, archives cut short, paths that would pass through an
existing symlink, and the size limits. The workspace contract is stricter;
the rules it adds are checked here, on the whole archive, before anything
is written: backslashes and Windows drive paths, hard links, and symlinks
whose target is absolute or leaves the workspace root.
"""

import io
import posixpath
import re
import tarfile

MAX_INPUT = 1 << 30  # 1 GiB
MAX_EXTRACTED = 4 << 30  # 4 GiB
MAX_MEMBERS = 100_000

_DRIVE = re.compile(r"^[A-Za-z]:")


class ArchiveError(ValueError):
    """A workspace archive was refused; nothing was extracted."""

    def __init__(self, member, rule):
        self.member = member
        self.rule = rule
        super().__init__(f"workspace archive member {member!r}: {rule}")


def _norm(name):
    """Member name relative to the root ('' is the root itself)."""
    parts = [p for p in name.split("/") if p not in ("", ".")]
    return "/".join(parts)


def _escapes(member_path, target):
    """Does a relative symlink target at member_path leave the root?"""
    depth = member_path.count("/")  # directories above the link, in the root
    for part in target.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            depth -= 1
            if depth < 0:
                return True
        else:
            depth += 1
    return False


def check(data):
    """Validate data (a tar, plain or gzip) and return the members' modes.

    Returns a list of (relative path, mode) for the directories and regular
    files, in archive order, with the workspace mode rule applied
    ((mode & 0o755) | 0o600). Raises ArchiveError."""
    if len(data) > MAX_INPUT:
        raise ArchiveError("(archive)", "input larger than 1 GiB")
    try:
        tf = tarfile.open(fileobj=io.BytesIO(data), mode="r:*")
    except (tarfile.TarError, EOFError, OSError) as e:
        raise ArchiveError("(archive)", f"not a readable tar archive ({e})") from None
    modes = []
    seen = {}
    total = 0
    count = 0
    with tf:
        while True:
            try:
                m = tf.next()
            except (tarfile.TarError, EOFError, OSError) as e:
                raise ArchiveError("(archive)", f"corrupt tar archive ({e})") from None
            if m is None:
                break
            count += 1
            if count > MAX_MEMBERS:
                raise ArchiveError(m.name, "more than 100,000 members")
            raw = m.name
            if "\\" in raw:
                raise ArchiveError(raw, "backslash in the path")
            if _DRIVE.match(raw):
                raise ArchiveError(raw, "Windows drive path")
            if raw.startswith("/"):
                raise ArchiveError(raw, "absolute path")
            if ".." in raw.split("/"):
                raise ArchiveError(raw, "'..' component")
            path = _norm(raw)
            if m.islnk():
                raise ArchiveError(raw, "hard link member")
            if not (m.isdir() or m.isreg() or m.issym()):
                raise ArchiveError(raw, "device, FIFO or special member")
            prev = seen.get(path)
            if prev is not None and not (prev and m.isdir()):
                raise ArchiveError(raw, "duplicate path")
            seen[path] = m.isdir()
            if m.issym():
                t = m.linkname
                if not t:
                    raise ArchiveError(raw, "empty symlink target")
                if t.startswith("/") or _DRIVE.match(t) or "\\" in t:
                    raise ArchiveError(raw, f"symlink target {t!r} is absolute")
                if _escapes(path, t):
                    raise ArchiveError(raw, f"symlink target {t!r} leaves the root")
                continue
            total += m.size
            if total > MAX_EXTRACTED:
                raise ArchiveError(raw, "extracted size over the 4 GiB limit")
            modes.append((path, (m.mode & 0o755) | 0o600))
    # members under a symlink or a file member
    for path in seen:
        parts = path.split("/")
        for i in range(1, len(parts)):
            parent = "/".join(parts[:i])
            if parent in seen and not seen[parent]:
                raise ArchiveError(path, "under a symlink or non-directory member")
    return modes


def without_hard_links(data):
    """data (a tar) with each hard link member replaced by a copy of the
    file it names, since hydrating refuses hard links; data itself when it
    has none."""
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as tf:
        members = tf.getmembers()
        if not any(m.islnk() for m in members):
            return data
        out = io.BytesIO()
        with tarfile.open(fileobj=out, mode="w:", format=tarfile.PAX_FORMAT) as w:
            for m in members:
                if m.islnk():
                    src = tf.getmember(m.linkname)
                    c = tarfile.TarInfo(m.name)
                    c.size, c.mode, c.mtime = src.size, m.mode, m.mtime
                    c.uid, c.gid, c.uname, c.gname = m.uid, m.gid, m.uname, m.gname
                    w.addfile(c, tf.extractfile(src))
                elif m.isreg():
                    w.addfile(m, tf.extractfile(m))
                else:
                    w.addfile(m)
        return out.getvalue()


def join(root, rel):
    return posixpath.join(root, rel) if rel else root
