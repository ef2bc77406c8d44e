// The nine SandboxDriver operations, as sandbox-contract.md describes them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDriver } from 'vsh';
import { KIND_ERRNO, toNodeError } from '../lib/errors.js';

const make = () =>
  createDriver({
    cwd: '/work',
    files: { 'a.txt': 'alpha\n', 'dir/b.bin': new Uint8Array([0, 1, 255]) },
  });

test('readFile and readFileBuffer: text, bytes, ENOENT, EISDIR', async () => {
  const d = make();
  assert.equal(await d.readFile('/work/a.txt'), 'alpha\n');
  const bytes = await d.readFileBuffer('/work/dir/b.bin');
  assert.ok(bytes instanceof Uint8Array);
  assert.deepEqual([...bytes], [0, 1, 255]);
  await assert.rejects(d.readFile('/work/missing'), {
    code: 'ENOENT',
    message: "ENOENT: no such file or directory, open '/work/missing'",
  });
  await assert.rejects(d.readFile('/work/dir'), { code: 'EISDIR' });
  await assert.rejects(d.readFileBuffer('/work/dir'), { code: 'EISDIR' });
  d.close();
});

test('writeFile: text and bytes replace; missing parent is ENOENT', async () => {
  const d = make();
  await d.writeFile('/work/a.txt', 'new');
  assert.equal(await d.readFile('/work/a.txt'), 'new');
  await d.writeFile('/work/c.bin', new Uint8Array([9, 0, 8]));
  assert.deepEqual([...(await d.readFileBuffer('/work/c.bin'))], [9, 0, 8]);
  await d.writeFile('/work/d.txt', Buffer.from('buf'));
  assert.equal(await d.readFile('/work/d.txt'), 'buf');
  await assert.rejects(d.writeFile('/work/no/such/f', 'x'), {
    code: 'ENOENT',
    syscall: 'open',
    path: '/work/no/such/f',
  });
  await assert.rejects(d.writeFile('/work/dir', 'x'), { code: 'EISDIR' });
  d.close();
});

test('stat: type, size, mtime; a symlink describes its target', async () => {
  const d = make();
  const s = await d.stat('/work/a.txt');
  assert.equal(s.isFile, true);
  assert.equal(s.isDirectory, false);
  assert.equal(s.isSymbolicLink, false);
  assert.equal(s.size, 6);
  assert.ok(s.mtime instanceof Date);
  assert.ok(Math.abs(s.mtime.getTime() - Date.now()) < 60_000);
  assert.equal((await d.stat('/work/dir')).isDirectory, true);
  await d.exec('ln -s dir link && ln -s a.txt alink', { cwd: '/work' });
  const l = await d.stat('/work/link');
  assert.deepEqual(
    [l.isFile, l.isDirectory, l.isSymbolicLink],
    [false, true, true],
  );
  assert.equal((await d.stat('/work/alink')).size, 6);
  await assert.rejects(d.stat('/work/missing'), { code: 'ENOENT' });
  d.close();
});

test('readdir: names only, dotfiles included; ENOTDIR and ENOENT', async () => {
  const d = make();
  await d.writeFile('/work/.hidden', '');
  const names = (await d.readdir('/work')).sort();
  assert.deepEqual(names, ['.hidden', 'a.txt', 'dir']);
  await assert.rejects(d.readdir('/work/a.txt'), { code: 'ENOTDIR' });
  await assert.rejects(d.readdir('/work/missing'), { code: 'ENOENT' });
  d.close();
});

test('exists: never fails', async () => {
  const d = make();
  assert.equal(await d.exists('/work/a.txt'), true);
  assert.equal(await d.exists('/work/dir'), true);
  assert.equal(await d.exists('/work/missing'), false);
  assert.equal(await d.exists('/work/a.txt/below'), false);
  await d.exec('ln -s nowhere dangling', { cwd: '/work' });
  assert.equal(await d.exists('/work/dangling'), false);
  d.close();
});

test('mkdir: recursive is mkdir -p; EEXIST; missing parent', async () => {
  const d = make();
  await d.mkdir('/work/x/y/z', { recursive: true });
  assert.equal((await d.stat('/work/x/y/z')).isDirectory, true);
  await d.mkdir('/work/x/y/z', { recursive: true }); // tolerated
  await assert.rejects(d.mkdir('/work/a.txt', { recursive: true }), {
    code: 'EEXIST',
  });
  await assert.rejects(d.mkdir('/work/x'), { code: 'EEXIST' });
  await assert.rejects(d.mkdir('/work/p/q'), { code: 'ENOENT' });
  await d.mkdir('/work/single');
  assert.equal(await d.exists('/work/single'), true);
  d.close();
});

