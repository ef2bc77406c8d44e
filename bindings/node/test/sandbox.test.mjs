// Options (files, env, mounts, limits, network) and the calls beyond the
// nine: snapshot, restore, fork, persist, hydrate, close.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, readFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDriver, libraryVersion } from 'vsh';

test('the addon reports the libvsh version', () => {
  assert.match(libraryVersion, /^\d+\.\d+\.\d+/);
});

test('files: strings and bytes, relative to cwd or absolute', async () => {
  const d = createDriver({
    cwd: '/project',
    files: {
      'rel/a.txt': 'text',
      '/abs/b.bin': new Uint8Array([1, 2, 3]),
      'c.bin': Buffer.from([0, 0]),
    },
  });
  assert.equal(d.cwd, '/project');
  assert.equal(await d.readFile('/project/rel/a.txt'), 'text');
  assert.deepEqual([...(await d.readFileBuffer('/abs/b.bin'))], [1, 2, 3]);
  assert.deepEqual([...(await d.readFileBuffer('/project/c.bin'))], [0, 0]);
  assert.equal((await d.exec('pwd')).stdout, '/project\n');
  d.close();
});

test('env: the base environment of every exec', async () => {
  const d = createDriver({ env: { GREETING: 'hi there' } });
  assert.equal((await d.exec('echo "$GREETING"')).stdout, 'hi there\n');
  d.close();
});

test('mounts: a host folder, read through, written copy-on-write', async () => {
  const host = mkdtempSync(join(tmpdir(), 'vsh-mount-'));
  try {
    mkdirSync(join(host, 'sub'));
    writeFileSync(join(host, 'sub', 'data.txt'), 'from host\n');
    const d = createDriver({ mounts: { [host]: '/mnt/host' } });
    assert.equal(await d.readFile('/mnt/host/sub/data.txt'), 'from host\n');
    const r = await d.exec('cat /mnt/host/sub/data.txt; echo changed > /mnt/host/sub/data.txt; cat /mnt/host/sub/data.txt');
    assert.equal(r.stdout, 'from host\nchanged\n');
    assert.equal(readFileSync(join(host, 'sub', 'data.txt'), 'utf8'), 'from host\n');
    d.close();
  } finally {
    rmSync(host, { recursive: true, force: true });
  }
});

test('limits: a command count and an output cap', async () => {
  const d = createDriver({ limits: { maxCommands: 50 } });
  const r = await d.exec('for i in $(seq 1 1000); do true; done');
  assert.equal(r.exitCode, 126);
  assert.match(r.stderr, /limit exceeded/);
  d.close();
  assert.throws(() => createDriver({ cwd: 'relative' }), TypeError);
});

test('network: no policy, no curl; a policy allows only its list', async () => {
  const none = createDriver();
  assert.equal((await none.exec('curl https://api.example.com/v1')).exitCode, 127);
  none.close();
  const d = createDriver({
    network: {
      allowUrls: ['https://api.example.com/v1'],
      allowMethods: ['POST'],
      denyPrivate: true,
    },
  });
  const r = await d.exec(
    'curl https://evil.example.org/; curl -X DELETE https://api.example.com/v1/x',
  );
  assert.equal(r.exitCode, 7);
  assert.match(r.stderr, /evil\.example\.org.*refused by the network policy/);
  assert.match(r.stderr, /method DELETE refused.*allowed: GET, HEAD, POST/);
  d.close();
});

test('snapshot and restore', async () => {
  const d = createDriver({ files: { '/w/a': 'one' } });
  const s = await d.snapshot();
  await d.writeFile('/w/a', 'two');
  await d.writeFile('/w/b', 'new');
  await d.restore(s);
  assert.equal(await d.readFile('/w/a'), 'one');
  assert.equal(await d.exists('/w/b'), false);
  await d.writeFile('/w/a', 'three');
  await d.restore(s); // a snapshot can be restored again
  assert.equal(await d.readFile('/w/a'), 'one');
  // A snapshot outlives its sandbox.
  d.close();
  const e = createDriver();
  await e.restore(s);
  assert.equal(await e.readFile('/w/a'), 'one');
  e.close();
  await assert.rejects(e.restore({}), TypeError);
});

