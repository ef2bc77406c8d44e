// Types of the vsh package. The driver matches Flue's SandboxDriver
// (@flue/runtime 2.1.0) structurally, so it can be passed to
// sandboxFromDriver without a cast.
import type { SandboxFactory } from '@flue/runtime';

/** Per-exec budget; a field left out takes libvsh's default. */
export interface VshLimits {
  maxCommands?: number;
  maxLoopIterations?: number;
  maxCallDepth?: number;
  /** stdout + stderr kept per exec. */
  maxOutputBytes?: number;
  /** Sandbox heap cap in bytes. */
  maxMemory?: number;
  maxFsBytes?: number;
  maxFsInodes?: number;
  maxStringBytes?: number;
  /** Default deadline of every exec; expiry gives exit code 124. */
  timeoutMs?: number;
  maxJobs?: number;
}

/** An allowed URL prefix with headers injected into requests it allows. */
export interface VshAllowedUrl {
  url: string;
  headers?: Record<string, string>;
}

export interface VshNetwork {
  /** "scheme://host[:port][/path-prefix]" entries. */
  allowUrls?: Array<string | VshAllowedUrl>;
  /** Methods allowed beyond GET and HEAD. */
  allowMethods?: string[];
  /** Refuse private and loopback addresses after DNS resolution. */
  denyPrivate?: boolean;
  /** Whole-request deadline (default 30 s). */
  timeoutMs?: number;
  /** Response body cap (default 10 MiB). */
  maxResponseBytes?: number;
}

export interface VshOptions {
  /** Absolute working directory, created if missing (default /home/user). */
  cwd?: string;
  /** Base environment of every exec. */
  env?: Record<string, string>;
  /** Initial files: path (absolute, or relative to cwd) to content. */
  files?: Record<string, string | Uint8Array>;
  /** Host directory to virtual path: layered read-only, copy-on-write. */
  mounts?: Record<string, string>;
  limits?: VshLimits;
  /** Without a network policy there is no curl. */
  network?: VshNetwork;
  /** Each chunk of text an exec writes to stdout, while it runs. */
  onStdout?: (chunk: string) => void;
  /** Each chunk of text an exec writes to stderr, while it runs. */
  onStderr?: (chunk: string) => void;
}

export interface VshExecOptions {
  /** Absolute; a missing or non-directory cwd rejects (ENOENT/ENOTDIR). */
  cwd?: string;
  /** Layered over the base environment; the value "unset" removes a key. */
  env?: Record<string, string>;
  /** Deadline: exit code 124, output so far kept, a note on stderr. */
  timeoutMs?: number;
  /** Rejects at once with an AbortError and cancels the command. */
  signal?: AbortSignal;
  stdin?: string | Uint8Array;
  onStdout?: (chunk: string) => void;
  onStderr?: (chunk: string) => void;
}

export interface VshExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface VshFileStat {
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink?: boolean;
  size?: number;
  mtime?: Date;
}

/** An opaque O(1) capture of a sandbox's whole filesystem. */
export interface VshSnapshot {
  readonly __vshSnapshot?: never;
}

/**
 * File errors are Error objects with a Node `code` (ENOENT, EISDIR,
 * ENOTDIR, EEXIST, ENOTEMPTY, EACCES, ...), `errno`, `syscall` and `path`;
 * calls on a closed sandbox fail with code ESANDBOXDIED.
 */
export interface VshError extends Error {
  code: string;
  errno?: number;
  syscall?: string;
  path?: string;
}

export declare class VshDriver {
  private constructor();
  /** The sandbox's working directory. */
  readonly cwd: string;
  exec(command: string, options?: VshExecOptions): Promise<VshExecResult>;
  readFile(path: string): Promise<string>;
  readFileBuffer(path: string): Promise<Uint8Array>;
  writeFile(path: string, content: string | Uint8Array): Promise<void>;
  stat(path: string): Promise<VshFileStat>;
  readdir(path: string): Promise<string[]>;
  exists(path: string): Promise<boolean>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  rm(
    path: string,
    options?: { recursive?: boolean; force?: boolean },
  ): Promise<void>;
  snapshot(): Promise<VshSnapshot>;
  restore(snapshot: VshSnapshot): Promise<void>;
  fork(): Promise<VshDriver>;
  /** Tar bytes of dir (default the cwd), leaving out the skip paths. */
  persist(dir?: string, options?: { skip?: string[] }): Promise<Uint8Array>;
  persist(options: { skip?: string[] }): Promise<Uint8Array>;
  /** Extract a tar (plain or gzip) into dir (default the cwd). */
  hydrate(tar: Uint8Array, dir?: string): Promise<void>;
  close(): void;
}

/** The driver alone, usable without Flue. */
export declare function createDriver(options?: VshOptions): VshDriver;

/** A Flue SandboxFactory over vsh; the same id shares one sandbox. */
export declare function vsh(options?: VshOptions): SandboxFactory;

/** Version of the libvsh the addon is linked with. */
export declare const libraryVersion: string;