test('rm: Node fs.rm rules', async () => {
  const d = make();
  await assert.rejects(d.rm('/work/missing'), { code: 'ENOENT' });
  await d.rm('/work/missing', { force: true });
  await assert.rejects(d.rm('/work/dir'), { code: 'EISDIR' });
  assert.equal(await d.exists('/work/dir/b.bin'), true);
  await d.rm('/work/dir', { recursive: true });
  assert.equal(await d.exists('/work/dir'), false);
  await d.rm('/work/a.txt');
  assert.equal(await d.exists('/work/a.txt'), false);
  d.close();
});

test('file errors carry Node codes: ENOTDIR from a real call', async () => {
  const d = make();
  await assert.rejects(d.writeFile('/work/a.txt/x', 'y'), {
    code: 'ENOTDIR',
    message: "ENOTDIR: not a directory, open '/work/a.txt/x'",
  });
  const e = await d.readFile('/work/nope').catch((x) => x);
  assert.ok(e instanceof Error);
  assert.equal(e.errno, -2);
  assert.equal(e.syscall, 'open');
  assert.equal(e.path, '/work/nope');
  d.close();
});

// The host's file calls are privileged (like root over its own disk), so
// EACCES and ENOTEMPTY cannot be provoked through them; the mapping from
// the errno the library reports is checked directly.
test('errno mapping: every code the contract names', () => {
  const cases = [
    [2, 'ENOENT'],
    [21, 'EISDIR'],
    [20, 'ENOTDIR'],
    [17, 'EEXIST'],
    [39, 'ENOTEMPTY'],
    [13, 'EACCES'],
  ];
  for (const [n, code] of cases) {
    const raw = Object.assign(new Error(''), {
      vshKind: KIND_ERRNO,
      vshErrno: n,
      syscall: 'rmdir',
      path: '/p',
    });
    const e = toNodeError(raw);
    assert.equal(e.code, code);
    assert.equal(e.errno, -n);
    assert.match(e.message, new RegExp(`^${code}: [a-z ]+, rmdir '/p'$`));
  }
  const abort = toNodeError(Object.assign(new Error('x'), { vshKind: 1 }));
  assert.equal(abort.name, 'AbortError');
});

test('exec: stdout, stderr, exit code; cwd and env', async () => {
  const d = createDriver({ cwd: '/work', env: { BASE: 'b', GONE: 'g' } });
  const r = await d.exec('echo out; echo err >&2; exit 3');
  assert.deepEqual(r, { stdout: 'out\n', stderr: 'err\n', exitCode: 3 });
  assert.equal((await d.exec('pwd')).stdout, '/work\n');
  await d.mkdir('/work/sub');
  assert.equal((await d.exec('pwd', { cwd: '/work/sub' })).stdout, '/work/sub\n');
  const env = await d.exec('echo "$BASE $X ${GONE-unset}"', {
    env: { X: 'x', GONE: 'unset' },
  });
  assert.equal(env.stdout, 'b x unset\n');
  // Shell state is fresh for each exec; files persist.
  await d.exec('V=1; f() { :; }; echo kept > /work/k');
  const again = await d.exec('echo "${V-none}"; type f >/dev/null 2>&1 || echo nofn; cat /work/k');
  assert.equal(again.stdout, 'none\nnofn\nkept\n');
  d.close();
});

test('exec: a missing or non-directory cwd fails with ENOENT/ENOTDIR', async () => {
  const d = make();
  await assert.rejects(d.exec('pwd', { cwd: '/work/nope' }), {
    code: 'ENOENT',
    message: "ENOENT: no such file or directory, chdir '/work/nope'",
  });
  await assert.rejects(d.exec('pwd', { cwd: '/work/a.txt' }), {
    code: 'ENOTDIR',
  });
  d.close();
});

test('exec: binary-safe output and stdin', async () => {
  const d = make();
  const r = await d.exec('cat', { stdin: 'from stdin' });
  assert.equal(r.stdout, 'from stdin');
  const u = await d.exec("printf '\\303\\251t\\303\\251'");
  assert.equal(u.stdout, 'été');
  d.close();
});

test('paths: a NUL byte or a non-string is refused as Node refuses it', async () => {
  const d = make();
  await assert.rejects(d.readFile('/work/a.txt\0x'), {
    code: 'ERR_INVALID_ARG_VALUE',
  });
  await assert.rejects(d.writeFile('/work/b\0', 'x'), {
    code: 'ERR_INVALID_ARG_VALUE',
  });
  await assert.rejects(d.stat(42), { code: 'ERR_INVALID_ARG_TYPE' });
  assert.equal(await d.exists('/work/a.txt\0'), false);
  assert.equal(await d.exists('/work/b'), false);
  await assert.rejects(d.exec('pwd', { cwd: '/work\0/x' }), {
    code: 'ERR_INVALID_ARG_VALUE',
  });
  d.close();
});
