"""vsh: a bash-compatible shell and an in-memory copy-on-write filesystem,
run inside this process through libvsh (ctypes; no other dependency).

    from vsh import Sandbox
    with Sandbox(workspace_root="/workspace") as sb:
        sb.write_file("hello.txt", "hi\\n")
        print(sb.exec("cat hello.txt | tr a-z A-Z").stdout)

libvsh is found through the VSH_LIBRARY environment variable (a path to
libvsh.so) or else the system linker.
"""

from ._archive import ArchiveError
from ._async import AsyncSandbox
from ._sandbox import (
    CancelToken,
    ExecCancelled,
    ExecResult,
    ExecTimeout,
    Sandbox,
    Snapshot,
    VshError,
)

__all__ = [
    "ArchiveError",
    "AsyncSandbox",
    "CancelToken",
    "ExecCancelled",
    "ExecResult",
    "ExecTimeout",
    "Sandbox",
    "Snapshot",
    "VshError",
    "library_version",
]
__version__ = "0.1.0"


def library_version():
    """Version string of the libvsh actually loaded."""
    from . import _lib

    return _lib.get().vsh_version_string().decode()
