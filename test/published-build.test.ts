/**
 * The package as published (`npm run build`, `scripts/build.ts`), installed as a dependency would be: a temporary
 * `node_modules/htmlsift` holding `package.json` and the built `dist/`, reached through the package's `exports`.
 *
 * - Node, ESM (bundled for the `node` condition, and one file per module) and CJS: every export of the sources is
 *   there, and the public API gives exactly what the sources give on generated markup, handpicked cases and corpus windows (`test/support/api-exercise.mjs`: parsing with errors,
 *   fragments in many contexts, sanitize with configurations, policies and reports, email, tree edits and reparse
 *   safety, the Sanitizer class, CSS, URLs, bytes, the DOM classes and their errors). The build renames internal
 *   property names (`scripts/internal-names.ts`): a name renamed where something else still spells it breaks here.
 * - A browser bundle of `sanitize` from the package keeps only the modules it uses (the same rule as
 *   `test/bundle.test.ts` for the sources: no policy engine, CSS, encoding tables, error names), with the internal
 *   names shortened.
 * - For Node, ESM and CJS, the entry points load each module once whichever of them a program takes (`dist/node/`).
 * - No built file has a character above U+00FF (V8 keeps a module's source text, in two bytes per character if any
 *   character needs them).
 * - TypeScript finds the declarations, ESM and CJS, through `exports`.
 * - The CLI (`bin`) runs.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as h from '../src/node.js';
import * as p from '../policies/node.js';
import { BROWSER_BUNDLE_OPTIONS } from '../bench/browser-bundle-options.js';
import { installPackage } from '../scripts/build.js';
import { internalNames } from '../scripts/internal-names.js';
import { FRAGMENT_CONTEXTS, Rng, generateDocument, generateFragment } from './browser/generator.js';
// @ts-expect-error: a plain JavaScript module (it also runs, unbundled, in the child processes)
import { exercise } from './support/api-exercise.mjs';
import { modulesSanitizeMustNotCarry } from './support/bundle-modules.js';
import { corpusFiles, corpusWindow, repoRoot } from './support/shared.js';

const tmp = mkdtempSync(join(tmpdir(), 'htmlsift-published-'));
let pkg = '';

beforeAll(async () => {
  pkg = await installPackage(tmp);
}, 180_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Every file below `dir`. */
function builtFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => join(dir, f)).filter((f) => statSync(f).isFile());
}

/** The text of `files`, one after the other. */
function readAll(files: string[]): string {
  return files.map((f) => readFileSync(f, 'utf8')).join('\n');
}

/** The ESM build for Node (`dist/node/`: entry points and chunks), as one text. */
function nodeEsm(dist: string): string {
  return readAll(builtFiles(join(dist, 'node')).filter((f) => f.endsWith('.js')));
}

/**
 * A bundle's top-level declaration of `name` followed by `rest`: `var name = `, or `, name = ` where the minified
 * syntax joined the declarations.
 */
function declaration(name: string, rest: string, flags = ''): RegExp {
  return new RegExp(`(?:\\bvar |, )${name} = ${rest}`, flags);
}

