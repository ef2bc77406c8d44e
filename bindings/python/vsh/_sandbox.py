"""The synchronous sandbox: one libvsh sandbox behind a Python object."""

import ctypes
import errno as _errno
import math
import os
import posixpath
import shlex
import threading
from dataclasses import dataclass

from . import _archive
from . import _lib as L


@dataclass(frozen=True)
class ExecResult:
    """What a command printed and how it ended."""

    stdout: bytes
    stderr: bytes
    exit_code: int


class VshError(OSError):
    """A libvsh call failed for a reason other than a file error."""

    def __init__(self, status, message, code=0):
        super().__init__(code or None, message)
        self.status = status
        self.message = message


class ExecTimeout(TimeoutError):
    """The command ran past its deadline; .result holds what it printed
    until then (exit_code 124)."""

    def __init__(self, result, timeout=None):
        self.result = result
        self.timeout = timeout
        what = f" of {timeout:g} s" if timeout is not None else ""
        super().__init__(f"command timed out (deadline{what} passed)")


class ExecCancelled(Exception):
    """The command was stopped through its CancelToken; .result holds what
    it printed until then."""

    def __init__(self, result):
        self.result = result
        super().__init__("command cancelled")


class CancelToken:
    """Stops a running exec when set; set() may be called from any thread."""

    def __init__(self):
        self._lib = L.get()
        self._p = self._lib.vsh_cancel_new()
        if not self._p:
            raise MemoryError("vsh_cancel_new failed")

    def set(self):
        if self._p:
            self._lib.vsh_cancel_set(self._p)

    def is_set(self):
        return bool(self._p and self._lib.vsh_cancel_is_set(self._p))

    def reset(self):
        if self._p:
            self._lib.vsh_cancel_reset(self._p)

    def __del__(self):
        p, self._p = getattr(self, "_p", None), None
        if p:
            self._lib.vsh_cancel_free(p)


class Snapshot:
    """A captured filesystem (snapshot()); it outlives its sandbox."""

    def __init__(self, lib, p):
        self._lib = lib
        self._p = p

    def close(self):
        p, self._p = self._p, None
        if p:
            self._lib.vsh_snapshot_free(p)

    def __del__(self):
        if getattr(self, "_p", None):
            self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


_LIMIT_FIELDS = [f[0] for f in L.Limits._fields_]


def _b(s, what="value"):
    if isinstance(s, bytes):
        b = s
    elif isinstance(s, str):
        b = s.encode("utf-8", "surrogateescape")
    elif isinstance(s, os.PathLike):
        return _b(os.fspath(s), what)
    else:
        raise TypeError(f"{what} must be str or bytes, not {type(s).__name__}")
    if b"\0" in b:
        raise ValueError(f"{what} contains a NUL byte")
    return b


def _data(d):
    if isinstance(d, str):
        return d.encode("utf-8", "surrogateescape")
    if isinstance(d, (bytes, bytearray, memoryview)):
        return bytes(d)
    raise TypeError(f"data must be str or bytes, not {type(d).__name__}")


def _env_array(env):
    """A NULL-terminated char *[] of "K=V" and the bytes that keep it alive."""
    items = [_b(k, "env name") + b"=" + _b(v, "env value") for k, v in env.items()]
    for k in env:
        if not k or "=" in str(k):
            raise ValueError(f"invalid environment variable name: {k!r}")
    arr = (ctypes.c_char_p * (len(items) + 1))(*items, None)
    return arr, items


def _quote_argv(argv):
    if not argv:
        raise ValueError("empty argument list")
    return " ".join(shlex.quote(os.fsdecode(a) if isinstance(a, bytes) else str(a))
                    for a in argv)


