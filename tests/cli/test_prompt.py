#!/usr/bin/env python3
"""The interactive prompt of `vsh -i`, driven through a pseudo-terminal as a
person would: type, edit with the arrow keys, complete with Tab, go back in
the history, and read what the screen shows.

Usage: test_prompt.py PATH_TO_VSH
"""
import os
import pty
import re
import select
import sys
import time

VSH = sys.argv[1]
ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][0-9A-B]|\r")
failures = []


class Term:
    def __init__(self, *args):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            env = {"TERM": "xterm", "PATH": "/usr/bin:/bin", "HOME": "/tmp"}
            os.execve(VSH, [VSH, "-i", *args], env)
        self.seen = b""

    def read_until(self, want, timeout=10.0):
        """Reads until the screen (escape sequences dropped) holds want
        after what was seen before; returns the new text."""
        start = len(ANSI.sub(b"", self.seen))
        end = time.time() + timeout
        while time.time() < end:
            text = ANSI.sub(b"", self.seen)[start:]
            if want in text:
                return text
            r, _, _ = select.select([self.fd], [], [], 0.1)
            if r:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                self.seen += chunk
        return None

    def type(self, keys):
        for k in keys:
            os.write(self.fd, k.encode() if isinstance(k, str) else k)
            time.sleep(0.05)

    def close(self):
        try:
            os.write(self.fd, b"\x04")
        except OSError:
            pass
        end = time.time() + 10
        while time.time() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            r, _, _ = select.select([self.fd], [], [], 0.05)
            if r:
                try:
                    os.read(self.fd, 4096)
                except OSError:
                    pass
        os.kill(self.pid, 9)
        os.waitpid(self.pid, 0)
        return None


def check(name, cond, detail=""):
    print(("ok   " if cond else "FAIL ") + name)
    if not cond:
        failures.append(name)
        if detail:
            print("     " + repr(detail)[:400])


LEFT, UP = b"\x1b[D", b"\x1b[A"

t = Term("--norc")
check("prompt shows", t.read_until(b"vsh$ ") is not None, t.seen)

# editing: a missing letter put back with the left arrow
t.type(["echo helo", LEFT, "l", "\r"])
out = t.read_until(b"hello\n")
check("arrow-key edit", out is not None, t.seen[-200:])

# Tab completes a command and a path from the sandbox, not the host
t.type(["echo abc > /tmp/a-long-file-name.txt\r"])
t.read_until(b"vsh$ ")
t.type(["ech\t", "X; cat /tmp/a-lo\t", "\r"])
out = t.read_until(b"X\nabc\n")
check("tab completes command and path", out is not None, t.seen[-300:])

# a variable
t.type(["MYVARIABLE=42\r"])
t.read_until(b"vsh$ ")
t.type(["echo $MYVAR\t\r"])
check("tab completes a variable", t.read_until(b"42\n") is not None,
      t.seen[-300:])

# history: the up arrow brings the last command back
t.type(["echo again-$((1+1))\r"])
t.read_until(b"again-2\n")
t.type([UP, "\r"])
out = t.read_until(b"again-2\n")
check("up arrow recalls history", out is not None, t.seen[-300:])

# PS1 and PS2 expanded as bash does
t.type(["PS1='[\\w]\\$ '; PS2='more> '\r"])
check("PS1 expanded", t.read_until(b"[~]$ ") is not None, t.seen[-300:])
t.type(["if true\r"])
check("PS2 for a continued command", t.read_until(b"more> ") is not None,
      t.seen[-300:])
t.type(["then echo done-if; fi\r"])
check("continued command runs", t.read_until(b"done-if\n") is not None,
      t.seen[-300:])

# a syntax error does not end the session
t.type(["if then fi\r"])
out = t.read_until(b"syntax error")
t.type(["echo still-here\r"])
check("syntax error keeps the session", t.read_until(b"still-here\n") is not None,
      t.seen[-300:])

# exit status of the session is the last command's
t.type(["false\r"])
t.read_until(b"]$ ")
check("Ctrl-D ends with the last status", t.close() == 1)

# an rc file from the sandbox is read unless --norc
t = Term("--rcfile", "/dev/null")
check("--rcfile accepted", t.read_until(b"vsh$ ") is not None, t.seen)
t.close()

if failures:
    print(f"{len(failures)} failed: {', '.join(failures)}")
    sys.exit(1)
print("prompt test: all passed")
