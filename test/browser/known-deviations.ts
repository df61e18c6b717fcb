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
      // Raw text content is skipped, unless it is not raw text (e.g. <style> inside <svg>).
      for (const skipRaw of [true, false]) {
        const renamed = renameIsAttributes(c.input, skipRaw);
        if (renamed === c.input) continue;
        const r = await c.chromiumParse(renamed);
        const dump = r.dump.replace(/^(\| +)is-="/gm, '$1is="');
        if (dump === c.ours.dump && r.mode === c.ours.mode) return true;
      }
      return false;
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
      // All of them, or (the others being where the standard keeps them as U+FFFD, e.g. in foreign content) one.
      return rewriteMatches(c, [byId('chromium-drops-nul-outside-body')]);
    },
  },
  {
    id: 'chromium-search-not-special',
    description:
      'The standard lists `search` among the special elements (since the element was added, 2023); Chromium 156 ' +
      'treats it as ordinary, so `<em><search></em>y` closes both (the adoption agency finds no furthest block) where ' +
      'the standard moves the em into the search. Recognized by renaming the search tags to section (special, same ' +
      'start/end tag rules) for Chromium only, and back in its dump.',
    reference: 'https://html.spec.whatwg.org/#special ; LadybirdBrowser/ladybird#2605 (adds search to the special list per the spec)',
    html5lib: [],
    async matches(c) {
      return rewriteMatches(c, [SEARCH_AS_SECTION]);
    },
  },
  {
    id: 'chromium-template-head-row-anything-else',
    description:
      '"in template": base, basefont, bgsound, noframes and title start tags are processed using the rules for "in ' +
      'head" (the row shared with link, meta, script, style, template); Chromium 156 handles only link, meta, script, ' +
      'style and template there and takes "anything else" for the other five (the template insertion mode becomes ' +
      '"in body"), so a following colgroup/col/caption/tbody/tfoot/thead/tr is dropped. Recognized by renaming those ' +
      'five, in OUR input only, to stand-ins that take "anything else" there and parse alike in body (wbr, keygen, ' +
      'embed, noembed, textarea), and back in our dump.',
    reference: 'spec: 13.2.6.4.18 "in template", first start-tag row; found by this differential test',
    html5lib: [],
    async matches(c) {
      return rewriteMatches(c, [TEMPLATE_HEAD_ROW_FOR_OURS]);
    },
  },
  {
    id: 'chromium-form-in-table-in-template',
    description:
      '"in table": a form start tag is ignored when a template element is on the stack of open elements (or the form ' +
      'element pointer is set); Chromium 156 inserts (and pops) the form inside templates. Recognized by deleting the ' +
      'form start tags from Chromium\'s input (all, or one at a time): the trees must then be identical.',
    reference: 'spec: 13.2.6.4.9 "in table", start tag "form"; found by this differential test',
    html5lib: [],
    async matches(c) {
      return rewriteMatches(c, [FORM_START_DROPPED_FOR_CHROMIUM]);
    },
  },
  {
    id: 'chromium-form-end-in-template',
    description:
      '"in body", end tag form with a template element on the stack: the standard pops up to the form element when ' +
      'one is in scope; Chromium 156 ignores the end tag. Recognized by deleting the </form> end tags from OUR input ' +
      '(all, or one at a time): the trees must then be identical.',
    reference: 'spec: 13.2.6.4.7 "in body", end tag "form", "if there is a template element on the stack" branch',
    html5lib: [],
    async matches(c) {
      return rewriteMatches(c, [FORM_END_DROPPED_FOR_OURS]);
    },
  },
  {
    id: 'chromium-foreign-end-tag-case-adjusted',
    description:
      'Foreign content, "any other end tag", when the walk reaches an HTML element the token is processed by the ' +
      'HTML insertion mode with its own (lowercase) tag name, so `<foreignobject><svg></foreignObject>` closes the ' +
      'HTML foreignobject element; Chromium 156 applies the SVG tag-name case adjustment (foreignObject) first, ' +
      'finds no match and ignores the end tag. Recognized by deleting such end tags (SVG case-adjusted names only) ' +
      'from OUR input (all, or one at a time).',
    reference: 'spec: 13.2.6.5 "any other end tag" in foreign content, steps 3-6; found by this differential test',
    html5lib: [],
    async matches(c) {
      return rewriteMatches(c, [SVG_CASED_END_DROPPED_FOR_OURS]);
    },
  },
  {
    id: 'chromium-clones-into-every-selectedcontent',
    description:
      'When a selected option is popped, the standard clones it into the select\'s enabled selectedcontent (the first ' +
      'one); Chromium 156 clones into every selectedcontent of the select that is not disabled, as proposed in ' +
      'whatwg/html#12263 (open, not in the standard). Recognized structurally: with the subtrees of all ' +
      'selectedcontent elements cut, both dumps must be identical, and each selectedcontent where they differ must hold, ' +
      'in Chromium\'s tree, exactly what one of our selectedcontent elements holds (the same clone, or the same ' +
      'emptying when an option that becomes selected is inserted).',
    reference: 'https://github.com/whatwg/html/pull/12263 (open); found by this differential test',
    html5lib: [],
    matches(c) {
      if ((c.input.match(/<selectedcontent/gi)?.length ?? 0) < 2) return false;
      const o = selectedContentSubtrees(c.ours.dump);
      const r = selectedContentSubtrees(c.chromium.dump);
      if (o.cut !== r.cut || o.subtrees.length !== r.subtrees.length || c.ours.mode !== c.chromium.mode) return false;
      // Where they differ, Chromium's selectedcontents all hold one same thing: what one of ours holds, or nothing.
      const ours = new Set(o.subtrees);
      let value: string | null = null;
      for (let i = 0; i < o.subtrees.length; i++) {
        if (o.subtrees[i] === r.subtrees[i]) continue;
        if (value !== null && r.subtrees[i] !== value) return false;
        value = r.subtrees[i]!;
      }
      return value !== null && (value === '' || ours.has(value));
    },
  },
  {
    id: 'chromium-cdata-nul-replaced',
    description:
      'A CDATA section (foreign content) emits U+0000 unchanged; at an HTML or MathML text integration point ' +
      '(foreignObject, desc, title, mi, annotation-xml text/html...) the character token is then processed "in body", ' +
      'which ignores it. Chromium 156 turns a U+0000 inside a CDATA section into U+FFFD. Recognized by making that ' +
      'replacement in OUR input: the trees must then be identical.',
    reference: 'spec: 13.2.5.69 CDATA section state + tree construction dispatcher + "in body" U+0000; found by this differential test',
    html5lib: [],
    async matches(c) {
      return rewriteMatches(c, [CDATA_NUL_FOR_OURS]);
    },
  },
  {
    id: 'chromium-foreign-context-end-tag-at-root',
    description:
      'Fragment with an SVG/MathML context element, stack holding only the root html element: the adjusted current ' +
      'node is the context element, so an end tag takes the foreign "any other end tag" rules, whose loop starts at ' +
      'the root (the topmost element) and returns: the end tag is ignored. Chromium 156 processes it in HTML (e.g. ' +
      '</strike> removes a strike from the list of active formatting elements, so it is not reconstructed). ' +
      'Recognized by deleting end tags from Chromium\'s input (all, or one at a time).',
    reference: 'spec: 13.2.6.5 "any other end tag", step "if node is the topmost element ... return"; found by this differential test',
    html5lib: [],
    async matches(c) {
      return rewriteMatches(c, [END_TAGS_DROPPED_FOR_CHROMIUM]);
    },
  },
  {
    id: 'chromium-empty-hex-reference-fffd',
    description:
      '"&#x;" (no hex digits): the standard reports absence-of-digits-in-numeric-character-reference and keeps the ' +
      'characters as text; Chromium 156 emits U+FFFD in some positions (e.g. "&#x;b" alone, but not in "&#; &#x;"). ' +
      'Recognized by replacing each "&#x;" with "&#xFFFD;" in OUR input: the trees must then be identical.',
    reference: 'spec: 13.2.5.76 hexadecimal character reference start state, anything else; found by this differential test',
    html5lib: [],
    async matches(c) {
      return rewriteMatches(c, [EMPTY_HEX_REF_FOR_OURS]);
    },
  },
  {
    id: 'chromium-template-keeps-frameset-ok',
    description:
      '"in head", template start tag: the standard sets the frameset-ok flag to "not ok", so a later frameset start ' +
      'tag "in body" is ignored; Chromium 156 leaves the flag alone and replaces the body with the frameset. ' +
      'Recognized by deleting the frameset start tags from Chromium\'s input (all, or one at a time).',
    reference: 'spec: 13.2.6.4.4 "in head", start tag "template", step "set the frameset-ok flag to not ok"; found by this differential test',
    html5lib: [],
    async matches(c) {
      return rewriteMatches(c, [FRAMESET_DROPPED_FOR_CHROMIUM]);
    },
  },
];

