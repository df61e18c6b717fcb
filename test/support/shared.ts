/**
 * Where the shared test material lives: `$HTMLSIFT_SHARED`, else `../shared` beside the checkout.
 * Suites that need it skip, with one line saying how to get it, when it is absent.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function sharedDir(): string | null {
  const fromEnv = process.env.HTMLSIFT_SHARED;
  if (fromEnv) return existsSync(fromEnv) ? resolve(fromEnv) : null;
  const sibling = resolve(repoRoot, '..', 'shared');
  return existsSync(sibling) ? sibling : null;
}

/** Path of `rel` inside the shared material, or null (after printing why the suite skips) when it is absent. */
export function sharedPath(rel: string, suite: string): string | null {
  const dir = sharedDir();
  const p = dir === null ? null : join(dir, rel);
  if (p === null || !existsSync(p)) {
    console.log(
      `[${suite}] skipped: shared test data '${rel}' not found. Put the project's shared/ folder beside this checkout ` +
        `(../shared) or set HTMLSIFT_SHARED=/path/to/shared.`,
    );
    return null;
  }
  return p;
}

export { repoRoot };
