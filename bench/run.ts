/**
 * `npm run bench`: htmlsift against its peers on ../shared/corpus/pages (or $HTMLSIFT_SHARED/corpus/pages),
 * in one process, rounds alternating. Prints MB/s per contender and each ratio; then the same on small inputs
 * (the corpus's paragraphs), with the time per call.
 *
 * Options (environment): BENCH_ROUNDS (default 15), BENCH_WARMUP (default 5).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as parse5 from 'parse5';
import { parseDocument, serialize } from '../src/index.js';
import { paragraphs, readCorpus, report, runRounds } from './harness.js';

const shared = process.env.HTMLSIFT_SHARED ?? resolve(process.cwd(), '..', 'shared');
const pagesDir = join(shared, 'corpus', 'pages');
if (!existsSync(pagesDir)) {
  console.log(`bench skipped: ${pagesDir} not found (put shared/ beside the checkout or set HTMLSIFT_SHARED).`);
  process.exit(0);
}

const pages = readCorpus(pagesDir);
const inputs = pages.map((p) => p.html);
const totalBytes = inputs.reduce((n, s) => n + Buffer.byteLength(s, 'utf8'), 0);
const rounds = Number(process.env.BENCH_ROUNDS ?? 15);
const warmup = Number(process.env.BENCH_WARMUP ?? 5);
console.log(
  `corpus: ${pages.length} pages, ${(totalBytes / 1e6).toFixed(2)} MB; ${rounds} rounds after ${warmup} warm-up passes; node ${process.version}`,
);

const parseResults = runRounds(
  [
    { name: 'htmlsift parseDocument', run: (s) => parseDocument(s) },
    { name: 'parse5.parse', run: (s) => parse5.parse(s) },
  ],
  inputs,
  { rounds, warmup },
);
report('Parse a document', parseResults, 'parse5.parse');

const roundTripResults = runRounds(
  [
    { name: 'htmlsift parse+serialize', run: (s) => serialize(parseDocument(s)) },
    { name: 'parse5 parse+serialize', run: (s) => parse5.serialize(parse5.parse(s)) },
  ],
  inputs,
  { rounds, warmup },
);
report('Parse and serialize a document', roundTripResults, 'parse5 parse+serialize');

// Sanitize with default settings against the peers. sanitize() treats its input as a body fragment, which is
// how the peers treat it too.
const { default: sanitizeHtml } = await import('sanitize-html');
const { default: createDOMPurify } = await import('dompurify');
const { JSDOM } = await import('jsdom');
const purify = createDOMPurify(new JSDOM('').window as unknown as Parameters<typeof createDOMPurify>[0]);
const { sanitize } = await import('../src/index.js');
// Two groups: DOMPurify on jsdom is ~20x slower than the rest and leaves a heap full of DOM garbage, whose
// collection would otherwise land in the other contenders' passes; it runs with fewer rounds in its own group.
const purifyRounds = { rounds: Math.max(3, Math.round(rounds / 3)), warmup: Math.max(1, Math.round(warmup / 3)) };
const sanitizeResults = runRounds(
  [
    { name: 'htmlsift sanitize', run: (s) => sanitize(s) },
    { name: 'parse5 parse+serialize', run: (s) => parse5.serialize(parse5.parse(s)) },
    { name: 'sanitize-html', run: (s) => sanitizeHtml(s) },
  ],
  inputs,
  { rounds, warmup },
);
report('Sanitize (default settings)', sanitizeResults, 'parse5 parse+serialize');
const purifyResults = runRounds(
  [
    { name: 'htmlsift sanitize', run: (s) => sanitize(s) },
    { name: 'DOMPurify+jsdom', run: (s) => purify.sanitize(s) },
  ],
  inputs,
  purifyRounds,
);
report('Sanitize (default settings), against DOMPurify on jsdom', purifyResults, 'DOMPurify+jsdom');
const ours = sanitizeResults[0]!.mbPerSecond;
for (const r of sanitizeResults.slice(1)) console.log(`  htmlsift sanitize vs ${r.name}: ${(ours / r.mbPerSecond).toFixed(2)}x`);
console.log(`  htmlsift sanitize vs DOMPurify+jsdom: ${(purifyResults[0]!.mbPerSecond / purifyResults[1]!.mbPerSecond).toFixed(2)}x`);

// Small inputs: what a server sanitizing comments sees. The snippets are the corpus's own paragraphs
// (`<p>…</p>`, 80 to 1,000 characters), so per-call costs (setting up a parser, a fragment, a sanitizer pass)
// weigh as they do there.
const snippets = paragraphs(inputs);
if (snippets.length > 0) {
  const snippetBytes = snippets.reduce((n, s) => n + Buffer.byteLength(s, 'utf8'), 0);
  const perCall = (r: { name: string; mbPerSecond: number }): string =>
    `${r.name}: ${((snippetBytes / snippets.length / (r.mbPerSecond * 1e6)) * 1e6).toFixed(2)} µs per snippet`;
  console.log(`\nsmall inputs: ${snippets.length} paragraphs of the corpus, ${Math.round(snippetBytes / snippets.length)} bytes on average`);
  // A pass reads the paragraphs 20 times (about 0.9 MB), so that one pass is long enough to time.
  const passInputs = Array.from({ length: 20 }, () => snippets).flat();
  const { parseFragment } = await import('../src/index.js');
  const smallParse = runRounds(
    [
      { name: 'htmlsift parseFragment', run: (s) => parseFragment(s) },
      { name: 'parse5.parseFragment', run: (s) => parse5.parseFragment(s) },
    ],
    passInputs,
    { rounds, warmup },
  );
  report('Parse a small fragment', smallParse, 'parse5.parseFragment');
  const smallSanitize = runRounds(
    [
      { name: 'htmlsift sanitize', run: (s) => sanitize(s) },
      { name: 'parse5 fragment+serialize', run: (s) => parse5.serialize(parse5.parseFragment(s)) },
      { name: 'sanitize-html', run: (s) => sanitizeHtml(s) },
    ],
    passInputs,
    { rounds, warmup },
  );
  report('Sanitize a small fragment (default settings)', smallSanitize, 'sanitize-html');
  // What a configuration costs per call, where the caller builds it per call: a Sanitizer API dictionary (as
  // setHTML(s, { sanitizer: {...} }) is written), the email policy with its callbacks (sanitizeEmail builds and
  // compiles it per message), against the built-in comment policy (compiled once) and sanitize-html with its
  // options. No target: these show that the configuration's compilation is not the call's main cost.
  const { comment, sanitizeEmail } = await import('../policies/index.js');
  const smallConfigured = runRounds(
    [
      { name: 'htmlsift sanitize, comment policy', run: (s) => sanitize(s, { policy: comment }) },
      {
        name: 'htmlsift sanitize, Sanitizer dictionary',
        run: (s) => sanitize(s, { sanitizer: { elements: ['p', 'a', 'b', 'i', 'em', 'strong', 'code', 'ul', 'ol', 'li'], attributes: ['href', 'title'] } }),
      },
      { name: 'htmlsift sanitizeEmail', run: (s) => sanitizeEmail(s, { container: 'mail', proxyImage: (u) => '/proxy?u=' + encodeURIComponent(u) }) },
      { name: 'sanitize-html', run: (s) => sanitizeHtml(s, { allowedTags: ['p', 'a', 'b', 'i', 'em', 'strong', 'code', 'ul', 'ol', 'li'], allowedAttributes: { a: ['href', 'title'] } }) },
    ],
    passInputs,
    { rounds, warmup },
  );
  report('Sanitize a small fragment with a configuration made per call', smallConfigured, 'sanitize-html');
  // DOMPurify on jsdom in its own group, as above.
  const smallPurify = runRounds(
    [
      { name: 'htmlsift sanitize', run: (s) => sanitize(s) },
      { name: 'DOMPurify+jsdom', run: (s) => purify.sanitize(s) },
    ],
    snippets,
    purifyRounds,
  );
  report('Sanitize a small fragment (default settings), against DOMPurify on jsdom', smallPurify, 'DOMPurify+jsdom');
  for (const r of [...smallParse, ...smallSanitize, ...smallConfigured, smallPurify[1]!]) console.log(`  ${perCall(r)}`);
}

// Last, so that nothing above runs after the tokenizer has fed a second kind of sink: sanitize()'s own stages,
// each run to the end of the one before, then the tokenizer alone against the parse (bench/stages.ts).
const { STAGES, TOKENIZER_AND_PARSE, checkStages, reportStages, reportTokenizer } = await import('./stages.js');
checkStages(inputs);
reportStages(runRounds(STAGES, inputs, { rounds, warmup }));
reportTokenizer(runRounds(TOKENIZER_AND_PARSE, inputs, { rounds, warmup }));
