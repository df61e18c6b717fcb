/**
 * Cases where Chromium 156 departs from today's HTML standard. We follow the standard; the differential test lets a
 * difference through only when one of these narrow predicates recognizes it, and counts it.
 *
 * A predicate should recognize the deviation by reproducing it, not by pattern-matching the input loosely: each one
 * below rewrites the input so that the deviation cannot occur (on our side or on Chromium's), re-parses, and requires
 * the trees to become identical.
 */
import type { ContextSpec } from './chromium.js';

export interface ParseOutcome {
  dump: string;
  /** Document mode for documents, null for fragments. */
  mode: string | null;
}

export interface DiffCase {
  kind: 'document' | 'fragment';
  input: string;
  context: ContextSpec | null;
  scripting: boolean;
  ours: ParseOutcome;
  chromium: ParseOutcome;
  /** Parses another input with our parser, with the same kind, context and scripting flag. */
  reparse(input: string): Promise<ParseOutcome>;
  /** Parses another input with Chromium, with the same kind, context and scripting flag. */
  chromiumParse(input: string): Promise<ParseOutcome>;
}

export interface KnownDeviation {
  id: string;
  description: string;
  /** Where the deviation is documented. */
  reference: string;
  /** The html5lib/WPT tree-construction tests where Chromium shows it (checked by harness.test.ts). */
  html5lib: readonly { file: string; data: string }[];
  matches(c: DiffCase): boolean | Promise<boolean>;
}

const HEAD_START = /<head(?=[\t\n\f\r />])/gi;