class Sandbox:
    """A bash-compatible shell and an in-memory filesystem, in this process.

    workspace_root is created (with its parents) and owned by the sandbox
    user; it is the working directory of every exec unless told otherwise,
    and relative paths of the file calls resolve against it. files maps
    paths (relative to workspace_root, or absolute) to contents (bytes, or
    str as UTF-8), all placed at once by libvsh's batch import."""

    def __init__(self, workspace_root="/workspace", env=None, limits=None,
                 allow_urls=None, files=None, *, _handle=None, _keep=None):
        self._lib = L.get()
        root = os.fsdecode(workspace_root) if isinstance(workspace_root, bytes) \
            else os.fspath(workspace_root)
        if not root.startswith("/"):
            raise ValueError(f"workspace_root must be an absolute path: {root!r}")
        self._root = posixpath.normpath(root)
        if self._root.startswith("//"):
            self._root = "/" + self._root.lstrip("/")
        self._env = dict(env or {})
        self._limits = dict(limits or {})
        self._allow_urls = list(allow_urls or [])
        self._cond = threading.Condition()
        self._busy = 0
        self._closed = False
        self._h = None
        # the network policy is referenced by the sandbox (and its forks)
        # for as long as it lives: keep what it points to alive
        self._keep = _keep
        if _handle is not None:
            self._h = _handle
            return
        cfg = L.Config()
        self._lib.vsh_config_init(ctypes.byref(cfg))
        root_b = _b(self._root, "workspace_root")
        cfg.cwd = root_b
        keep = [root_b]
        if self._env:
            arr, items = _env_array(self._env)
            cfg.env = ctypes.cast(arr, ctypes.POINTER(ctypes.c_char_p))
            keep += [arr, items]
        for k, v in self._limits.items():
            if k not in _LIMIT_FIELDS:
                raise ValueError(f"unknown limit {k!r} (known: {', '.join(_LIMIT_FIELDS)})")
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ValueError(f"limit {k} must be a non-negative integer")
            setattr(cfg.limits, k, v)
        if self._allow_urls:
            prefixes = [_b(u, "URL prefix") for u in self._allow_urls]
            rules = (L.NetRule * len(prefixes))()
            for i, p in enumerate(prefixes):
                rules[i].prefix = p
            pol = L.NetPolicy()
            pol.rules = rules
            pol.nrules = len(prefixes)
            cfg.net = ctypes.pointer(pol)
            keep += [prefixes, rules, pol]
            self._keep = keep
        if files:
            names = [_b(p, "file path") for p in files]
            datas = [_data(d) for d in files.values()]
            arr = (L.FileInit * len(names))()
            for i, (p, d) in enumerate(zip(names, datas)):
                arr[i].path = p
                arr[i].data = ctypes.cast(ctypes.c_char_p(d), ctypes.c_void_p)
                arr[i].len = len(d)
            cfg.files = arr
            cfg.nfiles = len(names)
            keep += [names, datas, arr]  # copied by vsh_open
        h = ctypes.c_void_p()
        st = self._lib.vsh_open(ctypes.byref(cfg), ctypes.byref(h))
        if st != L.OK:
            name = self._lib.vsh_status_str(st).decode()
            if h.value:
                msg = self._lib.vsh_errmsg(h).decode("utf-8", "replace")
                self._lib.vsh_close(h)
            else:
                msg = name
            if st == L.NOMEM:
                raise MemoryError(f"vsh_open: {msg}")
            if st == L.MISUSE:
                raise ValueError(f"vsh_open: {msg}")
            raise VshError(st, f"vsh_open: {msg}")
        self._h = h

    # ---- life cycle ----------------------------------------------------

    @property
    def workspace_root(self):
        return self._root

    @property
    def closed(self):
        return self._closed

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_h", None) and not self._closed:
            self._lib.vsh_close(self._h)
            self._h = None

    def close(self):
        """Release the sandbox; waits for calls still running in other
        threads (cancel their execs first to make that quick)."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            while self._busy:
                self._cond.wait()
            h, self._h = self._h, None
        if h:
            self._lib.vsh_close(h)

    def _enter(self):
        with self._cond:
            if self._closed:
                raise ValueError("operation on a closed sandbox")
            self._busy += 1
        return self._h

    def _leave(self):
        with self._cond:
            self._busy -= 1
            if not self._busy:
                self._cond.notify_all()

    def _path(self, p):
        p = os.fsdecode(p) if isinstance(p, bytes) else os.fspath(p)
        if not isinstance(p, str):
            raise TypeError("path must be str or bytes")
        if not p:  # as open(""): names nothing
            raise FileNotFoundError(_errno.ENOENT, os.strerror(_errno.ENOENT), p)
        return p if p.startswith("/") else posixpath.join(self._root, p)

    def _raise(self, h, st, path=None):
        code = self._lib.vsh_errcode(h)
        msg = (self._lib.vsh_errmsg(h) or b"").decode("utf-8", "replace")
        if st in (L.FS, L.ERROR, L.LIMIT) and code:
            if path is not None:
                e = OSError(code, os.strerror(code), path)
            else:
                e = OSError(code, msg)
            e.vsh_message = msg
            raise e
        if st == L.NOMEM:
            raise MemoryError(msg)
        if st == L.MISUSE:
            raise ValueError(msg)
        if st == L.REJECTED:
            raise _archive.ArchiveError("(archive)", msg)
        raise VshError(st, msg, code)

    def _call(self, fn, path, *args):
        h = self._enter()
        try:
            st = fn(h, *args)
            if st != L.OK:
                self._raise(h, st, path)
        finally:
            self._leave()

    # ---- exec ----------------------------------------------------------

    def exec(self, cmd, timeout=None, cwd=None, env=None, stdin=None, *,
             cancel=None):
        """Run cmd (a shell command line, or an argv list quoted for the
        shell) with fresh shell state; the filesystem persists between
        execs. Returns ExecResult whatever the exit code. Raises
        ExecTimeout when timeout (seconds) passes, ExecCancelled when the
        CancelToken is set."""
        if isinstance(cmd, (list, tuple)):
            script = _quote_argv(cmd).encode("utf-8", "surrogateescape")
        elif isinstance(cmd, bytes):
            script = cmd
        elif isinstance(cmd, str):
            script = cmd.encode("utf-8", "surrogateescape")
        else:
            raise TypeError("cmd must be a str, bytes or a list of arguments")
        opts = L.ExecOpts()
        keep = []
        cwd_full = self._path(cwd if cwd is not None else self._root)
        cwd_b = _b(cwd_full, "cwd")
        opts.cwd = cwd_b
        if env:
            arr, items = _env_array(dict(env))
            opts.env = ctypes.cast(arr, ctypes.POINTER(ctypes.c_char_p))
            keep += [arr, items]
        if stdin is not None:
            sd = _data(stdin)
            buf = ctypes.create_string_buffer(sd, len(sd) or 1)
            opts.stdin_data = ctypes.cast(buf, ctypes.c_void_p)
            opts.stdin_len = len(sd)
            keep.append(buf)
        if timeout is not None:
            if timeout <= 0:
                raise ValueError("timeout must be positive")
            opts.timeout_ms = max(1, math.ceil(timeout * 1000))
        if cancel is not None:
            opts.cancel = cancel._p
        res = L.Result()
        h = self._enter()
        try:
            # a missing or non-directory cwd fails as a host process would,
            # instead of running somewhere else
            sbuf = L.Stat()
            st = self._lib.vsh_stat_path(h, cwd_b, ctypes.byref(sbuf))
            if st != L.OK:
                self._raise(h, st, cwd_full)
            if sbuf.type != L.TYPE_DIR:
                raise NotADirectoryError(_errno.ENOTDIR,
                                         os.strerror(_errno.ENOTDIR), cwd_full)
            st = self._lib.vsh_exec_n(h, script, len(script), ctypes.byref(opts),
                                      ctypes.byref(res))
            try:
                if st not in (L.OK, L.ABORT):
                    self._raise(h, st)
                out = ctypes.string_at(res.out, res.out_len) if res.out else b""
                err = ctypes.string_at(res.err, res.err_len) if res.err else b""
                result = ExecResult(out, err, res.status)
                flags = res.flags
            finally:
                self._lib.vsh_result_free(ctypes.byref(res))
        finally:
            self._leave()
        if st == L.ABORT or flags & L.RESULT_CANCELLED:
            raise ExecCancelled(result)
        if flags & L.RESULT_TIMED_OUT:
            raise ExecTimeout(result, timeout)
        return result

    # ---- files ---------------------------------------------------------

    def read_file(self, path, encoding=None):
        """Content of a file as bytes (or str when encoding is given)."""
        full = self._path(path)
        data = ctypes.c_void_p()
        n = ctypes.c_size_t()
        h = self._enter()
        try:
            st = self._lib.vsh_read_file(h, _b(full, "path"), ctypes.byref(data),
                                         ctypes.byref(n))
            if st != L.OK:
                self._raise(h, st, full)
            try:
                out = ctypes.string_at(data, n.value) if n.value else b""
            finally:
                self._lib.vsh_free(h, data)
        finally:
            self._leave()
        return out.decode(encoding) if encoding else out

    def write_file(self, path, data, mode=0, parents=True):
        """Create or replace a file with data (str is written as UTF-8).
        Missing parent directories are created unless parents is False."""
        full = self._path(path)
        d = _data(data)
        pb = _b(full, "path")
        h = self._enter()
        try:
            st = self._lib.vsh_write_file(h, pb, d, len(d), mode)
            if (st == L.FS and parents and
                    self._lib.vsh_errcode(h) == _errno.ENOENT):
                parent = posixpath.dirname(full)
                if self._lib.vsh_mkdir(h, _b(parent), L.RECURSIVE) == L.OK:
                    st = self._lib.vsh_write_file(h, pb, d, len(d), mode)
            if st != L.OK:
                self._raise(h, st, full)
        finally:
            self._leave()

    def exists(self, path):
        """True when path names something (a dangling symlink counts)."""
        try:
            pb = _b(self._path(path), "path")
        except (ValueError, OSError):
            return False
        h = self._enter()
        try:
            return bool(self._lib.vsh_exists(h, pb))
        finally:
            self._leave()

    def stat(self, path, follow_symlinks=True):
        """os.stat_result-like fields of path: st_mode (with the type bits),
        st_size, st_mtime, st_ino, st_nlink."""
        full = self._path(path)
        s = L.Stat()
        fn = self._lib.vsh_stat_path if follow_symlinks else self._lib.vsh_lstat_path
        self._call(fn, full, _b(full, "path"), ctypes.byref(s))
        kind = {L.TYPE_FILE: 0o100000, L.TYPE_DIR: 0o040000,
                L.TYPE_SYMLINK: 0o120000, 4: 0o020000, 5: 0o010000}.get(s.type, 0)
        return os.stat_result((kind | s.mode, s.ino, 0, s.nlink, 1000, 1000,
                               s.size, s.atime_ns // 10**9, s.mtime_ns // 10**9,
                               s.ctime_ns // 10**9))

    def ls(self, path="."):
        """Names in a directory, sorted, without '.' and '..'."""
        full = self._path(path)
        names = ctypes.c_void_p()
        n = ctypes.c_size_t()
        h = self._enter()
        try:
            st = self._lib.vsh_readdir(h, _b(full, "path"), ctypes.byref(names),
                                       ctypes.byref(n))
            if st != L.OK:
                self._raise(h, st, full)
            arr = ctypes.cast(names, ctypes.POINTER(ctypes.c_char_p))
            out = [os.fsdecode(arr[i]) for i in range(n.value)]
            self._lib.vsh_free_names(h, names, n.value)
        finally:
            self._leave()
        return out

    def mkdir(self, path, parents=False):
        """Create a directory; with parents, as `mkdir -p` (missing parents
        created, an existing directory accepted)."""
        full = self._path(path)
        self._call(self._lib.vsh_mkdir, full, _b(full, "path"),
                   L.RECURSIVE if parents else 0)

    def rm(self, path, recursive=False, force=False):
        """Remove a file, or a directory tree with recursive; force ignores a
        missing path."""
        full = self._path(path)
        flags = (L.RECURSIVE if recursive else 0) | (L.FORCE if force else 0)
        self._call(self._lib.vsh_rm, full, _b(full, "path"), flags)

    # ---- workspace archives --------------------------------------------

    def persist_workspace(self, skip=None):
        """The workspace as tar bytes (members `.`, `./a/b`); skip lists
        workspace-relative paths to leave out. Hard links are stored as
        copies of their file, so that hydrate_workspace takes the archive."""
        chunks = []

        def write(_ud, data, n):
            chunks.append(ctypes.string_at(data, n))
            return 0

        cb = L.WRITE_FN(write)
        skip_items = [_b(s, "skip path") for s in (skip or [])]
        skip_arr = (ctypes.c_char_p * (len(skip_items) + 1))(*skip_items, None)
        self._call(self._lib.vsh_persist, self._root, _b(self._root), skip_arr, cb, None)
        return _archive.without_hard_links(b"".join(chunks))

    def hydrate_workspace(self, data):
        """Extract a tar (plain or gzip) made by persist_workspace into the
        workspace. The whole archive is checked first; a refused archive
        raises vsh.ArchiveError and changes nothing."""
        d = _data(data)
        modes = _archive.check(d)
        root_b = _b(self._root)
        h = self._enter()
        try:
            st = self._lib.vsh_hydrate(h, root_b, d, len(d))
            if st == L.REJECTED:
                msg = (self._lib.vsh_errmsg(h) or b"").decode("utf-8", "replace")
                raise _archive.ArchiveError("(archive)", msg.removeprefix("hydrate: "))
            if st != L.OK:
                self._raise(h, st, self._root)
            for rel, mode in modes:
                full = _archive.join(self._root, rel)
                st = self._lib.vsh_chmod(h, _b(full), mode)
                if st != L.OK:
                    self._raise(h, st, full)
        finally:
            self._leave()

    # ---- snapshots -----------------------------------------------------

    def snapshot(self):
        """An O(1) capture of the whole filesystem."""
        out = ctypes.c_void_p()
        self._call(self._lib.vsh_snapshot_take, None, ctypes.byref(out))
        return Snapshot(self._lib, out)

    def restore(self, snap):
        """Make the filesystem the snapshot's again (copy-on-write)."""
        if not isinstance(snap, Snapshot) or not snap._p:
            raise ValueError("restore needs an open Snapshot")
        self._call(self._lib.vsh_restore, None, snap._p)

    def fork(self):
        """A new Sandbox with the same configuration sharing the files
        until either side writes them."""
        out = ctypes.c_void_p()
        self._call(self._lib.vsh_fork, None, ctypes.byref(out))
        return Sandbox(self._root, self._env, self._limits, self._allow_urls,
                       _handle=out, _keep=self._keep)
