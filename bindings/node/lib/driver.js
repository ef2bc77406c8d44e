// The driver: Flue's nine SandboxDriver operations over a native sandbox,
// plus snapshot, restore, fork, persist, hydrate and close.
import { statSync } from 'node:fs';
import { native } from './native.js';
import { abortError, toNodeError } from './errors.js';

function envList(env, what) {
  if (env === undefined || env === null) return undefined;
  if (typeof env !== 'object' || Array.isArray(env))
    throw new TypeError(`vsh: ${what} must be a Record<string, string>`);
  const out = [];
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    out.push(`${k}=${v}`);
  }
  return out;
}

function toBuffer(content, what) {
  if (typeof content === 'string') return Buffer.from(content, 'utf8');
  if (ArrayBuffer.isView(content))
    return Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  if (content instanceof ArrayBuffer) return Buffer.from(content);
  throw new TypeError(`vsh: ${what} must be a string or bytes`);
}

// Paths as Node's fs checks them: a string without NUL bytes.
function checkPath(path, what = 'path') {
  if (typeof path !== 'string') {
    const e = new TypeError(`The "${what}" argument must be of type string`);
    e.code = 'ERR_INVALID_ARG_TYPE';
    throw e;
  }
  if (path.includes('\0')) {
    const e = new TypeError(
      `The argument '${what}' must be a string without null bytes. Received ${JSON.stringify(path)}`,
    );
    e.code = 'ERR_INVALID_ARG_VALUE';
    throw e;
  }
  return path;
}

function toBytes(buf) {
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}