const HTML_NS = 'http://www.w3.org/1999/xhtml';

/**
 * Deletes the U+0000 characters outside markup, leaving tags and the content of raw text / RCDATA elements (up to
 * their end tag) alone.
 */
const NUL_OR_MARKUP =
  /(<(style|script|xmp|iframe|noembed|noframes|textarea|title|plaintext)(?=[\t\n\f\r />])[^>]*>[\s\S]*?(?:<\/\2|$))|(<[^>]*>?)|\u0000/gi;
function stripNulOutsideMarkup(input: string): string {
  return input.replace(NUL_OR_MARKUP, (_m, raw: string | undefined, _name, tag: string | undefined) => raw ?? tag ?? '');
}

/** Replaces U+0000 with U+FFFD inside CDATA sections (`<![CDATA[` up to `]]>` or the end). */
function nulInCdataToFffd(input: string): string {
  return input.replace(/<!\[CDATA\[[\s\S]*?(?:\]\]>|$)/g, (m) => m.replaceAll('\u0000', '\uFFFD'));
}

/**
 * Splits an html5lib dump into the dump with the subtree of every HTML selectedcontent element cut, and those
 * subtrees (re-indented relative to their selectedcontent element, in document order; nested ones belong to the
 * outer subtree).
 */
function selectedContentSubtrees(dump: string): { cut: string; subtrees: string[] } {
  const lines = dump.split('\n');
  const kept: string[] = [];
  const subtrees: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    kept.push(line);
    const m = /^\| ( *)<selectedcontent>$/.exec(line);
    if (m === null) continue;
    const depth = m[1]!.length;
    const sub: string[] = [];
    // The selectedcontent element's own attributes stay in the cut dump.
    while (i + 1 < lines.length && lines[i + 1]!.startsWith('| ' + ' '.repeat(depth + 2)) &&
      /^[^ <"]/.test(lines[i + 1]!.slice(depth + 4)) && lines[i + 1]!.slice(depth + 4) !== 'content') kept.push(lines[++i]!);
    while (i + 1 < lines.length) {
      const next = /^\| ( *)/.exec(lines[i + 1]!);
      if (next === null) {
        // The continuation of a multi-line text node inside the subtree.
        sub.push(lines[++i]!);
        continue;
      }
      if (next[1]!.length <= depth) break;
      sub.push(lines[++i]!.slice(depth + 2));
    }
    subtrees.push(sub.join('\n'));
  }
  return { cut: kept.join('\n'), subtrees };
}

const FORMATTING_START = /<(?:a|b|big|code|em|font|i|nobr|s|small|strike|strong|tt|u)[\t\n\f\r />]/i;
const SPACE = /[\t\n\f\r ]/;

/**
 * Appends '-' to every attribute named `is` (any case) in start-tag-like markup, following the tokenizer's
 * attribute syntax closely enough (quoted values may contain '>'). The content of raw text and RCDATA elements
 * (HTML names; noscript is left alone) is skipped up to the matching end tag.
 */
function renameIsAttributes(input: string, skipRaw = true): string {
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
      // Comments, bogus comments, processing instructions and end tags are copied as is.
      const next = input[lt + 1];
      let end = lt + 1;
      if (input.startsWith('<!--', lt)) {
        const a = input.indexOf('-->', lt + 4);
        const b = input.indexOf('--!>', lt + 4);
        end = input.startsWith('<!-->', lt) ? lt + 5 : input.startsWith('<!--->', lt) ? lt + 6
          : a < 0 && b < 0 ? n : b < 0 || (a >= 0 && a < b) ? a + 3 : b + 4;
      } else if (!skipRaw && input.startsWith('<![CDATA[', lt)) {
        // Foreign content: a CDATA section runs to "]]>".
        const close = input.indexOf(']]>', lt + 9);
        end = close < 0 ? n : close + 3;
      } else if (next === '!' || next === '?' || next === '/') {
        const close = input.indexOf('>', lt + 2);
        end = close < 0 ? n : close + 1;
      }
      out += input.slice(i, end);
      i = end;
      continue;
    }
    let j = lt + 1;
    while (j < n && !/[\t\n\f\r />]/.test(input[j]!)) j++;
    const tagName = input.slice(lt + 1, j).toLowerCase();
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
    // Raw text and RCDATA content is copied as is, up to the matching end tag.
    if (skipRaw && RAW_TEXT_ELEMENTS.has(tagName) && j < n) {
      const close = input.toLowerCase().indexOf('</' + tagName, j);
      const end = close < 0 ? n : close;
      out += input.slice(j, end);
      i = end;
    }
  }
  return out;
}

