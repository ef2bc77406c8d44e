// File calls during a running exec, and two execs on one sandbox.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDriver, vsh } from 'vsh';

test('readFile during a 1-second exec answers in under 300 ms', async () => {
  const d = createDriver({ files: { '/w/f': 'data' } });
  const running = d.exec('sleep 1; echo done');
  await new Promise((r) => setTimeout(r, 100));
  const t0 = performance.now();
  assert.equal(await d.readFile('/w/f'), 'data');
  const took = performance.now() - t0;
  assert.ok(took < 300, `readFile took ${took.toFixed(0)} ms`);
  // The other file calls too.
  const t1 = performance.now();
  await d.writeFile('/w/g', 'more');
  assert.deepEqual((await d.readdir('/w')).sort(), ['f', 'g']);
  assert.equal((await d.stat('/w/g')).size, 4);
  assert.ok(performance.now() - t1 < 300);
  assert.equal((await running).stdout, 'done\n');
  d.close();
});

test('the same through Flue: readFile during sleep 1', async () => {
  const sb = await vsh({ cwd: '/w', files: { f: 'x' } }).createSandbox({ id: 'c' });
  const running = sb.exec('sleep 1');
  await new Promise((r) => setTimeout(r, 100));
  const t0 = performance.now();
  assert.equal(await sb.readFile('f'), 'x');
  assert.ok(performance.now() - t0 < 300);
  assert.equal((await running).exitCode, 0);
});

test('two execs on one sandbox both make progress', async () => {
  // Each reads the file the other writes before its sleep: run one after
  // the other, the first would find nothing.
  const d = createDriver({ cwd: '/w' });
  const [a, b] = await Promise.all([
    d.exec('X=a; echo $X > a.txt; sleep 0.5; cat b.txt; echo $X'),
    d.exec('X=b; echo $X > b.txt; sleep 0.5; cat a.txt; echo $X'),
  ]);
  assert.deepEqual([a.stdout, a.stderr], ['b\na\n', '']);
  assert.deepEqual([b.stdout, b.stderr], ['a\nb\n', '']);
  d.close();
});
