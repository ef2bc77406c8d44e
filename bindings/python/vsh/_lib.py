"""ctypes declarations of the libvsh C API (include/vsh.h) and its loader."""

import ctypes
import ctypes.util
import os

# vsh_status
OK = 0
ERROR = 1
NOMEM = 2
MISUSE = 3
FS = 4
ABORT = 5
TIMEOUT = 6
LIMIT = 7
UNSUPPORTED = 8
REJECTED = 9
DIED = 10

# vsh_exec_opts.flags
EXEC_REPLACE_ENV = 1 << 0

# vsh_result.flags
RESULT_TIMED_OUT = 1 << 0
RESULT_LIMIT = 1 << 1
RESULT_CANCELLED = 1 << 2
RESULT_OUTPUT_TRUNCATED = 1 << 3

# vsh_mkdir / vsh_rm flags
RECURSIVE = 1 << 0
FORCE = 1 << 1

# vsh_file_type
TYPE_FILE = 1
TYPE_DIR = 2
TYPE_SYMLINK = 3

c_size_p = ctypes.POINTER(ctypes.c_size_t)


class Limits(ctypes.Structure):
    _fields_ = [
        ("max_commands", ctypes.c_uint64),
        ("max_loop_iterations", ctypes.c_uint64),
        ("max_call_depth", ctypes.c_uint32),
        ("max_output_bytes", ctypes.c_uint64),
        ("max_memory", ctypes.c_uint64),
        ("max_fs_bytes", ctypes.c_uint64),
        ("max_fs_inodes", ctypes.c_uint64),
        ("max_string_bytes", ctypes.c_uint64),
        ("timeout_ms", ctypes.c_int64),
        ("max_jobs", ctypes.c_uint32),
    ]


class HttpHeader(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("value", ctypes.c_char_p)]


class NetRule(ctypes.Structure):
    _fields_ = [
        ("prefix", ctypes.c_char_p),
        ("headers", ctypes.POINTER(HttpHeader)),
        ("nheaders", ctypes.c_size_t),
    ]


class NetPolicy(ctypes.Structure):
    _fields_ = [
        ("rules", ctypes.POINTER(NetRule)),
        ("nrules", ctypes.c_size_t),
        ("methods", ctypes.POINTER(ctypes.c_char_p)),
        ("nmethods", ctypes.c_size_t),
        ("dangerously_allow_all_methods", ctypes.c_int),
        ("deny_private", ctypes.c_int),
        ("max_redirects", ctypes.c_int),
        ("timeout_ms", ctypes.c_int64),
        ("max_response_bytes", ctypes.c_uint64),
        ("ca_file", ctypes.c_char_p),
        ("transport", ctypes.c_void_p),
        ("transport_ud", ctypes.c_void_p),
    ]


class FileInit(ctypes.Structure):
    _fields_ = [
        ("path", ctypes.c_char_p),
        ("data", ctypes.c_void_p),
        ("len", ctypes.c_size_t),
        ("mode", ctypes.c_uint),
    ]


class Mount(ctypes.Structure):
    _fields_ = [("host_dir", ctypes.c_char_p), ("virtual_path", ctypes.c_char_p)]


class Config(ctypes.Structure):
    _fields_ = [
        ("files", ctypes.POINTER(FileInit)),
        ("nfiles", ctypes.c_size_t),
        ("cwd", ctypes.c_char_p),
        ("env", ctypes.POINTER(ctypes.c_char_p)),
        ("limits", Limits),
        ("alloc", ctypes.c_void_p),
        ("alloc_ud", ctypes.c_void_p),
        ("clock", ctypes.c_void_p),
        ("clock_ud", ctypes.c_void_p),
        ("random", ctypes.c_void_p),
        ("random_ud", ctypes.c_void_p),
        ("net", ctypes.POINTER(NetPolicy)),
        ("mounts", ctypes.POINTER(Mount)),
        ("nmounts", ctypes.c_size_t),
        ("flags", ctypes.c_uint),
    ]


OUTPUT_FN = ctypes.CFUNCTYPE(
    None, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t
)
WRITE_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)


class ExecOpts(ctypes.Structure):
    _fields_ = [
        ("cwd", ctypes.c_char_p),
        ("env", ctypes.POINTER(ctypes.c_char_p)),
        ("flags", ctypes.c_uint),
        ("stdin_data", ctypes.c_void_p),
        ("stdin_len", ctypes.c_size_t),
        ("args", ctypes.POINTER(ctypes.c_char_p)),
        ("nargs", ctypes.c_size_t),
        ("timeout_ms", ctypes.c_int64),
        ("cancel", ctypes.c_void_p),
        ("on_output", OUTPUT_FN),
        ("output_ud", ctypes.c_void_p),
        ("argv0", ctypes.c_char_p),
    ]