export const KNOWN_DEVIATIONS: readonly KnownDeviation[] = [
  {
    id: 'chromium-head-in-head-noscript',
    description:
      'Scripting off, "in head noscript": the standard ignores a <head> start tag and stays in noscript; ' +
      'Chromium 156 pops the noscript instead (as if </noscript> preceded the <head> tag), so what follows ' +
      '(e.g. a comment) lands after the noscript element.',
    reference: '/work/shared/wpt-parsing/SOURCE.md, "Known Chromium deviation" (noscript01.dat)',
    html5lib: [{ file: 'noscript01.dat', data: '<head><noscript><head class="foo"><!--foo--></noscript>' }],
    async matches(c) {
      if (c.kind !== 'document' || c.scripting) return false;
      const lower = c.input.toLowerCase();
      const noscript = lower.indexOf('<noscript');
      if (noscript < 0) return false;
      const positions: number[] = [];
      for (const m of c.input.matchAll(HEAD_START)) {
        if (m.index > noscript) positions.push(m.index);
        if (positions.length >= 8) break;
      }
      if (positions.length === 0) return false;
      const same = async (input: string): Promise<boolean> => {
        const o = await c.reparse(input);
        return o.dump === c.chromium.dump && o.mode === c.chromium.mode;
      };
      const insertAt = (at: readonly number[]): string => {
        let s = c.input;
        for (let k = at.length - 1; k >= 0; k--) s = s.slice(0, at[k]) + '</noscript>' + s.slice(at[k]);
        return s;
      };
      if (await same(insertAt(positions))) return true;
      if (positions.length > 1) for (const p of positions) if (await same(insertAt([p]))) return true;
      return false;
    },
  },
  {
    id: 'chromium-is-attribute-formatting-element',
    description:
      'A formatting element (a, b, big, code, em, font, i, nobr, s, small, strike, strong, tt, u) with an `is` ' +
      'attribute never enters Chromium\'s list of active formatting elements: it is not reconstructed (`<p><b is=x>' +
      '</p>y` leaves "y" bare) and its end tag does not run the adoption agency. The standard gives `is` no role in ' +
      'tree construction. Recognized by renaming `is` to `is-` inside tags for Chromium only (and back in its dump): ' +
      'the trees must then be identical.',
    reference: 'found by this differential test (Chromium 156); no upstream report located yet',
    html5lib: [],
    async matches(c) {
      if (!FORMATTING_START.test(c.input)) return false;
      const renamed = renameIsAttributes(c.input);
      if (renamed === c.input) return false;
      const r = await c.chromiumParse(renamed);
      const dump = r.dump.replace(/^(\| +)is-="/gm, '$1is="');
      return dump === c.ours.dump && r.mode === c.ours.mode;
    },
  },
  {
    id: 'chromium-nul-after-less-than',
    description:
      'Data state: a U+0000 right after "<" (tag open state, "anything else") is reconsumed in the data state, ' +
      'emitted as U+0000 and then ignored "in body"; Chromium 156 emits U+FFFD instead (its input preprocessor ' +
      'already replaced the NUL while in the tag open state), so "a<\\0b" gives "a<\\uFFFDb" instead of "a<b". ' +
      'Recognized by replacing each "<" U+0000 pair with "<" U+FFFD in the input of OUR parser: the trees must then be ' +
      'identical.',
    reference: 'found by this differential test (Chromium 156); spec: tag open state + data state + "in body" U+0000',
    html5lib: [],
    async matches(c) {
      if (!c.input.includes('<\u0000')) return false;
      const o = await c.reparse(c.input.replaceAll('<\u0000', '<\uFFFD'));
      return o.dump === c.chromium.dump && o.mode === c.chromium.mode;
    },
  },
  {
    id: 'chromium-rcdata-fragment-drops-nul',
    description:
      'Fragment parsing with a textarea or title context element (tokenizer starts in RCDATA, insertion mode "in ' +
      'body"): the standard turns U+0000 into U+FFFD in the RCDATA state; Chromium 156 drops it (it replaces NULs by ' +
      'insertion mode, and "in body" ignores them). Documents (<textarea>\\0) are not affected. Recognized by ' +
      'deleting the NULs from the input of OUR parser: the trees must then be identical.',
    reference: 'found by this differential test (Chromium 156); spec: RCDATA state, U+0000',
    html5lib: [],
    async matches(c) {
      if (c.kind !== 'fragment' || c.context === null || !c.input.includes('\u0000')) return false;
      if ((c.context.namespace ?? HTML_NS) !== HTML_NS || (c.context.name !== 'textarea' && c.context.name !== 'title')) return false;
      const o = await c.reparse(c.input.replaceAll('\u0000', ''));
      return o.dump === c.chromium.dump;
    },
  },
  {
    id: 'chromium-drops-nul-outside-body',
    description:
      'A U+0000 character token in the "initial", "before html", "before head", "in head", "after head" or ' +
      '"after body" insertion mode is "anything else" in the standard (it implies html/head/body, so a following ' +
      'comment lands in body); Chromium 156 drops it without any effect ("\\0<!--c-->" keeps the comment before ' +
      '<html>). Recognized by deleting the NULs outside markup from the input of OUR parser: the trees must then be ' +
      'identical, and our tree must contain no raw U+0000.',
    reference: 'found by this differential test (Chromium 156); spec: tree construction, "anything else" entries',
    html5lib: [],
    async matches(c) {
      if (!c.input.includes('\u0000') || c.ours.dump.includes('\u0000')) return false;
      const stripped = c.input.replace(/(<[^>]*>?)|\u0000/g, (m, tag: string | undefined) => tag ?? '');
      if (stripped === c.input) return false;
      const o = await c.reparse(stripped);
      return o.dump === c.chromium.dump && o.mode === c.chromium.mode;
    },
  },
];

const HTML_NS = 'http://www.w3.org/1999/xhtml';

const FORMATTING_START = /<(?:a|b|big|code|em|font|i|nobr|s|small|strike|strong|tt|u)[\t\n\f\r />]/i;
const SPACE = /[\t\n\f\r ]/;

/**
 * Appends '-' to every attribute named `is` (any case) in start-tag-like markup, following the tokenizer's
 * attribute syntax closely enough (quoted values may contain '>'). Raw text is not special-cased: a rename there
 * changes the tree, so the deviation is then simply not recognized (and the difference is reported).
 */
function renameIsAttributes(input: string): string {
  let out = '';
  let i = 0;
  const n = input.length;
  while (i < n) {
    const lt = input.indexOf('<', i);
    if (lt < 0) {
      out += input.slice(i);
      break;
    }
    if (!/[A-Za-z]/.test(input[lt + 1] ?? '')) {
      out += input.slice(i, lt + 1);
      i = lt + 1;
      continue;
    }
    let j = lt + 1;
    while (j < n && !/[\t\n\f\r />]/.test(input[j]!)) j++;
    out += input.slice(i, j);
    while (j < n && input[j] !== '>') {
      if (SPACE.test(input[j]!) || input[j] === '/') {
        out += input[j++];
        continue;
      }
      let k = j + 1;
      while (k < n && !/[\t\n\f\r />=]/.test(input[k]!)) k++;
      const name = input.slice(j, k);
      out += name.toLowerCase() === 'is' ? name + '-' : name;
      j = k;
      let m = j;
      while (m < n && SPACE.test(input[m]!)) m++;
      if (input[m] === '=') {
        m++;
        while (m < n && SPACE.test(input[m]!)) m++;
        if (input[m] === '"' || input[m] === "'") {
          const close = input.indexOf(input[m]!, m + 1);
          m = close < 0 ? n : close + 1;
        } else {
          while (m < n && !/[\t\n\f\r >]/.test(input[m]!)) m++;
        }
        out += input.slice(j, m);
        j = m;
      }
    }
    i = j;
  }
  return out;
}

/** The first known deviation that explains this difference, or null. */
export async function matchKnownDeviation(c: DiffCase): Promise<KnownDeviation | null> {
  for (const d of KNOWN_DEVIATIONS) {
    try {
      if (await d.matches(c)) return d;
    } catch {
      // A predicate that throws recognizes nothing.
    }
  }
  return null;
}
