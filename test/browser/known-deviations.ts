/**
 * Cases where Chromium 156 departs from today's HTML standard. We follow the standard; the differential test lets a
 * difference through only when these known departures explain it exactly, and counts it.
 *
 * Recognition reproduces the departures instead of pattern-matching inputs: chromium-sim.ts parses the input with
 * our parser with every departure below reproduced where it happens (on the token that triggers it, in the parser
 * state it depends on), and for the few that cannot be reproduced on our side makes Chromium follow the standard by
 * editing its input at the exact span of the token involved. The difference is explained when the two trees (and
 * document modes) are then identical. All departures are on at once, so they compose; the match is attributed to
 * the departures it needed (each one that fired is switched off in turn, and kept when the trees then differ).
 */
import type { ContextSpec } from './chromium.js';
import * as S from './chromium-sim.js';

export interface ParseOutcome {
  dump: string;
  /** Document mode for documents, null for fragments. */
  mode: string | null;
}

export interface SimulatedOutcome extends ParseOutcome {
  sim?: { chromiumInput: string; chromiumRenames: [string, string][]; fired: string[] };
}

export interface DiffCase {
  kind: 'document' | 'fragment';
  input: string;
  context: ContextSpec | null;
  scripting: boolean;
  ours: ParseOutcome;
  chromium: ParseOutcome;
  /** Our parser with Chromium's departures reproduced (chromium-sim.ts), except the ids in `without`. */
  simulate(without: readonly string[]): Promise<SimulatedOutcome>;
  /** Parses another input with Chromium, with the same kind, context and scripting flag. */
  chromiumParse(input: string): Promise<ParseOutcome>;
}

export interface KnownDeviation {
  id: string;
  description: string;
  /** Where the deviation is documented, and the rule of the standard Chromium departs from. */
  reference: string;
  /** The html5lib/WPT tree-construction tests where Chromium shows it (checked by harness.test.ts). */
  html5lib: readonly { file: string; data: string }[];
}

