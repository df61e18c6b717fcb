/**
 * Where the shared test material lives: `$HTMLSIFT_SHARED`, else `../shared` beside the checkout.
 * Suites that need it skip, with one line saying how to get it, when it is absent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/** The shared corpus's folders: real web pages, email templates, clipboard HTML. */
export const CORPUS_FOLDERS: readonly string[] = ['corpus/pages', 'corpus/email', 'corpus/paste'];

/** A corpus file: its folder under shared/, its name, its text (UTF-8). */
export interface CorpusFile {
  folder: string;
  name: string;
  text: string;
}

/** The .html files of one shared corpus folder, in name order, or null (after one line saying why) when it is absent. */
export function corpusPaths(folder: string, suite: string): { name: string; path: string }[] | null {
  const dir = sharedPath(folder, suite);
  if (dir === null) return null;
  return readdirSync(dir)
    .filter((name) => name.endsWith('.html') || name.endsWith('.htm'))
    .sort()
    .map((name) => ({ name, path: join(dir, name) }));
}

/** Every .html file of the shared corpus folders `folders`, read, or null (after one line saying why) when one is absent. */
export function corpusFiles(folders: readonly string[], suite: string): CorpusFile[] | null {
  const out: CorpusFile[] = [];
  for (const folder of folders) {
    const paths = corpusPaths(folder, suite);
    if (paths === null) return null;
    for (const { name, path } of paths) out.push({ folder, name, text: readFileSync(path, 'utf8') });
  }
  return out;
}

/**
 * A window cut from `text` at a random offset (mid-tag, mid-comment, mid-attribute: wherever it falls): mostly up to
 * 600 characters, so that a difference minimizes quickly, and one in five up to 8,000.
 */
export function corpusWindow(rng: { int(n: number): number; chance(p: number): boolean }, text: string): { start: number; input: string } {
  const length = 1 + rng.int(rng.chance(0.2) ? 8000 : 600);
  const start = rng.int(Math.max(1, text.length - length));
  return { start, input: text.slice(start, start + length) };
}

export { repoRoot };