const RAW_TEXT_ELEMENTS = new Set(['style', 'script', 'xmp', 'iframe', 'noembed', 'noframes', 'textarea', 'title', 'plaintext']);

// ---------------------------------------------------------------------------------------------------------------
// Rewrites: one deviation each, applied to one side's input. Each is applicable only when its own trigger is in the
// input; `all` rewrites every occurrence, `each` lists the single-occurrence variants (at most 8).

interface Rewrite {
  id: string;
  side: 'ours' | 'chromium';
  applicable(c: DiffCase): boolean;
  all(input: string): string;
  each?(input: string): string[];
  /** Chromium side: maps the rewritten names back in Chromium's dump. */
  undump?(dump: string, input: string): string;
  /** Ours side: maps the rewritten names back in our dump. */
  oursUndump?(dump: string): string;
}

/** `re.test(s)` for a global regular expression, without leaving state behind in `lastIndex`. */
function has(re: RegExp, s: string): boolean {
  re.lastIndex = 0;
  const r = re.test(s);
  re.lastIndex = 0;
  return r;
}

function occurrences(input: string, re: RegExp, replace: (m: string) => string): string[] {
  const out: string[] = [];
  for (const m of input.matchAll(re)) {
    out.push(input.slice(0, m.index) + replace(m[0]) + input.slice(m.index + m[0].length));
    if (out.length >= 8) break;
  }
  return out;
}

