// Flue's local() sandbox factory, loadable on Node 20 too.
import { register } from 'node:module';

export async function loadLocal() {
  try {
    await import('node:sqlite');
  } catch {
    register('./no-sqlite.mjs', import.meta.url);
  }
  return (await import('@flue/runtime/node')).local;
}