class Result(ctypes.Structure):
    # the buffers are c_void_p: they may hold NUL bytes (read with the length)
    _fields_ = [
        ("out", ctypes.c_void_p),
        ("out_len", ctypes.c_size_t),
        ("err", ctypes.c_void_p),
        ("err_len", ctypes.c_size_t),
        ("status", ctypes.c_int),
        ("flags", ctypes.c_uint),
    ]


class Stat(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int),
        ("mode", ctypes.c_uint),
        ("ino", ctypes.c_uint64),
        ("nlink", ctypes.c_uint32),
        ("size", ctypes.c_uint64),
        ("mtime_ns", ctypes.c_int64),
        ("ctime_ns", ctypes.c_int64),
        ("atime_ns", ctypes.c_int64),
    ]


_P = ctypes.c_void_p
_S = ctypes.c_char_p
_I = ctypes.c_int
_U = ctypes.c_uint

# name: (restype, argtypes)
_SIGNATURES = {
    "vsh_version_string": (_S, []),
    "vsh_status_str": (_S, [_I]),
    "vsh_config_init": (None, [ctypes.POINTER(Config)]),
    "vsh_open": (_I, [ctypes.POINTER(Config), ctypes.POINTER(_P)]),
    "vsh_close": (None, [_P]),
    "vsh_errmsg": (_S, [_P]),
    "vsh_errcode": (_I, [_P]),
    "vsh_free": (None, [_P, _P]),
    "vsh_free_names": (None, [_P, _P, ctypes.c_size_t]),
    "vsh_cancel_new": (_P, []),
    "vsh_cancel_set": (None, [_P]),
    "vsh_cancel_is_set": (_I, [_P]),
    "vsh_cancel_reset": (None, [_P]),
    "vsh_cancel_free": (None, [_P]),
    "vsh_exec_n": (
        _I,
        [_P, _P, ctypes.c_size_t, ctypes.POINTER(ExecOpts), ctypes.POINTER(Result)],
    ),
    "vsh_result_free": (None, [ctypes.POINTER(Result)]),
    "vsh_read_file": (_I, [_P, _S, ctypes.POINTER(_P), c_size_p]),
    "vsh_write_file": (_I, [_P, _S, _P, ctypes.c_size_t, _U]),
    "vsh_stat_path": (_I, [_P, _S, ctypes.POINTER(Stat)]),
    "vsh_lstat_path": (_I, [_P, _S, ctypes.POINTER(Stat)]),
    "vsh_readdir": (_I, [_P, _S, ctypes.POINTER(_P), c_size_p]),
    "vsh_exists": (_I, [_P, _S]),
    "vsh_mkdir": (_I, [_P, _S, _U]),
    "vsh_rm": (_I, [_P, _S, _U]),
    "vsh_chmod": (_I, [_P, _S, _U]),
    "vsh_snapshot_take": (_I, [_P, ctypes.POINTER(_P)]),
    "vsh_restore": (_I, [_P, _P]),
    "vsh_snapshot_free": (None, [_P]),
    "vsh_fork": (_I, [_P, ctypes.POINTER(_P)]),
    "vsh_persist": (_I, [_P, _S, ctypes.POINTER(_S), WRITE_FN, _P]),
    "vsh_hydrate": (_I, [_P, _S, _P, ctypes.c_size_t]),
}


def _candidates():
    env = os.environ.get("VSH_LIBRARY")
    if env:
        return [env]
    names = []
    found = ctypes.util.find_library("vsh")
    if found:
        names.append(found)
    names += ["libvsh.so", "libvsh.so.0", "libvsh.dylib"]
    return names


def _load():
    errors = []
    for name in _candidates():
        try:
            lib = ctypes.CDLL(name)
        except OSError as e:
            errors.append(str(e))
            continue
        for fn, (res, args) in _SIGNATURES.items():
            f = getattr(lib, fn)
            f.restype = res
            f.argtypes = args
        return lib
    raise ImportError(
        "libvsh not found (set VSH_LIBRARY to the path of libvsh.so, or "
        "install it where the system linker finds it): " + "; ".join(errors)
    )


_lib = None


def get():
    """The loaded library (loaded on first use)."""
    global _lib
    if _lib is None:
        _lib = _load()
    return _lib