/**
 * Renames tags `from` for Chromium to the first of `candidates` that appears nowhere in the input, and back in its
 * dump.
 */
function renameForChromium(id: string, from: string, candidates: readonly string[], extra: (c: DiffCase) => boolean): Rewrite {
  const tag = new RegExp(`(</?)${from}(?=[\\t\\n\\f\\r />])`, 'gi');
  const pick = (input: string): string | undefined => {
    const lower = input.toLowerCase();
    return candidates.find((k) => !lower.includes(k));
  };
  return {
    id,
    side: 'chromium',
    applicable: (c) => has(tag, c.input) && pick(c.input) !== undefined && extra(c),
    all: (input) => input.replace(tag, `$1${pick(input)!}`),
    undump: (dump, input) => dump.replace(new RegExp(`^(\\| +<(?:svg |math )?)${pick(input)!}>`, 'gm'), `$1${from}>`),
  };
}

const SEARCH_AS_SECTION = renameForChromium('chromium-search-not-special', 'search', ['section', 'article', 'aside', 'nav', 'address'], () => true);
const HEAD_ROW_STAND_INS: Record<string, string> = {
  base: 'wbr',
  basefont: 'keygen',
  bgsound: 'embed',
  noframes: 'noembed',
  title: 'textarea',
};
const HEAD_ROW_TAG = /(<\/?)(base|basefont|bgsound|noframes|title)(?=[\t\n\f\r />])/gi;
const HEAD_ROW_BACK = /^(\| +<)(wbr|keygen|embed|noembed|textarea)>/gm;
const STAND_IN_NAMES = /wbr|keygen|embed|textarea/i;
const TEMPLATE_HEAD_ROW_FOR_OURS: Rewrite = {
  id: 'chromium-template-head-row-anything-else',
  side: 'ours',
  applicable: (c) => /<template/i.test(c.input) && has(HEAD_ROW_TAG, c.input) && !STAND_IN_NAMES.test(c.input),
  // textarea drops a newline right after its start tag, where title keeps it: one is added after each title start tag.
  all: (input) =>
    input
      .replace(HEAD_ROW_TAG, (_m, lt: string, name: string) => lt + HEAD_ROW_STAND_INS[name.toLowerCase()]!)
      .replace(/<textarea(?=[\t\n\f\r />])(?:[^>"']|"[^"]*"|'[^']*')*>/gi, '$&\n'),
  each: (input) =>
    occurrences(input, HEAD_ROW_TAG, (m) => {
      const lt = m.startsWith('</') ? '</' : '<';
      return lt + HEAD_ROW_STAND_INS[m.slice(lt.length).toLowerCase()]!;
    }).map((v) => v.replace(/<textarea(?=[\t\n\f\r />])(?:[^>"']|"[^"]*"|'[^']*')*>/gi, '$&\n')),
  oursUndump: (dump) =>
    dump.replace(HEAD_ROW_BACK, (_m, pre: string, name: string) =>
      pre + Object.keys(HEAD_ROW_STAND_INS).find((k) => HEAD_ROW_STAND_INS[k] === name)! + '>',
    ),
};

const FORM_START = /<form(?=[\t\n\f\r />])(?:[^>"']|"[^"]*"|'[^']*')*>?/gi;
const FORM_START_DROPPED_FOR_CHROMIUM: Rewrite = {
  id: 'chromium-form-in-table-in-template',
  side: 'chromium',
  applicable: (c) => /<template/i.test(c.input) && has(FORM_START, c.input) && /<(?:table|col|tbody|thead|tfoot|tr|td|th|caption)/i.test(c.input),
  all: (input) => input.replace(FORM_START, ''),
  // One at a time, and all without the quote handling (a quote in an attribute name is no quote).
  each: (input) => [...occurrences(input, FORM_START, () => ''), input.replace(/<form(?=[\t\n\f\r />])[^>]*>?/gi, '')],
};

const FORM_END = /<\/form(?=[\t\n\f\r />])(?:[^>"']|"[^"]*"|'[^']*')*>?/gi;
const FORM_END_DROPPED_FOR_OURS: Rewrite = {
  id: 'chromium-form-end-in-template',
  side: 'ours',
  applicable: (c) => /<template/i.test(c.input) && has(FORM_END, c.input),
  all: (input) => input.replace(FORM_END, ''),
  each: (input) => occurrences(input, FORM_END, () => ''),
};

const SVG_CASED_NAMES =
  'altglyph|altglyphdef|altglyphitem|animatecolor|animatemotion|animatetransform|clippath|feblend|fecolormatrix|' +
  'fecomponenttransfer|fecomposite|feconvolvematrix|fediffuselighting|fedisplacementmap|fedistantlight|' +
  'fedropshadow|feflood|fefunca|fefuncb|fefuncg|fefuncr|fegaussianblur|feimage|femerge|femergenode|femorphology|' +
  'feoffset|fepointlight|fespecularlighting|fespotlight|fetile|feturbulence|foreignobject|glyphref|lineargradient|' +
  'radialgradient|textpath';
const SVG_CASED_END = new RegExp(`</(?:${SVG_CASED_NAMES})(?=[\\t\\n\\f\\r />])[^>]*>?`, 'gi');
const SVG_CASED_END_DROPPED_FOR_OURS: Rewrite = {
  id: 'chromium-foreign-end-tag-case-adjusted',
  side: 'ours',
  applicable: (c) => has(SVG_CASED_END, c.input) && (/<(?:svg|math)/i.test(c.input) || (c.context?.namespace ?? HTML_NS) !== HTML_NS),
  all: (input) => input.replace(SVG_CASED_END, ''),
  each: (input) => occurrences(input, SVG_CASED_END, () => ''),
};

const CDATA_NUL_FOR_OURS: Rewrite = {
  id: 'chromium-cdata-nul-replaced',
  side: 'ours',
  applicable: (c) => /<!\[CDATA\[[^]*\u0000/.test(c.input),
  all: nulInCdataToFffd,
};

const END_TAG = /<\/[A-Za-z][^\t\n\f\r />]*(?:[^>"']|"[^"]*"|'[^']*')*>?/g;
const END_TAGS_DROPPED_FOR_CHROMIUM: Rewrite = {
  id: 'chromium-foreign-context-end-tag-at-root',
  side: 'chromium',
  applicable: (c) => c.kind === 'fragment' && c.context !== null && (c.context.namespace ?? HTML_NS) !== HTML_NS && has(END_TAG, c.input),
  all: (input) => input.replace(END_TAG, ''),
  each: (input) => occurrences(input, END_TAG, () => ''),
};

const EMPTY_HEX_REF = /&#[xX];/g;
const EMPTY_HEX_REF_FOR_OURS: Rewrite = {
  id: 'chromium-empty-hex-reference-fffd',
  side: 'ours',
  applicable: (c) => has(EMPTY_HEX_REF, c.input),
  all: (input) => input.replace(EMPTY_HEX_REF, '&#xFFFD;'),
  each: (input) => occurrences(input, EMPTY_HEX_REF, () => '&#xFFFD;'),
};

const FRAMESET_START = /<frameset(?=[\t\n\f\r />])[^>]*>?/gi;
const FRAMESET_DROPPED_FOR_CHROMIUM: Rewrite = {
  id: 'chromium-template-keeps-frameset-ok',
  side: 'chromium',
  applicable: (c) => c.kind === 'document' && /<template/i.test(c.input) && has(FRAMESET_START, c.input),
  all: (input) => input.replace(FRAMESET_START, ''),
  each: (input) => occurrences(input, FRAMESET_START, () => ''),
};

/** The rewrites of the deviations that reproduce them by rewriting the input (used alone or composed). */
const COMPOSABLE: readonly Rewrite[] = [
  {
    id: 'chromium-nul-after-less-than',
    side: 'ours',
    applicable: (c) => c.input.includes('<\u0000'),
    all: (input) => input.replaceAll('<\u0000', '<\uFFFD'),
  },
  {
    id: 'chromium-rcdata-fragment-drops-nul',
    side: 'ours',
    applicable: (c) =>
      c.kind === 'fragment' && c.context !== null && c.input.includes('\u0000') &&
      (c.context.namespace ?? HTML_NS) === HTML_NS && (c.context.name === 'textarea' || c.context.name === 'title'),
    all: (input) => input.replaceAll('\u0000', ''),
  },
  {
    id: 'chromium-drops-nul-outside-body',
    side: 'ours',
    applicable: (c) => c.input.includes('\u0000') && !c.ours.dump.includes('\u0000'),
    all: stripNulOutsideMarkup,
    each: (input) => {
      const out: string[] = [];
      for (const m of input.matchAll(NUL_OR_MARKUP)) {
        if (m[0] !== '\u0000') continue;
        out.push(input.slice(0, m.index) + input.slice(m.index + 1));
        if (out.length >= 8) break;
      }
      return out;
    },
  },
  {
    id: 'chromium-is-attribute-formatting-element',
    side: 'chromium',
    applicable: (c) => FORMATTING_START.test(c.input) && renameIsAttributes(c.input) !== c.input,
    all: (input) => renameIsAttributes(input),
    undump: (dump) => dump.replace(/^(\| +)is-="/gm, '$1is="'),
  },
  SEARCH_AS_SECTION,
  TEMPLATE_HEAD_ROW_FOR_OURS,
  FORM_START_DROPPED_FOR_CHROMIUM,
  FORM_END_DROPPED_FOR_OURS,
  SVG_CASED_END_DROPPED_FOR_OURS,
  CDATA_NUL_FOR_OURS,
  END_TAGS_DROPPED_FOR_CHROMIUM,
  EMPTY_HEX_REF_FOR_OURS,
  FRAMESET_DROPPED_FOR_CHROMIUM,
];

function byId(id: string): Rewrite {
  return COMPOSABLE.find((r) => r.id === id)!;
}

/**
 * Whether applying `rewrites` (each to its side of the comparison) makes the trees identical. With one rewrite
 * that has single-occurrence variants, each variant is tried too.
 */
async function rewriteMatches(c: DiffCase, rewrites: readonly Rewrite[]): Promise<boolean> {
  const usable = rewrites.filter((r) => r.applicable(c));
  if (usable.length !== rewrites.length || usable.length === 0) return false;
  const oursUndumps = usable.flatMap((r) => (r.oursUndump ? [r.oursUndump] : []));
  const compare = async (oursInput: string, chromiumInput: string, undump: (d: string) => string): Promise<boolean> => {
    const o = oursInput === c.input ? c.ours : await c.reparse(oursInput);
    const r = chromiumInput === c.input ? c.chromium : await c.chromiumParse(chromiumInput);
    const oursDump = oursUndumps.reduce((d, u) => u(d), o.dump);
    return oursDump === undump(r.dump) && o.mode === r.mode;
  };
  let ours = c.input;
  let chromium = c.input;
  let undump = (d: string): string => d;
  for (const r of usable) {
    if (r.side === 'ours') ours = r.all(ours);
    else chromium = r.all(chromium);
    if (r.undump) {
      const prev = undump;
      const u = r.undump;
      undump = (d) => u(prev(d), c.input);
    }
  }
  if (ours === c.input && chromium === c.input) return false;
  if (await compare(ours, chromium, undump)) return true;
  if (usable.length === 1 && usable[0]!.each) {
    const r = usable[0]!;
    const variants = r.each!(c.input);
    if (variants.length > 1) {
      for (const v of variants) {
        if (r.side === 'ours' ? await compare(v, c.input, undump) : await compare(c.input, v, undump)) return true;
      }
    }
  }
  return false;
}

/**
 * The first known deviation that explains this difference, or null. When no single one does, the rewrites of all
 * applicable deviations are composed (each still triggered by its own markup), reported as `id+id`.
 */
export async function matchKnownDeviation(c: DiffCase): Promise<KnownDeviation | null> {
  for (const d of KNOWN_DEVIATIONS) {
    try {
      if (await d.matches(c)) return d;
    } catch {
      // A predicate that throws recognizes nothing.
    }
  }
  try {
    const usable = COMPOSABLE.filter((r) => r.applicable(c));
    // All applicable rewrites together, then (a trigger can be a false positive, e.g. a tag name inside an
    // attribute) each set with one left out.
    const sets = [usable];
    if (usable.length >= 3) for (let k = 0; k < usable.length; k++) sets.push(usable.filter((_r, i) => i !== k));
    for (const set of usable.length >= 2 ? sets : []) {
      if (await rewriteMatches(c, set)) {
        const ids = set.map((r) => r.id);
        return { id: ids.join('+'), description: 'composition of ' + ids.join(', '), reference: '', html5lib: [], matches: () => true };
      }
    }
  } catch {
    // Recognizes nothing.
  }
  return null;
}
