// exec off the event loop: timeout, abort, streaming, concurrency.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDriver } from 'vsh';

test('the event loop keeps ticking while an exec runs', async () => {
  const d = createDriver();
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const r = await d.exec('sleep 0.5; echo done');
  clearInterval(timer);
  assert.equal(r.stdout, 'done\n');
  assert.ok(ticks >= 10, `only ${ticks} ticks during a 0.5 s exec`);
  d.close();
});

test('timeoutMs: exit 124, output so far kept, a note on stderr', async () => {
  const d = createDriver();
  const t0 = Date.now();
  const r = await d.exec('echo before; echo err >&2; sleep 5; echo after', {
    timeoutMs: 300,
  });
  const took = Date.now() - t0;
  assert.equal(r.exitCode, 124);
  assert.equal(r.stdout, 'before\n');
  assert.match(r.stderr, /^err\n.*time/s);
  assert.ok(took >= 250 && took < 2000, `took ${took} ms`);
  // The sandbox stays usable.
  assert.equal((await d.exec('echo ok')).stdout, 'ok\n');
  d.close();
});

test('limits.timeoutMs is the default deadline of every exec', async () => {
  const d = createDriver({ limits: { timeoutMs: 200 } });
  const r = await d.exec('while :; do :; done');
  assert.equal(r.exitCode, 124);
  d.close();
});

test('abort: an aborted signal fails before anything runs', async () => {
  const d = createDriver();
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(d.exec('echo x > /tmp/ran', { signal: ac.signal }), {
    name: 'AbortError',
  });
  assert.equal(await d.exists('/tmp/ran'), false);
  d.close();
});

test('abort mid-flight rejects promptly and cancels the command', async () => {
  const d = createDriver();
  const ac = new AbortController();
  const t0 = Date.now();
  setTimeout(() => ac.abort(new Error('stop now')), 100);
  const e = await d
    .exec('sleep 0.5; echo late > /tmp/late; sleep 5', { signal: ac.signal })
    .catch((x) => x);
  const took = Date.now() - t0;
  assert.equal(e.name, 'AbortError');
  assert.equal(e.message, 'stop now');
  assert.ok(took < 600, `rejected after ${took} ms`);
  // The command itself was cancelled: its later write never happens.
  await new Promise((r) => setTimeout(r, 700));
  assert.equal(await d.exists('/tmp/late'), false);
  d.close();
});

test('abort of a busy loop', async () => {
  // A sandbox deadline turns the default loop-iteration cap off, so only
  // the abort can end the loop.
  const d = createDriver({ limits: { timeoutMs: 60_000 } });
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 100);
  await assert.rejects(d.exec('while :; do :; done', { signal: ac.signal }), {
    name: 'AbortError',
  });
  // The loop is stopped: the next exec runs at once.
  const t0 = Date.now();
  assert.equal((await d.exec('echo next')).stdout, 'next\n');
  assert.ok(Date.now() - t0 < 1000);
  d.close();
});

test('streaming: onStdout/onStderr get chunks in order, before the result', async () => {
  const out = [];
  const err = [];
  const d = createDriver({
    onStdout: (s) => out.push(s),
    onStderr: (s) => err.push(s),
  });
  const seen = [];
  const p = d.exec('echo one; sleep 0.2; echo two; echo bad >&2').then((r) => {
    seen.push(out.join(''));
    return r;
  });
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(out, ['one\n'], 'first chunk arrives while the exec runs');
  const r = await p;
  assert.equal(seen[0], 'one\ntwo\n');
  assert.equal(out.join(''), r.stdout);
  assert.equal(err.join(''), 'bad\n');
  d.close();
});

test('streaming: per-exec callbacks and split UTF-8 sequences', async () => {
  const d = createDriver();
  const out = [];
  const r = await d.exec("printf '\\303'; sleep 0.05; printf '\\251\\n'", {
    onStdout: (s) => out.push(s),
  });
  assert.equal(r.stdout, 'é\n');
  assert.equal(out.join(''), 'é\n');
  assert.ok(!out.join('').includes('\ufffd'));
  d.close();
});

test('a throwing callback does not break the exec', async () => {
  const d = createDriver({
    onStdout: () => {
      throw new Error('callback failed');
    },
  });
  const r = await d.exec('echo a; echo b');
  assert.equal(r.stdout, 'a\nb\n');
  d.close();
});

test('close() cancels a running exec', async () => {
  const d = createDriver();
  const p = d.exec('sleep 10');
  await new Promise((r) => setTimeout(r, 50));
  const t0 = Date.now();
  d.close();
  await assert.rejects(p, { name: 'AbortError' });
  assert.ok(Date.now() - t0 < 2000);
  await assert.rejects(d.readFile('/x'), { code: 'ESANDBOXDIED' });
});

test('many execs in parallel on different sandboxes', async () => {
  const ds = Array.from({ length: 8 }, () => createDriver());
  const t0 = Date.now();
  const rs = await Promise.all(
    ds.map((d, i) => d.exec(`sleep 0.3; echo ${i}`)),
  );
  assert.deepEqual(
    rs.map((r) => r.stdout),
    ds.map((_, i) => `${i}\n`),
  );
  // Each exec has a thread of its own: they overlap.
  assert.ok(Date.now() - t0 < 2000, `took ${Date.now() - t0} ms`);
  for (const d of ds) d.close();
});
