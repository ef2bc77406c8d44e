// Loads the compiled addon (built by `cmake-js compile` at install time).
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function load() {
  // VSH_NODE_ADDON names another build of the addon (a sanitizer build).
  if (process.env.VSH_NODE_ADDON) return require(process.env.VSH_NODE_ADDON);
  const tried = [];
  for (const kind of ['Release', 'Debug']) {
    const file = join(root, 'build', kind, 'vsh_node.node');
    tried.push(file);
    if (existsSync(file)) return require(file);
  }
  throw new Error(
    `vsh: the native addon is not built (looked for ${tried.join(', ')}); ` +
      'run `npx cmake-js compile` in the package folder with libvsh ' +
      'installed where pkg-config finds it (PKG_CONFIG_PATH)',
  );
}

export const native = load();
