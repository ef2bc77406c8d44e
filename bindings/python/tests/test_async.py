"""AsyncSandbox: the same calls as coroutines (plain asyncio.run, no plugin)."""

import asyncio
import time

import pytest

import vsh

ALL_BYTES = bytes(range(256))


def run(coro):
    return asyncio.run(coro)


def test_async_exec_and_files():
    async def main():
        async with vsh.AsyncSandbox(workspace_root="/workspace") as sb:
            await sb.write_file("all.bin", ALL_BYTES)
            assert await sb.read_file("all.bin") == ALL_BYTES
            r = await sb.exec(["sh", "-c", 'wc -c < "$1"', "x", "all.bin"])
            assert r == vsh.ExecResult(b"256\n", b"", 0)
            assert (await sb.exec("pwd")).stdout == b"/workspace\n"
            assert await sb.exists("all.bin")
            await sb.mkdir("a/b", parents=True)
            assert await sb.ls() == ["a", "all.bin"]
            assert (await sb.stat("all.bin")).st_size == 256
            await sb.rm("a", recursive=True)
            assert not await sb.exists("a")
            with pytest.raises(FileNotFoundError):
                await sb.read_file("missing")
        assert sb.sync.closed

    run(main())


def test_async_loop_keeps_running_during_exec():
    async def main():
        async with vsh.AsyncSandbox() as sb:
            ticks = 0

            async def ticker():
                nonlocal ticks
                while True:
                    await asyncio.sleep(0.01)
                    ticks += 1

            t = asyncio.create_task(ticker())
            r = await sb.exec("sleep 0.5; echo done")
            t.cancel()
            assert r.stdout == b"done\n"
            assert ticks >= 10

    run(main())


def test_async_timeout():
    async def main():
        async with vsh.AsyncSandbox() as sb:
            with pytest.raises(vsh.ExecTimeout) as ei:
                await sb.exec("echo partial; sleep 10", timeout=0.2)
            assert ei.value.result.exit_code == 124
            assert ei.value.result.stdout == b"partial\n"

    run(main())


def test_async_cancel_stops_the_command():
    async def main():
        async with vsh.AsyncSandbox() as sb:
            task = asyncio.create_task(
                sb.exec("echo start > log; while :; do sleep 0.01; done"))
            await asyncio.sleep(0.2)
            t0 = time.monotonic()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert time.monotonic() - t0 < 2
            # the command is over: the sandbox answers at once
            assert await sb.read_file("log") == b"start\n"
            assert (await sb.exec("echo after")).stdout == b"after\n"

    run(main())


def test_async_wait_for_timeout_cancels():
    async def main():
        async with vsh.AsyncSandbox() as sb:
            t0 = time.monotonic()
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(sb.exec("sleep 30"), 0.2)
            assert time.monotonic() - t0 < 2

    run(main())


def test_async_persist_hydrate_snapshot_fork():
    async def main():
        async with vsh.AsyncSandbox() as a, vsh.AsyncSandbox("/ws2") as b:
            await a.write_file("d/all.bin", ALL_BYTES)
            await b.hydrate_workspace(await a.persist_workspace())
            assert await b.read_file("d/all.bin") == ALL_BYTES
            snap = await b.snapshot()
            await b.rm("d", recursive=True)
            await b.restore(snap)
            assert await b.exists("d/all.bin")
            c = await b.fork()
            await c.write_file("d/all.bin", "child")
            assert await b.read_file("d/all.bin") == ALL_BYTES
            await c.close()
            snap.close()
            with pytest.raises(vsh.ArchiveError):
                await b.hydrate_workspace(b"junk" * 300)

    run(main())


def test_async_file_calls_while_exec_runs():
    async def main():
        async with vsh.AsyncSandbox() as sb:
            await sb.write_file("f", ALL_BYTES)
            long = asyncio.create_task(sb.exec("sleep 0.5; cat f | wc -c"))
            await asyncio.sleep(0.1)
            assert not long.done()
            assert await sb.read_file("f") == ALL_BYTES
            await sb.write_file("g", "during")
            assert (await long).stdout == b"256\n"
            assert await sb.read_file("g") == b"during"

    run(main())