test('fork: shares files copy-on-write, then goes its own way', async () => {
  const d = createDriver({ cwd: '/w', env: { K: 'v' }, files: { a: 'base' } });
  const f = await d.fork();
  assert.equal(f.cwd, '/w');
  assert.equal(await f.readFile('/w/a'), 'base');
  await f.writeFile('/w/a', 'fork');
  await d.writeFile('/w/b', 'parent only');
  assert.equal(await d.readFile('/w/a'), 'base');
  assert.equal(await f.exists('/w/b'), false);
  assert.equal((await f.exec('echo $K; pwd')).stdout, 'v\n/w\n');
  d.close();
  assert.equal(await f.readFile('/w/a'), 'fork'); // outlives its parent
  f.close();
});

test('persist and hydrate: tar bytes of the workspace, binary-safe', async () => {
  const d = createDriver({
    cwd: '/ws',
    files: { 'bin.dat': new Uint8Array([0, 255, 10, 13]), 'd/t.txt': 'text\n' },
  });
  await d.exec('mkdir empty; ln -s d/t.txt link; chmod 700 d');
  const tar = await d.persist();
  assert.ok(tar instanceof Uint8Array);
  assert.equal(tar.length % 512, 0);
  const e = createDriver({ cwd: '/restored' });
  await e.hydrate(tar);
  assert.deepEqual([...(await e.readFileBuffer('/restored/bin.dat'))], [0, 255, 10, 13]);
  assert.equal(await e.readFile('/restored/link'), 'text\n');
  assert.equal((await e.stat('/restored/empty')).isDirectory, true);
  // Skip paths and another folder.
  const part = await d.persist('/ws', { skip: ['d'] });
  const g = createDriver();
  await g.hydrate(part, '/other');
  assert.deepEqual((await g.readdir('/other')).sort(), ['bin.dat', 'empty', 'link']);
  // A bad archive is refused and changes nothing.
  const bad = new Uint8Array(1024).fill(7);
  await assert.rejects(g.hydrate(bad, '/other'));
  assert.deepEqual((await g.readdir('/other')).sort(), ['bin.dat', 'empty', 'link']);
  for (const x of [d, e, g]) x.close();
});

test('close: idempotent, later calls fail clearly', async () => {
  const d = createDriver();
  d.close();
  d.close();
  await assert.rejects(d.exec('true'), { code: 'ESANDBOXDIED', message: /closed/ });
  await assert.rejects(d.stat('/'), { code: 'ESANDBOXDIED' });
  assert.equal(await d.exists('/'), false);
});

test('options are checked: unknown limits, bad mounts, bad URLs, bad files', () => {
  assert.throws(() => createDriver({ limits: { maxMemry: 1 } }), /unknown limit 'maxMemry'/);
  assert.throws(() => createDriver({ limits: { maxMemory: -1 } }), TypeError);
  assert.throws(() => createDriver({ mounts: { '/no/such/host/dir': '/m' } }), {
    code: 'ENOENT',
  });
  const host = mkdtempSync(join(tmpdir(), 'vsh-opt-'));
  try {
    writeFileSync(join(host, 'f'), '');
    assert.throws(() => createDriver({ mounts: { [join(host, 'f')]: '/m' } }), {
      code: 'ENOTDIR',
    });
    assert.throws(() => createDriver({ mounts: { [host]: 'relative' } }), TypeError);
  } finally {
    rmSync(host, { recursive: true, force: true });
  }
  assert.throws(() => createDriver({ network: { allowUrls: ['not a url'] } }), TypeError);
  assert.throws(
    () => createDriver({ network: { allowUrls: [{ url: 'ftp://x/' }] } }),
    TypeError,
  );
  assert.throws(() => createDriver({ files: { a: 5 } }), TypeError);
  assert.throws(() => createDriver({ env: ['A=1'] }), TypeError);
});

test('a memory cap ends a greedy script, the sandbox stays usable', async () => {
  const d = createDriver({ limits: { maxMemory: 64 << 20, timeoutMs: 20_000 } });
  const r = await d.exec('x=a; while :; do x="$x$x"; done');
  assert.equal(r.exitCode, 126);
  assert.match(r.stderr, /limit exceeded/);
  assert.equal((await d.exec('echo fine')).stdout, 'fine\n');
  d.close();
});
