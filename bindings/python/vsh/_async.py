"""AsyncSandbox: the Sandbox calls as coroutines, each run in a thread."""

import asyncio
import functools

from ._sandbox import CancelToken, Sandbox


class AsyncSandbox:
    """Sandbox with coroutine methods for asyncio code.

    Every call runs in the default executor, so the event loop keeps
    running while a command does. Cancelling the task that awaits exec()
    sets a vsh cancel token: the command stops, and the CancelledError is
    raised once it has."""

    def __init__(self, workspace_root="/workspace", env=None, limits=None,
                 allow_urls=None, files=None, *, _sync=None):
        self._sb = _sync if _sync is not None else Sandbox(
            workspace_root, env, limits, allow_urls, files)

    @property
    def sync(self):
        """The underlying Sandbox."""
        return self._sb

    @property
    def workspace_root(self):
        return self._sb.workspace_root

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        await self.close()

    async def _run(self, fn, *args, **kw):
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(None, functools.partial(fn, *args, **kw))

    async def exec(self, cmd, timeout=None, cwd=None, env=None, stdin=None):
        token = CancelToken()
        loop = asyncio.get_running_loop()
        fut = loop.run_in_executor(
            None,
            functools.partial(self._sb.exec, cmd, timeout=timeout, cwd=cwd,
                              env=env, stdin=stdin, cancel=token))
        try:
            return await asyncio.shield(fut)
        except asyncio.CancelledError:
            token.set()
            # the command stops at its next budget check; wait for that so
            # nothing of it runs on after the task is gone
            try:
                await asyncio.wait([fut])
            finally:
                if fut.done() and not fut.cancelled():
                    fut.exception()  # retrieved: the cancellation wins
            raise

    async def read_file(self, path, encoding=None):
        return await self._run(self._sb.read_file, path, encoding)

    async def write_file(self, path, data, mode=0, parents=True):
        return await self._run(self._sb.write_file, path, data, mode, parents)

    async def exists(self, path):
        return await self._run(self._sb.exists, path)

    async def stat(self, path, follow_symlinks=True):
        return await self._run(self._sb.stat, path, follow_symlinks)

    async def ls(self, path="."):
        return await self._run(self._sb.ls, path)

    async def mkdir(self, path, parents=False):
        return await self._run(self._sb.mkdir, path, parents)

    async def rm(self, path, recursive=False, force=False):
        return await self._run(self._sb.rm, path, recursive, force)

    async def persist_workspace(self, skip=None):
        return await self._run(self._sb.persist_workspace, skip)

    async def hydrate_workspace(self, data):
        return await self._run(self._sb.hydrate_workspace, data)

    async def snapshot(self):
        return await self._run(self._sb.snapshot)

    async def restore(self, snap):
        return await self._run(self._sb.restore, snap)

    async def fork(self):
        return AsyncSandbox(_sync=await self._run(self._sb.fork))

    async def close(self):
        return await self._run(self._sb.close)
