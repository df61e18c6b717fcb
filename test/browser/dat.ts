/**
 * A small reader for html5lib tree-construction `.dat` files (format: tree-construction/README.md), used by
 * harness.test.ts to check the in-page dumper and Chromium against the expected trees.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DatTest {
  file: string;
  /** 0-based index of the test in its file. */
  index: number;
  data: string;
  /** html5lib context label (`div`, `svg path`), or null for a document test. */
  fragment: string | null;
  /** true: script-on only; false: script-off only; null: both. */
  scripting: boolean | null;
  document: string;
}

export function parseDat(text: string, file: string): DatTest[] {
  const lines = text.split('\n');
  const tests: DatTest[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i] !== '#data') {
      i++;
      continue;
    }
    i++;
    const data: string[] = [];
    while (i < lines.length && lines[i] !== '#errors') data.push(lines[i++]!);
    let fragment: string | null = null;
    let scripting: boolean | null = null;
    const doc: string[] = [];
    while (i < lines.length && lines[i] !== '#document') {
      if (lines[i] === '#document-fragment') {
        fragment = lines[i + 1]!;
        i += 2;
        continue;
      }
      if (lines[i] === '#script-off') scripting = false;
      if (lines[i] === '#script-on') scripting = true;
      i++;
    }
    i++; // '#document'
    while (i < lines.length && !(lines[i] === '' && (i + 1 >= lines.length || lines[i + 1] === '#data'))) {
      doc.push(lines[i++]!);
    }
    while (doc.length > 0 && doc[doc.length - 1] === '') doc.pop();
    tests.push({ file, index: tests.length, data: data.join('\n'), fragment, scripting, document: doc.join('\n') });
  }
  return tests;
}

/**
 * All tree-construction tests: html5lib-tests' files, with the files of `wpt-parsing/` replacing the same names.
 * `shared` is the shared material folder.
 */
export function loadTreeConstructionTests(shared: string): DatTest[] {
  const base = join(shared, 'html5lib-tests', 'tree-construction');
  const override = join(shared, 'wpt-parsing');
  const files = new Map<string, string>();
  for (const f of readdirSync(base)) if (f.endsWith('.dat')) files.set(f, join(base, f));
  if (existsSync(override)) for (const f of readdirSync(override)) if (f.endsWith('.dat')) files.set(f, join(override, f));
  const out: DatTest[] = [];
  for (const [name, path] of [...files].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    out.push(...parseDat(readFileSync(path, 'utf8'), name));
  }
  return out;
}