function checkUrl(u) {
  let url;
  try {
    url = new URL(u);
  } catch {
    throw new TypeError(`vsh: network.allowUrls: not a URL: ${u}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`vsh: network.allowUrls: not an http(s) URL: ${u}`);
  return u;
}

function networkOptions(n) {
  if (n === undefined || n === null || n === false) return undefined;
  const rule = (u) => {
    if (typeof u === 'string') return { prefix: checkUrl(u), headers: [] };
    const prefix = u.url ?? u.prefix;
    if (typeof prefix !== 'string')
      throw new TypeError('vsh: network.allowUrls entries need a url');
    checkUrl(prefix);
    const headers = Object.entries(u.headers ?? {}).map(([k, v]) => [
      String(k),
      String(v),
    ]);
    return { prefix, headers };
  };
  return {
    allowUrls: (n.allowUrls ?? []).map(rule),
    allowMethods: (n.allowMethods ?? []).map(String),
    denyPrivate: !!n.denyPrivate,
    timeoutMs: n.timeoutMs,
    maxResponseBytes: n.maxResponseBytes,
  };
}

const LIMIT_KEYS = [
  'maxCommands',
  'maxLoopIterations',
  'maxCallDepth',
  'maxOutputBytes',
  'maxMemory',
  'maxFsBytes',
  'maxFsInodes',
  'maxStringBytes',
  'timeoutMs',
  'maxJobs',
];

function nativeOptions(options) {
  const o = {};
  if (options.cwd !== undefined) {
    if (typeof options.cwd !== 'string' || !options.cwd.startsWith('/'))
      throw new TypeError('vsh: cwd must be an absolute path');
    o.cwd = options.cwd;
  }
  o.env = envList(options.env, 'env');
  if (options.files) {
    o.files = Object.entries(options.files).map(([path, data]) => ({
      path,
      data: toBuffer(data, `files['${path}']`),
    }));
  }
  if (options.mounts) {
    // libvsh reports only a status when it cannot open a sandbox, so the
    // host folder is checked here for a message that names it.
    o.mounts = Object.entries(options.mounts).map(([hostDir, path]) => {
      if (!statSync(hostDir).isDirectory()) {
        const e = new Error(`ENOTDIR: not a directory, mount '${hostDir}'`);
        Object.assign(e, { code: 'ENOTDIR', syscall: 'mount', path: hostDir });
        throw e;
      }
      if (typeof path !== 'string' || !path.startsWith('/'))
        throw new TypeError(`vsh: mounts['${hostDir}'] must be an absolute path`);
      return { hostDir, path };
    });
  }
  if (options.limits) {
    for (const [k, v] of Object.entries(options.limits)) {
      if (!LIMIT_KEYS.includes(k))
        throw new TypeError(`vsh: unknown limit '${k}' (known: ${LIMIT_KEYS.join(', ')})`);
      if (v !== undefined && (typeof v !== 'number' || !(v >= 0)))
        throw new TypeError(`vsh: limit '${k}' must be a number >= 0`);
    }
    o.limits = { ...options.limits };
  }
  o.network = networkOptions(options.network);
  return o;
}

async function call(promise) {
  try {
    return await promise;
  } catch (e) {
    throw toNodeError(e);
  }
}

// Streams one fd of one exec to a callback as text, never splitting a
// UTF-8 sequence between two calls.
function textSink(fn) {
  if (typeof fn !== 'function') return undefined;
  const dec = new TextDecoder('utf-8');
  return {
    push: (buf) => {
      const s = dec.decode(buf, { stream: true });
      if (s) fn(s);
    },
    end: () => {
      const s = dec.decode();
      if (s) fn(s);
    },
  };
}

export class VshDriver {
  #box;
  #options;

  /** @internal */
  constructor(box, options) {
    this.#box = box;
    this.#options = options;
  }

  /** The sandbox's working directory (absolute). */
  get cwd() {
    return this.#box.cwd();
  }

  async readFile(path) {
    return call(this.#box.readFile(checkPath(path), true));
  }

  async readFileBuffer(path) {
    return toBytes(await call(this.#box.readFile(checkPath(path), false)));
  }

  async writeFile(path, content) {
    return call(this.#box.writeFile(checkPath(path), toBuffer(content, 'content')));
  }

  async stat(path) {
    const s = await call(this.#box.stat(checkPath(path)));
    const out = { isFile: s.isFile, isDirectory: s.isDirectory };
    if (s.isSymbolicLink !== undefined) out.isSymbolicLink = s.isSymbolicLink;
    if (s.size !== undefined) out.size = s.size;
    if (s.mtimeMs !== undefined) out.mtime = new Date(s.mtimeMs);
    return out;
  }

  async readdir(path) {
    return call(this.#box.readdir(checkPath(path)));
  }

  async exists(path) {
    try {
      return await this.#box.exists(checkPath(path));
    } catch {
      return false;
    }
  }

  async mkdir(path, options) {
    return call(this.#box.mkdir(checkPath(path), !!options?.recursive));
  }

  async rm(path, options) {
    return call(this.#box.rm(checkPath(path), !!options?.recursive, !!options?.force));
  }

  async exec(command, options = {}) {
    const signal = options.signal;
    if (signal?.aborted) throw abortError(signal);
    if (typeof command !== 'string')
      throw new TypeError('vsh: exec needs a command string');
    const out = textSink(options.onStdout ?? this.#options.onStdout);
    const err = textSink(options.onStderr ?? this.#options.onStderr);
    const stream =
      out || err
        ? (fd, buf) => {
            const sink = fd === 1 ? out : err;
            if (sink) sink.push(buf);
          }
        : undefined;
    if (options.cwd !== undefined) checkPath(options.cwd, 'cwd');
    const o = {
      cwd: options.cwd,
      env: envList(options.env, 'exec env'),
      timeoutMs: options.timeoutMs,
    };
    if (options.stdin !== undefined) o.stdin = toBuffer(options.stdin, 'stdin');
    const cancel = new native.Cancel();
    const running = this.#box.exec(command, o, cancel, stream);
    const finish = (r) => {
      out?.end();
      err?.end();
      return {
        stdout: r.stdout.toString('utf8'),
        stderr: r.stderr.toString('utf8'),
        exitCode: r.exitCode,
      };
    };
    if (!signal) {
      try {
        return finish(await running);
      } catch (e) {
        throw toNodeError(e);
      }
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        cancel.set();
        reject(abortError(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      running.then(
        (r) => {
          signal.removeEventListener('abort', onAbort);
          resolve(finish(r));
        },
        (e) => {
          signal.removeEventListener('abort', onAbort);
          reject(toNodeError(e, signal));
        },
      );
    });
  }

  /** O(1) capture of the whole filesystem; restore() brings it back. */
  async snapshot() {
    return call(this.#box.snapshot());
  }

  async restore(snapshot) {
    return call(this.#box.restore(snapshot));
  }

  /** A new sandbox sharing every file copy-on-write. */
  async fork() {
    return new VshDriver(await call(this.#box.fork()), this.#options);
  }

  /** The workspace (dir, default the cwd) as tar bytes. */
  async persist(dir, options) {
    if (dir !== undefined && typeof dir === 'object') {
      options = dir;
      dir = undefined;
    }
    const skip = options?.skip ?? [];
    return toBytes(await call(this.#box.persist(dir, skip)));
  }

  /** Extract tar (or gzip'd tar) bytes into dir (default the cwd). */
  async hydrate(bytes, dir) {
    return call(this.#box.hydrate(toBuffer(bytes, 'tar'), dir));
  }

  /** Free the sandbox; a running exec is cancelled. */
  close() {
    this.#box.close();
  }
}

export function createDriver(options = {}) {
  const o = nativeOptions(options);
  let box;
  try {
    box = new native.Box(o);
  } catch (e) {
    throw toNodeError(e);
  }
  return new VshDriver(box, options);
}