export const KNOWN_DEVIATIONS: readonly KnownDeviation[] = [
  {
    id: S.HEAD_IN_HEAD_NOSCRIPT,
    description:
      'Scripting off, "in head noscript": the standard ignores a <head> start tag and stays in noscript; Chromium 156 ' +
      'takes "anything else" (pops the noscript, then ignores the head tag "in head"), so what follows (e.g. a ' +
      'comment) lands after the noscript element. Reproduced: such a head start tag is preceded by an end tag ' +
      'noscript.',
    reference: '/work/shared/wpt-parsing/SOURCE.md, "Known Chromium deviation" (noscript01.dat); spec: 13.2.6.4.5',
    html5lib: [{ file: 'noscript01.dat', data: '<head><noscript><head class="foo"><!--foo--></noscript>' }],
  },
  {
    id: S.IS_ATTRIBUTE,
    description:
      'A formatting element (a, b, big, code, em, font, i, nobr, s, small, strike, strong, tt, u) with an `is` ' +
      'attribute never enters Chromium\'s list of active formatting elements: it is not reconstructed (`<p><b is=x>' +
      '</p>y` leaves "y" bare), its end tag does not run the adoption agency, and it does not count for Noah\'s Ark. ' +
      'The standard gives `is` no role in tree construction. Reproduced: right after such an element is inserted, ' +
      'its entry is taken off the list.',
    reference: 'spec: 13.2.6.4.7 "in body", formatting start tags ("push onto the list of active formatting elements"); found by this differential test',
    html5lib: [],
  },
  {
    id: S.NUL_AFTER_LT,
    description:
      'Data state: a U+0000 right after "<" (tag open state, "anything else") is reconsumed in the data state, ' +
      'emitted as U+0000 and then ignored "in body"; Chromium 156 emits U+FFFD instead (its input preprocessor ' +
      'already replaced the NUL in the tag open state), so "a<\\0b" gives "a<\\uFFFDb". Reproduced: a U+0000 ' +
      'character token of the data state that directly follows "<" becomes U+FFFD.',
    reference: 'spec: 13.2.5.6 tag open state + 13.2.5.1 data state + "in body" U+0000; found by this differential test',
    html5lib: [],
  },
  {
    id: S.RCDATA_FRAGMENT_NUL,
    description:
      'Fragment parsing with a textarea or title context element (tokenizer in RCDATA, insertion mode "in body"): ' +
      'the standard turns U+0000 into U+FFFD in the RCDATA state; Chromium 156 passes it through there and "in body" ' +
      'drops it. A U+0000 read in another tokenizer state (right after "<", "</" or "</" and letters, which are then ' +
      'emitted as text) was already replaced by U+FFFD and stays. Documents (<textarea>\\0) are not affected. ' +
      'Reproduced: those U+0000s that the RCDATA state itself reads are deleted from our input.',
    reference: 'spec: 13.2.5.2 RCDATA state, U+0000; found by this differential test',
    html5lib: [],
  },
  {
    id: S.NUL_OUTSIDE_BODY,
    description:
      'A U+0000 in the data state is a character token; in HTML content "in body" ignores it, but elsewhere it is ' +
      '"anything else" ("initial", "before html", "before head", "in head", "in head noscript", "after head", "in ' +
      'column group", "after body", "after after body": it implies html/head/body, pops a colgroup, or switches back ' +
      'to "in body"), and right after <pre>, <listing> or <textarea> it is the next token, so a following newline is ' +
      'kept. Chromium 156\'s input preprocessor drops such U+0000s (outside foreign content) before tokenizing: ' +
      '"\\0<!--c-->" keeps the comment before <html>, "<pre>\\0\\n" drops the newline. Reproduced: U+0000 character ' +
      'tokens processed in HTML content are dropped.',
    reference: 'spec: 13.2.5.1 data state U+0000 + tree construction ("anything else" entries; "in body" pre/listing next-token rule); found by this differential test',
    html5lib: [],
  },
  {
    id: S.SEARCH_NOT_SPECIAL,
    description:
      'The standard lists `search` among the special elements (since the element was added, 2023); Chromium 156 ' +
      'treats it as ordinary, so `<em><search></em>y` closes both (the adoption agency finds no furthest block) where ' +
      'the standard moves the em into the search. Made to follow the standard: the search tags of Chromium\'s input ' +
      'are renamed to a special element with the same start and end tag rules that the input does not use (section, ' +
      'article, ...), and back in Chromium\'s dump.',
    reference: 'https://html.spec.whatwg.org/#special ; LadybirdBrowser/ladybird#2605 (adds search to the special list per the spec)',
    html5lib: [],
  },
  {
    id: S.TEMPLATE_HEAD_ROW,
    description:
      '"in template": base, basefont, bgsound, noframes and title start tags are processed using the rules for "in ' +
      'head" (the row shared with link, meta, script, style, template); Chromium 156 handles only link, meta, script, ' +
      'style and template there and takes "anything else" for the other five (the template insertion mode becomes ' +
      '"in body"), so a following colgroup/col/caption/tbody/tfoot/thead/tr is dropped. Reproduced: before such a ' +
      'start tag is processed "in template", the current template insertion mode becomes "in body".',
    reference: 'spec: 13.2.6.4.18 "in template", first start-tag row; found by this differential test',
    html5lib: [],
  },
  {
    id: S.FORM_IN_TABLE_IN_TEMPLATE,
    description:
      '"in table": a form start tag is ignored when a template element is on the stack of open elements (or the form ' +
      'element pointer is set); Chromium 156 inserts (and pops) the form inside templates. Made to follow the ' +
      'standard: each such form start tag (processed "in table", "in table body", "in row" or, via "anything ' +
      'else", "in column group") becomes an end tag caption in Chromium\'s input, which takes the same steps up to ' +
      '"in table" and is then ignored.',
    reference: 'spec: 13.2.6.4.9 "in table", start tag "form"; found by this differential test',
    html5lib: [],
  },
  {
    id: S.FORM_END_FALLS_THROUGH,
    description:
      '"in body", end tag form. With a template element on the stack the standard pops up to the form element when ' +
      'one is in scope; Chromium 156 runs "any other end tag" instead, which stops at the first special element ' +
      '(`<template><form><div></form>` leaves the form open). Without a template, after the form element pointer ' +
      'steps removed the pointed-to form, Chromium runs "any other end tag" for form as well, which can close an ' +
      'outer form the pointer no longer pointed to (`<form><table></form></table><form></form>/` puts "/" outside ' +
      'both; also when "after body" or "after after body" reprocesses the end tag in body, seed 2026114101). ' +
      'Reproduced: with a template, such an end tag is dropped when a special element comes before the form; ' +
      'without, "any other end tag" runs after it.',
    reference: 'spec: 13.2.6.4.7 "in body", end tag "form"; chromium html_tree_builder.cc (the form case falls through without CorrectTemplateFormParsing)',
    html5lib: [],
  },
  {
    id: S.FOREIGN_END_TAG_CASE,
    description:
      'Foreign content, "any other end tag": the standard walks down the stack comparing the token\'s (lowercase) name ' +
      'with each element\'s name converted to ASCII lowercase, and processes the token in HTML content (with that ' +
      'lowercase name) once it reaches an HTML element. Chromium 156 compares exactly, applying the SVG tag-name case ' +
      'adjustment to the token first only when the adjusted current node is an SVG element: so ' +
      '`<foreignobject><svg></foreignObject>` does not close the HTML foreignobject ("foreignObject" matches no HTML ' +
      'element), and `<svg><foreignObject><math></foreignObject>` does not close the SVG foreignObject (from MathML, ' +
      '"foreignobject" is not its name). Reproduced: Chromium\'s walk is run instead where the two differ.',
    reference: 'spec: 13.2.6.5 "any other end tag" in foreign content, steps 2-6; found by this differential test',
    html5lib: [],
  },
  {
    id: S.EVERY_SELECTEDCONTENT,
    description:
      'The standard keeps one selectedcontent per select up to date, its enabled selectedcontent (the first one not ' +
      'inside an option or selectedcontent): the selected option is cloned into it when popped, when it becomes ' +
      'selected on insertion, and when the selectedcontent is inserted. Chromium 156 (since 150) updates every ' +
      'enabled selectedcontent of the select, as proposed in whatwg/html#12263 (open, not in the standard). ' +
      'Reproduced: the tree builder\'s selectedcontent hooks keep a list per select and update all of it.',
    reference: 'https://github.com/whatwg/html/pull/12263 (open); "Clone into all descendant selectedcontent elements" (Chrome 150)',
    html5lib: [],
  },
  {
    id: S.CDATA_NUL,
    description:
      'A CDATA section (foreign content) emits U+0000 unchanged; at an HTML or MathML text integration point ' +
      '(foreignObject, desc, title, mi, annotation-xml text/html...) the character token is then processed "in body", ' +
      'which ignores it. Chromium 156 turns a U+0000 inside a CDATA section into U+FFFD. Reproduced: a U+0000 token ' +
      'of the CDATA section state becomes U+FFFD.',
    reference: 'spec: 13.2.5.69 CDATA section state + tree construction dispatcher + "in body" U+0000; found by this differential test',
    html5lib: [],
  },
  {
    id: S.FOREIGN_CONTEXT_END_TAG,
    description:
      'Fragment with an SVG/MathML context element, stack holding only the root html element: the adjusted current ' +
      'node is the context element, so an end tag (other than p and br) takes the foreign "any other end tag" rules, ' +
      'whose walk starts at the root (the topmost element) and returns: the end tag is ignored. Chromium 156 ' +
      'processes it in HTML content (e.g. </strike> removes a strike from the list of active formatting elements). ' +
      'Made to follow the standard: in Chromium\'s input those end tags become </x->, which HTML content ignores ' +
      'there (deleting them would join the text around them into other markup).',
    reference: 'spec: 13.2.6.5 "any other end tag", step "if node is the topmost element ... return"; found by this differential test',
    html5lib: [],
  },
  {
    id: S.FAST_PATH,
    description:
      'Chromium 156 first tries a fast-path parser (DOMParser documents, parsed into a body; innerHTML in common ' +
      'contexts) that handles only simple markup and hands anything else, as a whole, to its full parser. Where it ' +
      'succeeds it departs from the standard in three ways: "&#x;" (no hex digits) becomes U+FFFD in text and in quoted ' +
      'attribute values, where the standard keeps the four characters ("&#; &#x;" keeps both: "&#;" makes the fast ' +
      'path give up); in a quoted attribute value a named reference without ";" is decoded even when an ASCII ' +
      'alphanumeric or "=" follows it, where the standard keeps it as written "for historical reasons" ' +
      '(`<p r=\'&nott\'>;</p>` gives "¬t"; the fast path gives up unless it finds a ";" within about 20 characters of ' +
      'the "&", so `<p r=\'&nott\'></p>` keeps "&nott"; template contents and unquoted values keep it too); and in a ' +
      'document ' +
      'only the literal leading whitespace is stripped, so whitespace from character references at the start is kept ' +
      '("&#32;x" gives " x"; the standard ignores whitespace before the body). Whether the fast path took an input ' +
      'cannot be predicted here: the match is tried with these departures and without them. Reproduced: "&#x;" ' +
      'in data-state text and in quoted attribute values of start tags of our input becomes "&#xFFFD;"; a ";" is ' +
      'inserted after such a named reference in a quoted attribute value; such leading whitespace goes into an ' +
      'explicit body.',
    reference: 'spec: 13.2.5.76 hexadecimal character reference start state; 13.2.5.73 named character reference state (the historical attribute case); 13.2.6.4.1-3 whitespace before the body; chromium html_document_parser_fastpath.cc, Document::SetContentFromDOMParser; found by this differential test (seed 2026113103)',
    html5lib: [],
  },
  {
    id: S.CR_NEWLINE,
    description:
      'Chromium 156\'s tokenizer (full parser) drops an LF in tags after a CR in attribute whitespace: when the ' +
      'whitespace character that ends a tag name, an attribute name or an unquoted value (or follows a quoted value), ' +
      'or the "/" that enters the self-closing start tag state, is followed by a CR, the rest of the whitespace is ' +
      'skipped without the input preprocessor, which keeps its "skip the LF after a CR" flag past the next character; ' +
      'an LF right after that character is then dropped (after the name of an end tag, only when the tag closes ' +
      'nothing). So `<o\\r\\rl\\n">` gives one attribute `l"` (the ' +
      'standard: `l` and `"`), `<o\\r\\r>\\nx` gives "x", and `<e/\\rx\\n<>` one attribute `x<`. ' +
      'The same in a DOCTYPE, after the whitespace that ends the DOCTYPE state (before the name), follows the ' +
      'PUBLIC keyword, the public identifier or the SYSTEM keyword, and after the name where a ">" follows (a ' +
      'keyword there is read ahead without the preprocessor): `<!DOCTYPE \\rx\\ny>` is named "xy" (the ' +
      'standard: "x"), `<!DOCTYPE html PUBLIC \\r"\\nx">` has the public identifier "x". After the system ' +
      'identifier, and after the target of a processing instruction, when the whitespace that ends it is itself a ' +
      'CR: `<p><!DOCTYPE h SYSTEM "a"\\r>\\nx` has the text "x", `<?x\\ry\\nz?>` the data "yz". ' +
      'Reproduced: those LFs are deleted from our input (the fast path, which has no such bug, is tried without it).',
    reference: 'spec: 13.2.3.5 preprocessing the input stream (CR LF pairs only); chromium html_tokenizer.cc SkipWhitespacesHelper + input_stream_preprocessor.h AdvancePastCarriageReturn; the self-closing case found by this differential test (seed 2026113304), the DOCTYPE case too (seed 2026114801)',
    html5lib: [],
  },
  {
    id: S.IMPLIED_BODY_FRAMESET_OK,
    description:
      '"after head", anything else: the standard inserts a body element and reprocesses the token "in body", leaving ' +
      'the frameset-ok flag as it is; Chromium 156 sets it back to "ok" after inserting that body. It shows after a ' +
      'template in head (whose start tag set the flag to "not ok", in both): `<template></template><t><frameset>` ' +
      'ignores the frameset in the standard, Chromium replaces the body with it. Reproduced: before a token that ' +
      'takes "anything else" after head, the body is inserted and the flag set to "ok".',
    reference: 'spec: 13.2.6.4.6 "after head", anything else; found by this differential test',
    html5lib: [],
  },
  {
    id: S.AFTER_BODY_WHITESPACE,
    description:
      '"after body" / "after after body": a whitespace character token is processed using the rules for "in body", ' +
      'which reconstruct the active formatting elements first (`<p><font><hr></body> ` puts the space in a new ' +
      'font). Chromium 156 inserts the leading whitespace without reconstructing (older Chromium reprocessed it "in ' +
      'body"). Reproduced: that whitespace is inserted with a marker pushed on the list of active formatting elements.',
    reference: 'spec: 13.2.6.4.19 "after body" and 13.2.6.4.22 "after after body", whitespace rows; found by this differential test',
    html5lib: [],
  },
  {
    id: S.TABLE_TEXT_TEMPLATE,
    description:
      '"in table" (also reached from "in table body" and "in row"): character tokens go to "in table text" when the ' +
      'current node is table, tbody, template, tfoot, thead or tr, and whitespace-only text is then inserted as is. ' +
      'Chromium 156 leaves template out of that list, so with a template as current node (`<template><tr><font></tr> `) ' +
      'the text takes "anything else" and the active formatting elements are reconstructed first. Reproduced: such ' +
      'character tokens are processed by the "in body" rules.',
    reference: 'spec: 13.2.6.4.9 "in table", first row ("A character token, if the current node is table, tbody, template, ...")',
    html5lib: [],
  },
  {
    id: S.FFFD_FRAMESET_OK,
    description:
      '"in body", any other character token (and foreign content, any other character): the standard sets the ' +
      'frameset-ok flag to "not ok" for every character that is not whitespace (U+0000 aside), U+FFFD included; ' +
      'Chromium 156 leaves the flag alone for text of whitespace and U+FFFD only (it treats U+FFFD like a replaced ' +
      'U+0000), so `&#0;<frameset>` (or an out-of-range reference) still lets the frameset replace the body. ' +
      'Reproduced: the flag is set back to "ok" after such text.',
    reference: 'spec: 13.2.6.4.7 "in body", "any other character token"; 13.2.6.5 foreign content; found by this differential test',
    html5lib: [],
  },
  {
    id: S.COLGROUP_EOF_TABLE_TEXT,
    description:
      'Fragment with a colgroup context element (or a template one whose first template insertion mode a `<col>` ' +
      'made "in column group": `<col><template><table>x`), end of file while "in table text" (a table inside a template): the ' +
      'standard inserts the pending table character tokens (foster parented before the table). Chromium 156 inserts ' +
      'them as pending text but never flushes it: after popping the templates its end-of-file handling reaches "in ' +
      'column group" with only the root open and returns early, so the text is lost. Reproduced: the pending table ' +
      'text is dropped at end of file (the formatting elements it reconstructs first are still reconstructed).',
    reference: 'spec: 13.2.6.4.10 "in table text", anything else (end of file); found by this differential test (the template case by the Sanitizer API parity test, seed 2026113309)',
    html5lib: [],
  },
  {
    id: S.TABLE_TEXT_AFTER_OPTION_POP,
    description:
      '"in table text", a token other than a character: the pending table character tokens are inserted, then the ' +
      'token is reprocessed. Chromium 156 queues that text as pending text, inserted only after the token, so when ' +
      'the token pops an option (e.g. end of file, `<select><selectedcontent><option><table>;` in a template) the ' +
      'option is cloned into its selectedcontent without the text. At end of file the templates still open are popped ' +
      'first (an option inside them is cloned without the text), then the text goes in, then the rest is popped (an ' +
      'option outside them is cloned with it). Reproduced: with an option open, that text is inserted at the same ' +
      'place but after the token, or at end of file before an option popped once no template is open.',
    reference: 'spec: 13.2.6.4.10 "in table text", anything else; 4.10.10 option popped: clone into selectedcontent; found by this differential test',
    html5lib: [],
  },
  {
    id: S.COLUMN_GROUP_POPS_ANY,
    description:
      '"in column group", anything else (and end tag colgroup): the standard ignores the token when the current node ' +
      'is not a colgroup element, else pops it and reprocesses "in table". Chromium 156 only checks that the current ' +
      'node is not the root (nor a template), so in template contents, where "in template" switches to "in column ' +
      'group" for a col with another current node (e.g. a reconstructed b), it pops that node and reprocesses "in ' +
      'table". Reproduced: that pop and mode switch are done before the token.',
    reference: 'spec: 13.2.6.4.12 "in column group", anything else and end tag colgroup; found by this differential test',
    html5lib: [],
  },
  {
    id: S.MOVED_SELECTEDCONTENT_EMPTIED_FIRST,
    description:
      'A selectedcontent that a move enables (the adoption agency takes it out of an option) gets its select\'s ' +
      'selected option: "clone an option into a selectedcontent" clones the option\'s children into a fragment, then ' +
      'replaces the selectedcontent\'s children with it. When that option is inside the selectedcontent, the standard ' +
      'so copies its content before removing it. Chromium 156 empties the selectedcontent first: the option goes, the ' +
      'select selects again, and only the option selected then is cloned (`<b><option><p><select><selectedcontent>' +
      '<option>x</option></selectedcontent><option>y</option></select></b>`: "x" in the standard, "y" in Chromium; ' +
      'empty when no other option). Reproduced: in that update, the selectedcontent is emptied and the select ' +
      'reselects before the clone.',
    reference: 'spec: 4.10.x selectedcontent post-connection steps, "clone an option into a selectedcontent" steps 1-3; found by this differential test',
    html5lib: [],
  },
];

