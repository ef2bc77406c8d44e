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
  const d = createDriver({ cwd: '/w' });
  const t0 = performance.now();
  const [a, b] = await Promise.all([
    d.exec('X=a; sleep 0.5; echo $X > a.txt; echo $X'),
    d.exec('X=b; sleep 0.5; echo $X > b.txt; echo $X'),
  ]);
  const took = performance.now() - t0;
  assert.equal(a.stdout, 'a\n');
  assert.equal(b.stdout, 'b\n');
  assert.deepEqual((await d.readdir('/w')).sort(), ['a.txt', 'b.txt']);
  assert.ok(took < 950, `two 0.5 s execs took ${took.toFixed(0)} ms`);
  d.close();
});
