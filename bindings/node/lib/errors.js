// Errors in the shapes Node and Flue use.
import { getSystemErrorMap, getSystemErrorName } from 'node:util';

// vsh_drv_error kinds (include/vsh.h).
export const KIND_ABORT = 1;
export const KIND_DIED = 2;
export const KIND_UNSUPPORTED = 3;
export const KIND_ERRNO = 4;

/** An AbortError as Flue makes one: a DOMException carrying the reason. */
export function abortError(signal) {
  const reason = signal?.reason;
  const message =
    reason instanceof Error && reason.message
      ? reason.message
      : typeof reason === 'string' && reason
        ? reason
        : 'The operation was aborted.';
  const error = new DOMException(message, 'AbortError');
  try {
    Object.defineProperty(error, 'cause', { value: reason, configurable: true });
  } catch {
    // a frozen DOMException: the cause is only a courtesy
  }
  return error;
}

function errnoName(n) {
  try {
    return getSystemErrorName(-n);
  } catch {
    return `E${n}`;
  }
}

function errnoDesc(n) {
  const entry = getSystemErrorMap().get(-n);
  return entry ? entry[1] : 'unknown error';
}

/** Turn an error from the addon into a Node-style error. */
export function toNodeError(e, signal) {
  if (!e || typeof e.vshKind !== 'number') return e;
  const kind = e.vshKind;
  const n = e.vshErrno;
  if (kind === KIND_ABORT) return abortError(signal);
  let err;
  if (kind === KIND_ERRNO && n) {
    const code = errnoName(n);
    let message = e.message;
    if (!message)
      message = `${code}: ${errnoDesc(n)}, ${e.syscall} '${e.path}'`;
    err = new Error(message);
    err.code = code;
    err.errno = -n;
    const m = /^E[A-Z0-9]+: [^,]*, (\w+) '(.*)'/s.exec(message);
    if (e.syscall || m) err.syscall = e.syscall || m[1];
    if (e.path || m) err.path = e.path || m[2];
  } else if (kind === KIND_UNSUPPORTED) {
    err = new Error(e.message);
    err.code = 'ENOTSUP';
    err.errno = n ? -n : undefined;
  } else if (kind === KIND_DIED) {
    err = new Error(e.message);
    err.name = 'SandboxDiedError';
    err.code = 'ESANDBOXDIED';
  } else {
    err = new Error(e.message);
    err.code = n ? errnoName(n) : 'EVSH';
    if (n) err.errno = -n;
  }
  return err;
}
