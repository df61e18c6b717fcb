/**
 * The parser's working lists (stack of open elements, list of active formatting elements, the tokenizer's
 * buffers) must start in V8's young generation however the process has run so far (src/dom.ts, `workList`).
 *
 * V8 decides per allocation site (an array literal, `new Array`) whether to allocate straight in the old
 * generation, from how many of the site's recent objects survived a scavenge at full young-generation size.
 * A parse's lists are live during the parse, so a site in the parser's constructors could be so decided; then
 * every small parse leaves old-generation garbage, full GCs follow, and each one discarded the optimized parser
 * (a 137-byte comment parsed in 10-11 µs instead of 4).
 *
 * The check runs a Node child (`--allow-natives-syntax` for `%InYoungGeneration`) on an esbuild bundle of the
 * parser's classes. It makes the situation that led V8 to pretenure the old literals: a young generation at its
 * maximum size (fixed by flags) and a scavenge while 200 nested parses are live (a parse error callback starts
 * the next parse). Then it warms the parser up (V8's optimized code is what honours the decision) and lists the
 * working lists of a fresh parser that are not young. With array literals in the constructors, 22 were old.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bundleForChild, removeChildDir, runChild } from './support/child-node.js';

let dir = '';

beforeAll(async () => {
  dir = await bundleForChild(
    'htmlsift-pretenuring-',
    `export { parseFragment } from './src/parser.js';
export { Document } from './src/dom.js';
export { TreeBuilder } from './src/tree-builder/tree-builder.js';
export { Tokenizer } from './src/tokenizer/tokenizer.js';
`,
    'parser.mjs',
  );
  writeFileSync(
    join(dir, 'child.mjs'),
    `import { parseFragment, Document, TreeBuilder, Tokenizer } from './parser.mjs';
const input = '<p><b>x</p>y</b><table><td>1</table>';
let depth = 0;
const nested = { onError: () => { if (++depth < 200) parseFragment(input, nested); else gc({ type: 'minor' }); } };
for (let r = 0; r < 3; r++) { depth = 0; parseFragment(input, nested); }
function parse() {
  const builder = new TreeBuilder(new Document(), { scripting: true, reportErrors: false });
  builder.tokenizer = new Tokenizer(builder, null);
  builder.tokenizer.run(input);
  return builder;
}
let last = null;
for (let i = 0; i < 20000; i++) last = parse();
const lists = [];
const old = [];
const walk = (path, o) => {
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (Array.isArray(v)) {
      lists.push(path + k);
      if (!%InYoungGeneration(v)) old.push(path + k);
    }
  }
};
walk('builder.', last);
walk('open.', last.open);
walk('afe.', last.afe);
walk('tokenizer.', last.tokenizer);
console.log(JSON.stringify({ lists, old }));
`,
  );
});

afterAll(() => removeChildDir(dir));

test('the parser allocates its working lists in the young generation', () => {
  // One thread: on a loaded machine, background compile jobs finishing late made the warm parser's state vary.
  const r = runChild(
    ['--expose-gc', '--allow-natives-syntax', '--single-threaded', '--min-semi-space-size=16', '--max-semi-space-size=16'],
    join(dir, 'child.mjs'),
  );
  expect(r.status, r.stderr).toBe(0);
  const { lists, old } = JSON.parse(r.stdout) as { lists: string[]; old: string[] };
  // The walk sees the lists (else an empty result could not fail).
  expect(lists).toEqual(expect.arrayContaining(['open.items', 'afe.entries', 'tokenizer.textParts', 'builder.templateModes']));
  // `tAttrs` is the current token's attribute list: at the end of the input, the shared empty constant. The stack's
  // `topOf` is, once released, a frozen constant too (while a parse runs, the previous parse's, reused: not garbage).
  expect(old.filter((name) => name !== 'builder.tAttrs' && name !== 'open.topOf')).toEqual([]);
}, 90_000);