// Every reproduced departure is documented above, and every documented one is reproduced.
{
  const documented = KNOWN_DEVIATIONS.map((d) => d.id).sort().join();
  const simulated = [...S.SIMULATED].sort().join();
  if (documented !== simulated) throw new Error('known-deviations.ts and chromium-sim.ts list different deviations');
}

function applyRenames(dump: string, renames: readonly [string, string][]): string {
  for (const [standIn, original] of renames) {
    dump = dump.replace(new RegExp(`^(\\| +<(?:svg |math )?)${standIn}>`, 'gm'), `$1${original}>`);
  }
  return dump;
}

/**
 * The known deviations that explain this difference, as one id or `id+id`, or null. Our parser with the departures
 * reproduced must build exactly Chromium's tree (on Chromium's edited input, if any edit fired).
 */
export async function matchKnownDeviation(c: DiffCase): Promise<{ id: string } | null> {
  if (/^#(?:hang|crash|threw)/.test(c.ours.dump)) return null;
  const explains = async (without: readonly string[]): Promise<string[] | null> => {
    const s = await c.simulate(without);
    if (s.sim === undefined || s.sim.fired.length === 0) return null;
    const r = s.sim.chromiumInput === c.input ? c.chromium : await c.chromiumParse(s.sim.chromiumInput);
    return applyRenames(r.dump, s.sim.chromiumRenames) === s.dump && r.mode === s.mode ? s.sim.fired : null;
  };
  try {
    // The reproduction runs our parser: it explains nothing about another implementation (HTMLSIFT_DIFF_PARSER) or
    // a tree that parser did not build. With every departure off it must give the tree under test.
    const base = await c.simulate(S.SIMULATED);
    if (base.dump !== c.ours.dump || base.mode !== c.ours.mode) return null;
    // Chromium's fast-path parser takes an input or leaves it to the full parser as a whole, which cannot be
    // predicted here: the match is tried with the full parser's departures, then with the fast path's.
    // The full parser (its tokenizer's CR bug included) first, then the fast path.
    let off: string[] = [S.FAST_PATH];
    let fired = await explains(off);
    if (fired === null) {
      off = [S.CR_NEWLINE];
      fired = await explains(off);
    }
    if (fired === null) return null;
    // Attribution: the departures that fired but are not needed for the match are left out, one at a time.
    if (fired.length > 1) {
      for (const id of fired) {
        if ((await explains([...off, id])) !== null) off.push(id);
      }
    }
    const needed = fired.filter((id) => !off.includes(id));
    const order = KNOWN_DEVIATIONS.map((d) => d.id);
    needed.sort((a, b) => order.indexOf(a) - order.indexOf(b));
    return { id: needed.length > 0 ? needed.join('+') : fired.join('+') };
  } catch {
    // A reproduction that throws explains nothing.
    return null;
  }
}
