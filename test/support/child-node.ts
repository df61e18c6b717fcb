/**
 * For tests that watch V8 itself (its traces, its heap) in a child Node process started with V8 flags: a
 * temporary directory holding an esbuild bundle of some of the sources, next to which the test writes its child
 * scripts.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from './shared.js';

/**
 * A new temporary directory (name starting with `prefix`) with `entry` (TypeScript; imports resolve from the
 * repository root, e.g. `export * from './src/index.js'`) bundled into `<dir>/<bundle>`.
 */
export async function bundleForChild(prefix: string, entry: string, bundle: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  await build({
    stdin: { contents: entry, resolveDir: repoRoot, sourcefile: 'entry.ts', loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: join(dir, bundle),
    logLevel: 'warning',
  });
  return dir;
}

/** Runs `node <flags> <script> <args>` and waits (60 s at most). */
export function runChild(flags: string[], script: string, ...args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [...flags, script, ...args], { encoding: 'utf8', maxBuffer: 64 << 20, timeout: 60_000 });
}

/** Removes a directory made by `bundleForChild` ('' : nothing to remove). */
export function removeChildDir(dir: string): void {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
}
