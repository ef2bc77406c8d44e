// vsh for Node.js: a bash-compatible shell over an in-memory copy-on-write
// filesystem, as a Flue sandbox (vsh) or a bare driver (createDriver).
import { createDriver, VshDriver } from './lib/driver.js';
import { native } from './lib/native.js';

export { createDriver, VshDriver };

/** Version of the libvsh the addon is linked with. */
export const libraryVersion = native.version;

/**
 * A Flue SandboxFactory. Calls with the same id share one sandbox, as
 * harnesses of one agent instance share one machine.
 */
export function vsh(options = {}) {
  const sandboxes = new Map();
  return {
    async createSandbox({ id } = {}) {
      const { sandboxFromDriver } = await import('@flue/runtime');
      let driver = id !== undefined ? sandboxes.get(id) : undefined;
      if (!driver) {
        driver = createDriver(options);
        if (id !== undefined) sandboxes.set(id, driver);
      }
      return sandboxFromDriver(driver, driver.cwd);
    },
  };
}
