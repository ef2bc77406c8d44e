// Flue's own tool factories over a vsh sandbox and over Flue's local()
// sandbox, on the same files at the same absolute paths: the results must
// be identical.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, mkdirSync, writeFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createBashTool,
  createEditTool,
  createGlobTool,
  createGrepTool,
  createReadTool,
  createWriteTool,
} from '@flue/runtime';
import { loadLocal } from './support/flue-local.mjs';
import { vsh } from 'vsh';

const FILES = {
  'README.md': '# demo\nsome text\nTODO: first\n',
  'src/main.ts': 'export const a = 1;\n// TODO: second\nconsole.log(a);\n',
  'src/util.ts': 'export function f() {\n  return 42;\n}\n',
  'notes/long.txt': Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n') + '\n',
};

let root;
let host;
let box;

before(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'vsh-parity-')));
  for (const [p, c] of Object.entries(FILES)) {
    mkdirSync(join(root, p, '..'), { recursive: true });
    writeFileSync(join(root, p), c);
  }
  const local = await loadLocal();
  host = await local({ cwd: root }).createSandbox({ id: 'parity' });
  box = await vsh({ cwd: root, files: FILES }).createSandbox({ id: 'parity' });
});

after(() => rmSync(root, { recursive: true, force: true }));

// Run one tool call on both sandboxes; results (or error messages) must match.
async function both(factory, params) {
  const run = async (sb) => {
    try {
      const r = await factory(sb).execute('call-1', params);
      return { ok: r.content, details: r.details };
    } catch (e) {
      return { error: e.message };
    }
  };
  const [a, b] = [await run(host), await run(box)];
  assert.deepEqual(b, a, `${JSON.stringify(params)} differs`);
  return b;
}

test('read tool: whole file, offset/limit, missing file', async () => {
  await both(createReadTool, { path: 'README.md' });
  await both(createReadTool, { path: 'notes/long.txt', offset: 10, limit: 5 });
  await both(createReadTool, { path: join(root, 'src/util.ts') });
  const r = await both(createReadTool, { path: 'nope.txt' });
  assert.match(r.error, /^ENOENT/);
});

test('write tool: new file with parents, then read back', async () => {
  await both(createWriteTool, { path: 'out/deep/new.txt', content: 'fresh\n' });
  await both(createReadTool, { path: 'out/deep/new.txt' });
});

test('edit tool: unique edit, replaceAll, no match, ambiguous', async () => {
  await both(createEditTool, {
    path: 'src/util.ts',
    oldText: 'return 42;',
    newText: 'return 43;',
  });
  await both(createReadTool, { path: 'src/util.ts' });
  await both(createEditTool, {
    path: 'README.md',
    oldText: 'TODO',
    newText: 'DONE',
    replaceAll: true,
  });
  await both(createEditTool, { path: 'README.md', oldText: 'absent', newText: 'x' });
  await both(createWriteTool, { path: 'dup.txt', content: 'a a\n' });
  await both(createEditTool, { path: 'dup.txt', oldText: 'a', newText: 'b' });
  await both(createReadTool, { path: 'README.md' });
});

test('bash tool: output, stderr, exit code', async () => {
  await both(createBashTool, { command: 'echo hello; printf "b\\na\\n" | sort' });
  await both(createBashTool, { command: 'echo out; echo err >&2; exit 3' });
  await both(createBashTool, { command: 'true' });
  await both(createBashTool, { command: 'cat src/main.ts | wc -l' });
});

// The bash tool passes its timeout twice: as timeoutMs and as a signal
// from a JavaScript timer. Whichever fires first shapes the text (Flue's
// note or the sandbox's), so a loaded machine can differ run to run; both
// sandboxes must still report a timeout with exit code 124.
test('bash tool: timeout', async () => {
  for (const sb of [host, box]) {
    const t0 = Date.now();
    const r = await createBashTool(sb).execute('c', { command: 'sleep 5', timeout: 0.3 });
    assert.equal(r.details.exitCode, 124);
    assert.match(r.content[0].text, /timed out|timeout: deadline/);
    assert.ok(Date.now() - t0 < 3000);
  }
});

// Both sandboxes answer `rg --version`, so Flue's grep tool runs rg in
// each (the host's ripgrep, vsh's own rg). Searching one file, or finding
// nothing, prints the same bytes; over a directory the host's ripgrep
// prints files in the order its threads finish, so those cases compare the
// lines as a set.
test('grep tool: one file, literal, no match', async () => {
  await both(createGrepTool, { pattern: 'TODO', path: 'src/main.ts' });
  await both(createGrepTool, { pattern: 'ret.rn [0-9]+', path: 'src/util.ts' });
  await both(createGrepTool, { pattern: 'a = 1', path: 'src/main.ts', literal: true });
  await both(createGrepTool, { pattern: 'no-such-text', path: 'src' });
});

test('grep tool: a directory, with and without an include glob', async () => {
  const run = async (sb, params) => {
    const r = await createGrepTool(sb).execute('c', params);
    return [r.details.matchCount, r.content[0].text.split('\n').sort()];
  };
  for (const params of [
    { pattern: 'TODO' },
    { pattern: 'TODO', include: '*.ts' },
    { pattern: 'export', path: 'src' },
  ])
    assert.deepEqual(await run(box, params), await run(host, params));
});

// find lists a directory in the order the filesystem gives; one match per
// case keeps the comparison exact.
test('glob tool: one match, nothing found', async () => {
  await both(createGlobTool, { pattern: 'util.ts' });
  await both(createGlobTool, { pattern: 'long.*', path: 'notes' });
  await both(createGlobTool, { pattern: '*.none' });
});

test('glob tool: several matches, the same set', async () => {
  const run = async (sb) =>
    (await createGlobTool(sb).execute('c', { pattern: '*.ts' })).content[0].text
      .split('\n')
      .sort();
  assert.deepEqual(await run(box), await run(host));
});
