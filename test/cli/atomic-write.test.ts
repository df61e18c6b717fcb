/**
 * "An output file is never left half-written": `writeAtomic` (every output of the CLI goes through it) with the
 * file system failing in the middle of the write (the disk fills up after half the data) or at the rename. The
 * output keeps its previous content (or stays absent) and no temporary file is left behind.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync as realWriteFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';

const failure = vi.hoisted(() => ({ write: false, rename: false }));

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    writeFileSync: (path: Parameters<typeof real.writeFileSync>[0], data: string | NodeJS.ArrayBufferView, ...rest: unknown[]) => {
      if (failure.write) {
        // Half the data reaches the disk, then it is full.
        real.writeFileSync(path, String(data).slice(0, String(data).length >> 1));
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      }
      return real.writeFileSync(path, data, ...(rest as []));
    },
    renameSync: (from: string, to: string) => {
      if (failure.rename) throw Object.assign(new Error('EXDEV: cross-device link not permitted, rename'), { code: 'EXDEV' });
      return real.renameSync(from, to);
    },
  };
});

const { writeAtomic } = await import('../../src/cli/htmlsift.js');

const dir = mkdtempSync(join(tmpdir(), 'htmlsift-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  failure.write = false;
  failure.rename = false;
});

const NEW = '<p>' + 'new content '.repeat(50_000) + '</p>';

describe('writeAtomic', () => {
  it('a write that fails half-way leaves the previous output untouched and no temporary file', () => {
    const out = join(dir, 'a.html');
    realWriteFileSync(out, 'previous');
    failure.write = true;
    expect(() => writeAtomic(out, NEW)).toThrow(/ENOSPC/);
    expect(readFileSync(out, 'utf8')).toBe('previous');
    expect(readdirSync(dir)).toEqual(['a.html']);
  });

  it('a failed write of a new output leaves nothing', () => {
    failure.write = true;
    expect(() => writeAtomic(join(dir, 'sub', 'b.html'), NEW)).toThrow(/ENOSPC/);
    expect(readdirSync(join(dir, 'sub'))).toEqual([]);
  });

  it('a failed rename leaves the previous output untouched and no temporary file', () => {
    const out = join(dir, 'c.html');
    realWriteFileSync(out, 'previous');
    failure.rename = true;
    expect(() => writeAtomic(out, NEW)).toThrow(/EXDEV/);
    expect(readFileSync(out, 'utf8')).toBe('previous');
    expect(readdirSync(dir).filter((f) => f.includes('c.html'))).toEqual(['c.html']);
  });

  it('otherwise the output is replaced whole', () => {
    const out = join(dir, 'd.html');
    realWriteFileSync(out, 'previous');
    writeAtomic(out, NEW);
    expect(readFileSync(out, 'utf8')).toBe(NEW);
    expect(readdirSync(dir).filter((f) => f.includes('d.html'))).toEqual(['d.html']);
  });
});
