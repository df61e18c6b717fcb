/**
 * A finished parse or sanitize must leave nothing that keeps its tree, or its input, alive.
 *
 * 1. Young generation. A tree nobody references must die in the next scavenge (V8's young-generation
 *    collection). A closure kept in an object's field defeated that: V8's scavenger kept such a closure alive after
 *    the call, and with it (through the closure's `this`) the parser or the policy walk and the whole tree, which
 *    was then copied and promoted. On the corpus, scavenges took a third of the parse time that way. The check: in a
 *    child Node (`--expose-gc`), run the function on a 2,000-element page and drop the result, run one scavenge,
 *    and compare what the young generation grew by with the size of the tree itself (the heap growth when the
 *    tree is kept, after a full collection). Before the fix the whole tree stayed (about 100%); now nothing does.
 *
 * 2. Module-level caches. The tokenizer's interned names and the serializer's markup pieces are kept between
 *    calls. V8 cuts a substring of 13 code units or more as a view of the whole string: a cached view of a long
 *    tag or attribute name kept the whole input alive (4 MB here) after the call was over. Reparse safety's free
 *    frames are kept too, and must not point into the tree they walked.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bundleForChild, removeChildDir, runChild } from './support/child-node.js';

let dir = '';

beforeAll(async () => {
  dir = await bundleForChild(
    'htmlsift-young-',
    `export { parseDocument, parseFragment, sanitize, serialize } from './src/index.js';
export { comment } from './policies/index.js';
`,
    'lib.mjs',
  );
  writeFileSync(
    join(dir, 'young.mjs'),
    `import v8 from 'node:v8';
import * as lib from './lib.mjs';
const page = '<!DOCTYPE html><title>t</title>' + '<div class=a><b>x</b> <a href="/p">y</a></div>'.repeat(700) +
  '<select><option selected>o</option><button><selectedcontent></selectedcontent></button></select>';
// Bytes in use in the given heap spaces.
const used = (spaces) => {
  let n = 0;
  for (const s of v8.getHeapSpaceStatistics()) if (spaces.includes(s.space_name)) n += s.space_used_size;
  return n;
};
const HEAP = ['new_space', 'old_space', 'new_large_object_space', 'large_object_space'];
const YOUNG = ['new_space', 'new_large_object_space'];
const runs = {
  parseDocument: () => lib.parseDocument(page),
  parseFragment: () => lib.parseFragment(page),
  'sanitize (default)': () => lib.sanitize(page),
  'sanitize (comment policy)': () => lib.sanitize(page, { policy: lib.comment }),
};
const out = {};
for (const [name, f] of Object.entries(runs)) {
  for (let i = 0; i < 20; i++) f();
  // The tree's own size: kept across a full collection.
  gc(); gc();
  let before = used(HEAP);
  let kept = lib.parseDocument(page);
  gc(); gc();
  const tree = used(HEAP) - before;
  kept = null;
  // What one scavenge leaves of a dropped result in the young generation, which the full collections emptied
  // (a first scavenge keeps its survivors there). Not the old generation: the compiler's data for a function
  // optimized during the call lands there. The least of five tries.
  let left = Infinity;
  for (let t = 0; t < 5; t++) {
    gc(); gc();
    before = used(YOUNG);
    f();
    gc({ type: 'minor' });
    left = Math.min(left, used(YOUNG) - before);
  }
  out[name] = { tree, left };
}
console.log(JSON.stringify(out));
`,
  );
  writeFileSync(
    join(dir, 'caches.mjs'),
    `import * as lib from './lib.mjs';
gc(); gc();
const h0 = process.memoryUsage().heapUsed;
(() => {
  const input = '<custom-element-name data-attribute-name=1>x</custom-element-name><p>' + 'y'.repeat(4e6) + '</p>';
  const html = lib.serialize(lib.parseDocument(input));
  if (!html.includes('<custom-element-name data-attribute-name="1">')) throw new Error('unexpected output');
  // sanitize's reparse-safety walk reuses the frames it walked the tree with: a reused frame keeps no node.
  const clean = lib.sanitize(input);
  if (!clean.startsWith('<p>yyy') || clean.length !== 4e6 + 7) throw new Error('unexpected sanitize output');
})();
gc(); gc();
console.log(JSON.stringify({ retained: process.memoryUsage().heapUsed - h0 }));
`,
  );
});

afterAll(() => removeChildDir(dir));

test('a dropped tree dies in the next scavenge (parse, sanitize, policy walk)', () => {
  // One thread: no compilation or marking running beside the measurement (on a loaded machine, a background
  // compile job could still be holding a result when the scavenge runs).
  const r = runChild(['--expose-gc', '--single-threaded'], join(dir, 'young.mjs'));
  expect(r.status, r.stderr).toBe(0);
  const res = JSON.parse(r.stdout) as Record<string, { tree: number; left: number }>;
  expect(Object.keys(res)).toHaveLength(4);
  for (const [name, { tree, left }] of Object.entries(res)) {
    // The measure sees the tree (else the check below could not fail): 2,100 elements take well over 100 KB.
    expect(tree, name).toBeGreaterThan(100_000);
    expect(left / tree, `${name}: ${left} bytes left of a ${tree}-byte tree`).toBeLessThan(0.2);
  }
}, 90_000);

test('the name caches and free frames keep no view of a parsed input or tree', () => {
  const r = runChild(['--expose-gc'], join(dir, 'caches.mjs'));
  expect(r.status, r.stderr).toBe(0);
  const { retained } = JSON.parse(r.stdout) as { retained: number };
  // The input is 4 MB; before the fix all of it stayed.
  expect(retained).toBeLessThan(1_000_000);
}, 60_000);