function node(args: string[], input?: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, args, { cwd: tmp, input: input ?? '', encoding: 'utf8', maxBuffer: 256 << 20, timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The inputs: handpicked, generated (fixed seed: the same cases every run), and windows of the corpora when present. */
function inputs(): { text: string; context: unknown }[] {
  const out: { text: string; context: unknown }[] = [
    { text: '<p onclick=x>Hi <script>alert(1)</script><a href="javascript:alert(1)" title=t>there</a><img src=x onerror=y>', context: 'body' },
    { text: '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><table><tr><td>a<b>b<p>c</b>d</table>\u0000&amp;&notin;&copy', context: 'td' },
    { text: '<svg><foreignObject><math><mi xlink:href=x>1</mi></math></foreignObject><a xlink:href="javascript:x">y</a></svg>', context: 'body' },
    { text: '<select><option>a<selectedcontent></selectedcontent><b>b</b></select><?php x ?><template><td>t</template>', context: 'body' },
    { text: '<style>p{color:red}</style><p style="background:url(https://t.test/x.png);margin:0">x</p><img src="cid:part1@x">', context: 'body' },
    { text: '<b><i><u>' + '<div>'.repeat(600) + 'deep', context: 'body' },
    { text: '<circle r=1 onload=x /><desc><p>html</p></desc>', context: { name: 'svg', namespace: 'http://www.w3.org/2000/svg' } },
  ];
  const rng = new Rng(20261127);
  for (let i = 0; i < 160; i++) {
    const ctx = rng.pick(FRAGMENT_CONTEXTS);
    out.push({ text: generateFragment(rng, ctx), context: ctx.namespace === undefined ? ctx.name : { name: ctx.name, namespace: ctx.namespace } });
  }
  for (let i = 0; i < 40; i++) out.push({ text: generateDocument(rng), context: 'body' });
  const corpus = corpusFiles(['corpus/pages', 'corpus/email', 'corpus/paste'], 'published build, corpus windows');
  if (corpus !== null) {
    for (const file of corpus) {
      for (let i = 0; i < 3; i++) out.push({ text: corpusWindow(rng, file.text).input, context: 'body' });
    }
  }
  return out;
}

describe('the published build', () => {
  test('Node, ESM and CJS: the same exports and the same results as the sources', () => {
    const cases = inputs();
    writeFileSync(join(tmp, 'inputs.json'), JSON.stringify(cases));
    copyFileSync(join(repoRoot, 'test', 'support', 'api-exercise.mjs'), join(tmp, 'api-exercise.mjs'));
    const expected = JSON.parse(JSON.stringify(exercise(h, p, cases))) as Record<string, unknown>[];
    // The exercise must exercise: most calls succeed on the sources (a misspelt call would throw in both builds).
    const calls = expected.slice(0, -1).flatMap((r) => Object.values(r));
    const failed = calls.filter((v) => JSON.stringify(v).startsWith('{"threw"')).length;
    expect(failed / calls.length).toBeLessThan(0.02);
    for (const mode of ['esm', 'esm-modules', 'cjs']) {
      const r = node([join(tmp, 'api-exercise.mjs'), mode, join(tmp, 'inputs.json'), join(tmp, `out-${mode}.json`)]);
      expect(r.stderr, mode).toBe('');
      expect(r.status, mode).toBe(0);
      const got = JSON.parse(readFileSync(join(tmp, `out-${mode}.json`), 'utf8')) as { exports: string[][]; results: unknown[] };
      expect(got.exports, mode).toEqual([Object.keys(h).sort(), Object.keys(p).sort()]);
      expect(got.results.length, mode).toBe(expected.length);
      for (let i = 0; i < expected.length; i++) expect(got.results[i], `${mode}, input ${i}: ${JSON.stringify(cases[i]?.text.slice(0, 200))}`).toEqual(expected[i]);
    }
  }, 180_000);

  test('a browser bundle of sanitize from the package keeps only what it uses, with internal names shortened', async () => {
    const result = await build({
      ...BROWSER_BUNDLE_OPTIONS,
      stdin: { contents: `import { sanitize } from 'htmlsift';\nexport const run = (s) => sanitize(s);\n`, resolveDir: tmp, loader: 'js' },
    });
    const output = Object.values(result.metafile.outputs)[0]!;
    const inputs = Object.entries(output.inputs)
      .filter(([, info]) => info.bytesInOutput > 0)
      .map(([file]) => relative(join(pkg, 'dist'), resolve(tmp, file)).split('\\').join('/'));
    expect(inputs).toContain('src/tokenizer/tokenizer.js');
    expect(modulesSanitizeMustNotCarry(inputs)).toEqual([]);
    // Nor the parse errors' names and codes (from the sources the codes are written in as numbers; see build.ts).
    expect(inputs.filter((f) => f === 'src/errors.js' || f === 'src/parse-error-codes.js')).toEqual([]);
    const code = result.outputFiles[0]!.text;
    expect(code).not.toContain('eof-in-tag');
    expect(code).not.toContain('EofInTag');
    // Internal names: the tree builder's and the tokenizer's methods are renamed (they would survive minifying).
    const { mangleCache } = internalNames();
    expect(Object.keys(mangleCache)).toEqual(expect.arrayContaining(['reconstructActiveFormattingElements', 'adoptionAgency', 'emitTag']));
    for (const name of ['reconstructActiveFormattingElements', 'adoptionAgency', 'emitTag', 'insertHtmlElement']) expect(code).not.toContain(name);
    const run = ((await import('data:text/javascript;base64,' + Buffer.from(code).toString('base64'))) as { run: (s: string) => string }).run;
    const dirty = '<p onclick="x()">Hi <script>alert(1)</script><a href="javascript:alert(1)">there</a><b><i>x</b>y</i>';
    expect(run(dirty)).toBe(h.sanitize(dirty));
  });

  test('Node, ESM and CJS: the entry points load each module once, whichever of them a program takes', () => {
    const program = `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const h = await import('htmlsift');
const p = await import('htmlsift/policies');
const b = await import('htmlsift/browser');
const hc = require('htmlsift');
const pc = require('htmlsift/policies');
const bc = require('htmlsift/browser');
console.log(JSON.stringify({
  resolved: ['htmlsift', 'htmlsift/policies', 'htmlsift/browser'].flatMap((s) => [import.meta.resolve(s), require.resolve(s)]),
  shared: [h.extendPolicy === p.extendPolicy, hc.extendPolicy === pc.extendPolicy],
  browser: [Object.keys(b).sort(), Object.keys(bc).sort()],
  esModule: [hc.__esModule, pc.__esModule, bc.__esModule],
}));
`;
    writeFileSync(join(tmp, 'entries.mjs'), program);
    const r = node([join(tmp, 'entries.mjs')]);
    expect(r.stderr).toBe('');
    const got = JSON.parse(r.stdout) as { resolved: string[]; shared: boolean[]; browser: string[][]; esModule: boolean[] };
    const dist = join(pkg, 'dist');
    expect(got.resolved).toEqual(
      [['index.js', 'node.cjs'], ['policies.js', 'policies.node.cjs'], ['browser.js', 'browser.node.cjs']].flatMap(([esm, cjs]) => [
        pathToFileURL(join(dist, 'node', esm!)).href,
        join(dist, cjs!),
      ]),
    );
    expect(got.shared).toEqual([true, true]);
    expect(got.browser).toEqual([['createTrustedSanitizer', 'toDOM'], ['createTrustedSanitizer', 'toDOM']]);
    expect(got.esModule).toEqual([true, true, true]);
    // Each class is defined in one file of each build (the ESM chunks the entry points share; the CJS bundle of all
    // three), not once per entry point.
    const esm = nodeEsm(dist);
    const cjs = readAll([join(dist, 'node.cjs'), join(dist, 'policies.node.cjs'), join(dist, 'browser.node.cjs'), join(dist, 'node', 'entries.cjs')]);
    for (const name of ['Tokenizer', 'TreeBuilder', 'Element', 'Sanitizer', 'CssTokenizer']) {
      const definitions = declaration(name, 'class\\b', 'g');
      expect(esm.match(definitions)?.length ?? 0, name).toBe(1);
      expect(cjs.match(definitions)?.length ?? 0, name).toBe(1);
    }
  });

  test('Node, ESM and CJS: the constants of the sources are written in place as numbers', () => {
    // (scripts/build.ts: left as the module variables a bundle makes of them, V8's optimizing compiler loads and
    // checks them at every use, in the tokenizer's per-character loops too.)
    const dist = join(pkg, 'dist');
    const esm = nodeEsm(dist);
    const cjs = readAll([join(dist, 'node', 'entries.cjs'), join(dist, 'index.cjs')]);
    expect(esm).toContain('= class');
    // (Some in modules of constants alone: esbuild writes in place only the constants that open a module with no imports.)
    for (const name of ['LT', 'AMPERSAND', 'DATA_STATE', 'RECORD', 'PARTS', 'SHORT_RUN', 'CYCLE_CHECK_DEPTH']) {
      const declared = declaration(name, '');
      expect(declared.test(esm), name).toBe(false);
      expect(declared.test(cjs), name).toBe(false);
    }
  });

  test('no built file has a character above U+00FF', () => {
    const wide: string[] = [];
    for (const file of builtFiles(join(pkg, 'dist')).filter((f) => /\.(c?js)$/.test(f))) {
      const text = readFileSync(file, 'utf8');
      for (let i = 0; i < text.length; i++) {
        if (text.charCodeAt(i) > 0xff) {
          wide.push(`${relative(pkg, file)}: ${JSON.stringify(text.slice(Math.max(0, i - 40), i + 10))}`);
          break;
        }
      }
    }
    expect(wide).toEqual([]);
  });

  test('TypeScript finds the declarations through exports, from ESM and from CJS', () => {
    const esm = `import { sanitize, parseDocument, serialize, Sanitizer, type SanitizeOptions } from 'htmlsift';
import { comment, sanitizeEmail } from 'htmlsift/policies';
import { toDOM } from 'htmlsift/browser';
const o: SanitizeOptions = { policy: comment };
const s: string = sanitize('<p>x', o) + serialize(parseDocument('<p>')) + sanitizeEmail('<p>').html;
new Sanitizer({ elements: ['p'] }).allowElement('b');
export { s, toDOM };
`;
    const cjs = `import htmlsift = require('htmlsift');
import policies = require('htmlsift/policies');
const s: string = htmlsift.sanitize('<p>x', { policy: policies.paste });
export = s;
`;
    writeFileSync(join(tmp, 'consumer.mts'), esm);
    writeFileSync(join(tmp, 'consumer.cts'), cjs);
    writeFileSync(join(tmp, 'bad.mts'), `import { sanitize } from 'htmlsift';\nconst n: number = sanitize('x');\nexport { n };\n`);
    const tsc = (file: string) =>
      node([
        join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'),
        '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022',
        '--lib', 'es2022,dom', '--typeRoots', join(repoRoot, 'node_modules', '@types'), '--types', 'node', join(tmp, file),
      ]);
    for (const file of ['consumer.mts', 'consumer.cts']) {
      const r = tsc(file);
      expect(r.stdout + r.stderr, file).toBe('');
      expect(r.status, file).toBe(0);
    }
    // And the check can fail: a type error in a consumer is reported.
    const bad = tsc('bad.mts');
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toContain("Type 'string' is not assignable to type 'number'");
  }, 120_000);

  test('the CLI runs', () => {
    const dirty = '<p style="color:red" onclick=x>Hi <a href="https://t.test/" title=t>link</a><script>x</script>';
    const r = node([join(pkg, 'dist', 'cli', 'htmlsift.js'), '--policy', 'comment'], dirty);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(h.sanitize(dirty, { policy: p.comment }));
  });
});
