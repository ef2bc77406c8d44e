// vsh() as a Flue SandboxFactory: the Sandbox that sandboxFromDriver makes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { vsh } from 'vsh';

test('createSandbox: exec, files relative to cwd, parents created', async () => {
  const factory = vsh({ cwd: '/workspace', files: { 'AGENTS.md': '# agents\n' } });
  const sb = await factory.createSandbox({ id: 'agent-1' });
  assert.equal(sb.cwd, '/workspace');
  assert.equal(await sb.readFile('AGENTS.md'), '# agents\n');
  await sb.writeFile('deep/er/file.txt', 'x'); // parents made by Flue's retry
  assert.equal(await sb.readFile('/workspace/deep/er/file.txt'), 'x');
  assert.equal(await sb.readFile('./deep/../deep/er/file.txt'), 'x');
  const r = await sb.exec('pwd; ls', { cwd: 'deep' });
  assert.deepEqual(r, { stdout: '/workspace/deep\ner\n', stderr: '', exitCode: 0 });
  assert.deepEqual(await sb.readdir('.'), ['AGENTS.md', 'deep']);
  assert.equal((await sb.stat('AGENTS.md')).size, 9);
  await sb.mkdir('m/n', { recursive: true });
  await sb.rm('m', { recursive: true });
  assert.equal(await sb.exists('m'), false);
  // The same id gives the same sandbox; another id a fresh one.
  const again = await factory.createSandbox({ id: 'agent-1' });
  assert.equal(await again.exists('deep/er/file.txt'), true);
  const other = await factory.createSandbox({ id: 'agent-2' });
  assert.equal(await other.exists('deep'), false);
});

test('timeout and abort through Flue, with the event loop ticking', async () => {
  const sb = await vsh().createSandbox({ id: 't' });
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const r = await sb.exec('echo partial; sleep 3', { timeoutMs: 300 });
  assert.equal(r.exitCode, 124);
  assert.equal(r.stdout, 'partial\n');
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 150);
  const t0 = Date.now();
  await assert.rejects(sb.exec('sleep 3', { signal: ac.signal }), {
    name: 'AbortError',
  });
  assert.ok(Date.now() - t0 < 1000);
  clearInterval(timer);
  assert.ok(ticks >= 15, `only ${ticks} ticks`);
});
