/**
 * Where `sanitize()`'s time goes: its pipeline (see src/sanitize.ts) cut into cumulative stages, each a contender
 * of one alternating-rounds run, each stage running everything before it:
 *
 *   every character    a loop reading each code unit once (the issue's "plain JavaScript loop"), a reference;
 *   parse              the fragment parsing algorithm in a `body` context, scripting off, as `sanitize()` parses;
 *   + Sanitizer API and reparse safety
 *                      the built-in safe default configuration's filter, with URL hardening, and the repairs that
 *                      make the markup reparse to the tree, in one walk (the filter runs on each child list just
 *                      before reparse safety reads it, as in sanitize());
 *   + serialize        round-trip serialization: the whole of `sanitize()`.
 *
 * A stage's cost is the median, over rounds, of its time less the previous stage's time in the same round. Then, in
 * a group of its own, the tokenizer alone (its tokens dropped, no tree: see `tokenizeOnly`) against the parse.
 *
 * Neighbouring stages can trade several points between runs (where the collector's pauses land depends on the heap
 * the rest of the process left); their sum moves less. The last stage must give exactly what `sanitize()` gives,
 * page for page (`checkStages` throws otherwise), so the breakdown cannot drift from the function it explains.
 */
import { HTML_NS } from '../src/dom.js';
import { contextElement, parseFragmentWith } from '../src/parser.js';
import { sanitizerHandleFromOptions } from '../src/sanitizer-api/config.js';
import { compiledSanitizer, releaseChildListFilter, takeChildListFilter } from '../src/sanitizer-api/sanitize.js';
import { enforceFragmentReparseSafety } from '../src/sanitizer/reparse-safety.js';
import { urlHardening } from '../src/sanitizer/url-hardening.js';
import { serialize } from '../src/serializer.js';
import { sanitize } from '../src/sanitize.js';
import { Tokenizer } from '../src/tokenizer/tokenizer.js';
import type { TokenSink } from '../src/tokenizer/token-sink.js';
import { htmlTagId } from '../src/tree-builder/html-elements.js';
import { fragmentTokenizerState } from '../src/tree-builder/tree-builder.js';
import { type Contender, type Result, median } from './harness.js';

let tokens = 0;

/**
 * The tokenizer over `input` with a sink that only counts the tokens. After each start tag the sink sets the
 * tokenizer state the tree builder would for that element in HTML content, scripting off (`fragmentTokenizerState`),
 * so that a page's scripts and styles are read as text, not as markup.
 */
function tokenizeOnly(input: string): number {
  tokens = 0;
  const sink: TokenSink = {
    startTag(name) {
      tokens++;
      tokenizer.state = fragmentTokenizerState(htmlTagId(name), false);
    },
    endTag: () => void tokens++,
    characters: () => void tokens++,
    nullCharacter: () => void tokens++,
    comment: () => void tokens++,
    processingInstruction: () => void tokens++,
    doctype: () => void tokens++,
    endOfFile: () => {},
    cdataAllowed: () => false,
  };
  const tokenizer = new Tokenizer(sink, null);
  tokenizer.run(input);
  return tokens;
}

function everyCharacter(input: string): number {
  let h = 0;
  for (let i = 0; i < input.length; i++) h = (h + input.charCodeAt(i)) | 0;
  return h;
}

const BODY = { kind: 'fragment' as const, name: 'body', namespace: HTML_NS };
const handle = sanitizerHandleFromOptions({ sanitizer: 'default' }, true);
const hardening = urlHardening();

const parse = (s: string) => parseFragmentWith(s, contextElement('body'), { scripting: false }, null);
// As sanitize() runs them: the Sanitizer API's filter inside the reparse safety walk (see src/sanitize.ts).
const compiled = compiledSanitizer(handle, true);
const thenSafety = (s: string) => {
  const f = parse(s);
  const filter = takeChildListFilter(compiled, hardening);
  enforceFragmentReparseSafety(f, BODY, undefined, filter);
  releaseChildListFilter(filter);
  return f;
};
const thenSerialize = (s: string) => serialize(thenSafety(s), { roundTrip: true, scripting: true });

export const STAGES: Contender[] = [
  { name: 'every character', run: everyCharacter },
  { name: 'parse', run: parse },
  { name: '+ Sanitizer API and reparse safety', run: thenSafety },
  { name: '+ serialize', run: thenSerialize },
];

/**
 * The tokenizer alone against the whole parse, as a group of its own run after every other measurement: once the
 * tokenizer has fed a second kind of sink, its calls to the sink are polymorphic for the rest of the process.
 */
export const TOKENIZER_AND_PARSE: Contender[] = [
  { name: 'tokenizer', run: tokenizeOnly },
  { name: 'parse', run: parse },
];

/**
 * Inputs on which leaving out a stage's work shows, which real pages may not have: a script-capable URL only URL
 * hardening removes, nesting deeper than reparse safety keeps (512), a CR that only round-trip mode escapes.
 */
const PROBES = ['<blockquote cite="javascript:x">q</blockquote>', '<div>'.repeat(600) + 'x', 'a&#13;b'];

/** Throws unless the staged pipeline gives `sanitize()`'s output for every input (and every probe). */
export function checkStages(pages: readonly string[]): void {
  const inputs = [...PROBES, ...pages];
  for (let i = 0; i < inputs.length; i++) {
    if (thenSerialize(inputs[i]!) !== sanitize(inputs[i]!)) {
      throw new Error(
        `bench/stages.ts: the staged pipeline no longer gives sanitize()'s output (input ${i}); follow src/sanitize.ts`,
      );
    }
  }
}

/**
 * Each stage's throughput, and what it adds to the stage before it: the median over rounds of the difference
 * between the two stages' times in the same round (paired, so that a slow round does not land on one stage only),
 * in ms per MB and as a share of sanitize()'s median time. The first result is the reference loop, not a stage.
 */
export function reportStages(results: readonly Result[]): void {
  const total = 1000 / results[results.length - 1]!.mbPerSecond;
  console.log('\nWhere sanitize() spends its time (cumulative stages; each adds its cost to the stage above it)');
  const width = Math.max(...results.map((r) => r.name.length));
  for (let k = 0; k < results.length; k++) {
    const r = results[k]!;
    let added = '';
    if (k > 0) {
      const before = k === 1 ? null : results[k - 1]!.samples;
      const ms = median(r.samples.map((mbps, round) => 1000 / mbps - (before === null ? 0 : 1000 / before[round]!)));
      added = `  ${ms.toFixed(1).padStart(5)} ms/MB  ${((ms / total) * 100).toFixed(0).padStart(3)}% of sanitize`;
    }
    console.log(`  ${r.name.padEnd(width)}  ${r.mbPerSecond.toFixed(1).padStart(7)} MB/s${added}`);
  }
}

/** The tokenizer's part of the parse (results of TOKENIZER_AND_PARSE). */
export function reportTokenizer(results: readonly Result[]): void {
  const [tokenizer, parse] = results as [Result, Result];
  const share = median(tokenizer.samples.map((mbps, round) => parse.samples[round]! / mbps));
  const mbps = tokenizer.mbPerSecond.toFixed(1);
  console.log(`  of the parse, the tokenizer alone: ${mbps} MB/s, ${(share * 100).toFixed(0)}% of the parse's time`);
}
