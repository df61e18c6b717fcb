/**
 * html5lib tree-construction tests (tree-construction/README.md format), with the `wpt-parsing/` files
 * superseding same-named html5lib files, and wpt-parsing/processing-instructions.dat added. The
 * `scripted/` tests need a script engine and are not run. `#errors` sections are not compared.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Document, type Element, type ParentNode, HTML_NS, MATHML_NS, SVG_NS } from '../src/dom.js';
import { parseDocument, parseFragment, type FragmentContext } from '../src/parser.js';
import { dumpTree } from './support/dump.js';
import { sharedPath } from './support/shared.js';

interface TreeTest {
  line: number;
  data: string;
  fragment: string | null;
  scripting: boolean | null;
  expected: string;
}

function parseDat(text: string): TreeTest[] {
  const tests: TreeTest[] = [];
  const chunks = ('\n' + text).split('\n#data\n');
  let line = 1;
  for (let c = 1; c < chunks.length; c++) {
    const chunk = chunks[c]!;
    const startLine = line;
    line += chunk.split('\n').length + 1; // the chunk's lines plus the next '#data' line
    const errorsAt = chunk.indexOf('\n#errors\n');
    const data = chunk.startsWith('#errors\n') ? '' : chunk.slice(0, errorsAt);
    const rest = chunk.startsWith('#errors\n') ? chunk : chunk.slice(errorsAt + 1);
    const docAt = rest.indexOf('#document\n');
    const header = rest.slice(0, docAt).split('\n');
    let fragment: string | null = null;
    let scripting: boolean | null = null;
    for (let i = 0; i < header.length; i++) {
      const h = header[i];
      if (h === '#document-fragment') fragment = header[i + 1]!;
      else if (h === '#script-off') scripting = false;
      else if (h === '#script-on') scripting = true;
    }
    const expected = rest.slice(docAt + '#document\n'.length).replace(/\n+$/, '');
    tests.push({ line: startLine, data, fragment, scripting, expected });
  }
  return tests;
}

function contextOf(spec: string): FragmentContext {
  if (spec.startsWith('svg ')) return { name: spec.slice(4), namespace: SVG_NS };
  if (spec.startsWith('math ')) return { name: spec.slice(5), namespace: MATHML_NS };
  return { name: spec, namespace: HTML_NS };
}

function run(t: TreeTest, scripting: boolean): string {
  if (t.fragment !== null) return dumpTree(parseFragment(t.data, { context: contextOf(t.fragment), scripting }));
  return dumpTree(parseDocument(t.data, { scripting }));
}

const html5lib = sharedPath('html5lib-tests/tree-construction', 'tree-construction');
const wpt = sharedPath('wpt-parsing', 'tree-construction');

function testFiles(): { name: string; path: string }[] {
  if (html5lib === null) return [];
  const files = new Map<string, string>();
  for (const f of readdirSync(html5lib)) if (f.endsWith('.dat')) files.set(f, join(html5lib, f));
  if (wpt !== null) for (const f of readdirSync(wpt)) if (f.endsWith('.dat')) files.set(f, join(wpt, f));
  return [...files.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([name, path]) => ({ name, path }));
}

const totals = { passed: 0, total: 0 };

describe.skipIf(html5lib === null)('tree construction (html5lib-tests + wpt-parsing)', () => {
  for (const { name, path } of testFiles()) {
    it(name, () => {
      const tests = parseDat(readFileSync(path, 'utf8'));
      expect(tests.length).toBeGreaterThan(0);
      const failures: string[] = [];
      let total = 0;
      for (const t of tests) {
        const modes = t.scripting === null ? [true, false] : [t.scripting];
        for (const scripting of modes) {
          total++;
          let actual: string;
          try {
            actual = run(t, scripting);
          } catch (e) {
            actual = 'THREW: ' + (e instanceof Error ? (e.stack ?? e.message) : String(e));
          }
          if (actual !== t.expected) {
            failures.push(
              `${name}:${t.line} (scripting ${scripting ? 'on' : 'off'}${t.fragment !== null ? ', fragment ' + t.fragment : ''})\n` +
                `input:\n${t.data}\nexpected:\n${t.expected}\nactual:\n${actual}`,
            );
          }
        }
      }
      totals.passed += total - failures.length;
      totals.total += total;
      if (failures.length > 0) {
        console.log(`${name}: ${total - failures.length}/${total} passed\n\n` + failures.slice(0, 5).join('\n\n'));
      }
      expect(failures.length, `${name}: ${failures.length} of ${total} failed`).toBe(0);
    });
  }

  it('reports the totals', () => {
    console.log(`tree construction: ${totals.passed}/${totals.total} passed`);
    expect(totals.total).toBeGreaterThan(0);
  });
});

/** The html5lib dump of a document's body. */
function body(input: string): string {
  return dumpTree(parseDocument(input).body!);
}

/** The html5lib dump of the content of the first template element of a document. */
function template(input: string): string {
  const stack: ParentNode[] = [parseDocument(input)];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.nodeType === 1 && (n as Element).localName === 'template') return dumpTree((n as Element).content!);
    for (let i = n.childNodes.length - 1; i >= 0; i--) stack.push(n.childNodes[i] as ParentNode);
  }
  throw new Error('no template in ' + input);
}

describe('parser API', () => {
  it('rejects invalid input and options with a TypeError naming the argument', () => {
    expect(() => parseDocument(42 as unknown as string)).toThrow(/input/);
    expect(() => parseDocument(null as unknown as string)).toThrow(TypeError);
    expect(() => parseFragment({} as unknown as string)).toThrow(/input/);
    expect(() => parseFragment('x', { context: '' })).toThrow(/context/);
    expect(() => parseFragment('x', { context: 'a b' })).toThrow(TypeError);
    expect(() => parseFragment('x', { context: { name: '' } })).toThrow(/context/);
    expect(() => parseFragment('x', { context: 7 as unknown as string })).toThrow(/context/);
    expect(() => parseFragment('x', { context: { name: 'div', namespace: 'urn:x' } })).toThrow(/namespace/);
    expect(() => parseDocument('x', { scripting: 'yes' as unknown as boolean })).toThrow(/scripting/);
    expect(() => parseDocument('x', { onError: 1 as unknown as () => void })).toThrow(/onError/);
    expect(() => parseDocument('x', { transportEncoding: 3 as unknown as string })).toThrow(/transportEncoding/);
    expect(() => parseDocument('x', 'opts' as never)).toThrow(/options/);
  });

  it('sets document.mode from the DOCTYPE', () => {
    expect(parseDocument('<!DOCTYPE html><p>').mode).toBe('no-quirks');
    expect(parseDocument('<p>').mode).toBe('quirks');
    expect(parseDocument('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">').mode).toBe('quirks');
    expect(parseDocument('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "">').mode).toBe('quirks');
    expect(
      parseDocument('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">')
        .mode,
    ).toBe('limited-quirks');
    expect(parseDocument('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN">').mode).toBe('no-quirks');
    expect(parseDocument('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN">').mode).toBe('limited-quirks');
    expect(parseDocument('<!DOCTYPE svg>').mode).toBe('quirks');
    // Quirks mode changes the tree: a table does not close an open p.
    expect(dumpTree(parseDocument('<p><table>').body!)).toBe('| <p>\n|   <table>');
    expect(dumpTree(parseDocument('<!DOCTYPE html><p><table>').body!)).toBe('| <p>\n| <table>');
  });

  it('reports tree-construction errors with kebab-case codes and positions', () => {
    const errors: { code: string; offset: number }[] = [];
    parseDocument('<p>x</b>', { onError: (e) => errors.push({ code: e.code, offset: e.offset }) });
    expect(errors.map((e) => e.code)).toContain('expected-doctype-but-got-start-tag');
    const endB = errors.find((e) => e.code === 'unexpected-end-tag');
    expect(endB?.offset).toBe(4);
  });

  it('drops only a newline that is the very next token after <pre>, <listing> and <textarea>', () => {
    expect(dumpTree(parseDocument('<pre>\n\nx').body!)).toBe('| <pre>\n|   "\nx"');
    expect(dumpTree(parseDocument('<pre><b>\nx').body!)).toBe('| <pre>\n|   <b>\n|     "\nx"');
    expect(dumpTree(parseDocument('<listing>\nx').body!)).toBe('| <listing>\n|   "x"');
    expect(dumpTree(parseDocument('<textarea>\nx</textarea>').body!)).toBe('| <textarea>\n|   "x"');
  });

  it('never clones into a selectedcontent inside an option (disabled), nor into a second one', () => {
    const doc = parseDocument('<select><option selected>a<selectedcontent>b</selectedcontent></option></select>');
    expect(dumpTree(doc.body!)).toBe(
      ['| <select>', '|   <option>', '|     selected=""', '|     "a"', '|     <selectedcontent>', '|       "b"'].join('\n'),
    );
    // The enabled selectedcontent is the first one not inside an option: it gets the selected option's children.
    expect(body('<select><option><selectedcontent></option><selectedcontent></selectedcontent><option>B')).toBe(
      [
        '| <select>',
        '|   <option>',
        '|     <selectedcontent>',
        '|   <selectedcontent>',
        '|     <selectedcontent>',
        '|   <option>',
        '|     "B"',
      ].join('\n'),
    );
    expect(body('<select><option><selectedcontent>')).toBe('| <select>\n|   <option>\n|     <selectedcontent>');
    // An option or selectedcontent ancestor above the select, or a second select, disables it too.
    expect(body('<option><select><selectedcontent><option>')).toBe(
      '| <option>\n|   <select>\n|     <selectedcontent>\n|       <option>',
    );
    expect(body('<selectedcontent><select><selectedcontent><option>')).toBe(
      '| <selectedcontent>\n|   <select>\n|     <selectedcontent>\n|       <option>',
    );
    // ...but only within the same tree: template contents start a new one.
    expect(template('<option><template><select><selectedcontent><option>x</option>')).toBe(
      '| <select>\n|   <selectedcontent>\n|     "x"',
    );
    expect(body('<select><applet><select><selectedcontent><option>')).toBe(
      '| <select>\n|   <applet>\n|     <select>\n|       <selectedcontent>\n|         <option>',
    );
  });

  it('clones the selected option when the adoption agency takes it off the stack, as when it is popped', () => {
    // `</b>`: the inner loop removes the option (not a formatting element) before p moves: the clone has "x" and p.
    expect(body('<select><selectedcontent></selectedcontent><b><option>x<p>y</b>')).toBe(
      [
        '| <select>',
        '|   <selectedcontent>',
        '|     "x"',
        '|     <p>',
        '|       "y"',
        '|   <b>',
        '|     <option>',
        '|       "x"',
        '|   <p>',
        '|     <b>',
        '|       "y"',
      ].join('\n'),
    );
    // Popping clones in template contents too (only the updates run on connection wait for a connected tree).
    expect(template('<template><select><selectedcontent><a><option><h5><a>')).toBe(
      ['| <select>', '|   <selectedcontent>', '|     <h5>', '|     <h5>', '|       <a>', '|       <a>'].join('\n'),
    );
  });

  it('tracks the selected option: first enabled one, else the last with `selected`; clones on insertion and pop', () => {
    // Popping the selected option replaces all children of selectedcontent, including an option inside it.
    expect(body('<select><selectedcontent><option>')).toBe('| <select>\n|   <selectedcontent>');
    expect(body('<select><selectedcontent>x</selectedcontent><option>B')).toBe(
      '| <select>\n|   <selectedcontent>\n|     "B"\n|   <option>\n|     "B"',
    );
    // A selectedcontent inserted after the selected option gets its clone at once; a later option is not selected.
    expect(body('<select><option>A</option><selectedcontent></selectedcontent><option>B')).toBe(
      '| <select>\n|   <option>\n|     "A"\n|   <selectedcontent>\n|     "A"\n|   <option>\n|     "B"',
    );
    // Disabled options (or in a disabled optgroup) are skipped; size > 1 selects nothing by default.
    expect(body('<select><selectedcontent></selectedcontent><option disabled>x<option>y')).toContain(
      '|   <selectedcontent>\n|     "y"',
    );
    expect(body('<select><selectedcontent></selectedcontent><optgroup disabled><option>x</optgroup><option>y')).toContain(
      '|   <selectedcontent>\n|     "y"',
    );
    expect(body('<select size=2><selectedcontent></selectedcontent><option>x<option selected>y<option>z')).toContain(
      '|   <selectedcontent>\n|     "y"',
    );
    expect(body('<select size=2><selectedcontent></selectedcontent><option>x')).toContain('|   <selectedcontent>\n|   <option>');
    // Connected trees only: an option that becomes selected when inserted empties selectedcontent at once (detaching
    // whatever was inside it, itself included), and a selectedcontent gets a clone of the selected option when
    // inserted. Neither happens in fragments or template contents, where only the pop step clones.
    expect(body('<select><selectedcontent><b>x<option>A</option>y')).toBe('| <select>\n|   <selectedcontent>');
    // The detached option is no longer selected: the next one is, and detaches itself the same way.
    expect(body('<select><selectedcontent><option><option>')).toBe('| <select>\n|   <selectedcontent>');
    expect(dumpTree(parseFragment('<select><selectedcontent><option>A', { context: 'body' }))).toBe(
      '| <select>\n|   <selectedcontent>\n|     "A"',
    );
    expect(dumpTree(parseFragment('<select><option>A</option><selectedcontent></selectedcontent><option>B', { context: 'body' }))).toBe(
      '| <select>\n|   <option>\n|     "A"\n|   <selectedcontent>\n|   <option>\n|     "B"',
    );
    // Disconnected: the pop step's clone detaches an option inside selectedcontent; the next option is selected.
    expect(template('<template><select><selectedcontent><option><option>')).toBe('| <select>\n|   <selectedcontent>');
    expect(dumpTree(parseFragment('<select><selectedcontent><option><option>x', { context: 'body' }))).toBe(
      '| <select>\n|   <selectedcontent>\n|     "x"',
    );
    expect(template('<template><select><option>g</option><selectedcontent>')).toBe(
      '| <select>\n|   <option>\n|     "g"\n|   <selectedcontent>',
    );
  });

  it('re-selects the first enabled option once the selected one detached itself into selectedcontent', () => {
    // B (selected) empties selectedcontent and detaches itself; the removal runs the selectedness setting algorithm,
    // which selects A again (without updating selectedcontent), so C is not selected and stays where it was inserted.
    expect(body('<select><option>A</option><selectedcontent><option selected>B</option><option>C</option></select>')).toBe(
      '| <select>\n|   <option>\n|     "A"\n|   <selectedcontent>\n|     <option>\n|       "C"',
    );
    // Disabled options are skipped; with none left, nothing is selected and the next option is.
    expect(body('<select><option disabled>A</option><selectedcontent><option selected>B</option><option>C')).toBe(
      '| <select>\n|   <option>\n|     disabled=""\n|     "A"\n|   <selectedcontent>',
    );
  });

  it('finds an inserted option\'s select afresh once the tree moved (the remembered ancestors of a run of options)', () => {
    // A is selected and cloned into selectedcontent, which empties it: the div holding A's span leaves the tree.
    // B, in the same span, below the same div, is then in no select (Chromium 156 gives the same tree), so C is
    // selected and cloned when popped. Had B reused what A's insertion found above the span, B would be selected.
    const html = '<select><button><selectedcontent><div><span><option>A</option><option selected>B</option></span></div></selectedcontent></button><option>C</option></select>';
    expect(body(html)).toBe(
      ['| <select>', '|   <button>', '|     <selectedcontent>', '|       "C"', '|   <option>', '|     "C"'].join('\n'),
    );
    // Options in a run under one parent or under sibling optgroups, deep in a select: the walk's limit is unchanged
    // (the select 512 ancestors up is found, 513 is not).
    const deep = (spans: number, optgroup: string) =>
      body('<select><button><selectedcontent></selectedcontent></button>' + '<span>'.repeat(spans) + optgroup + '<option>A</option><option selected>B</option></select>')
        .split('\n')
        .slice(0, 4)
        .join('\n');
    const selected = (text: string) => ['| <select>', '|   <button>', '|     <selectedcontent>', '|       "' + text + '"'].join('\n');
    expect(deep(511, '')).toBe(selected('B'));
    expect(deep(510, '<optgroup>')).toBe(selected('B'));
    expect(deep(512, '')).not.toContain('"B"');
    expect(deep(511, '<optgroup>')).not.toContain('"B"');
  });

  it('keeps the list of active formatting elements in list order for Noah\'s Ark after the adoption agency', () => {
    // The adoption agency replaces em, em, em by clones (innermost first); the fourth em then evicts the earliest
    // in list order, so the last </em> finds the third clone and the div lands in the second one.
    expect(body('<a><em><em><em><div><a><em></em></em>')).toBe(
      [
        '| <a>', '|   <em>', '|     <em>', '|       <em>', '| <em>', '|   <em>', '|     <em>', '|     <div>',
        '|       <em>', '|         <a>', '|         <a>', '|           <em>',
      ].join('\n'),
    );
  });

  it('updates a selectedcontent the adoption agency moves (connected trees only)', () => {
    // Moving runs its post-connection steps: a clone of the selected option, or empty when there is none.
    expect(body('<b><div><select><option>A</option><selectedcontent>x</select></b>')).toContain(
      '|       <selectedcontent>\n|         "A"',
    );
    expect(body('<b><div><select><selectedcontent>x</select></b>')).toMatch(/<selectedcontent>$/);
    expect(template('<template><b><div><select><selectedcontent>x</select></b>')).toContain('<selectedcontent>\n|         "x"');
    // Moved out of the option it was created in, a selectedcontent is enabled and gets the selected option's clone.
    expect(body('<select><strong><option>f<button><selectedcontent></strong>')).toContain(
      '|   <button>\n|     <strong>\n|       <selectedcontent>\n|         "f"',
    );
  });

  it('answers the CDATA question only after pending text reached the tree builder', () => {
    // "&" reconstructs the HTML font at the root of an SVG fragment: the adjusted current node is then HTML, so
    // "<![CDATA[" starts a bogus comment.
    const svgTitle = { name: 'title', namespace: SVG_NS };
    expect(dumpTree(parseFragment('<menu><font></menu>&<![CDATA[x', { context: svgTitle }))).toBe(
      '| <menu>\n|   <font>\n| <font>\n|   "&"\n|   <!-- [CDATA[x -->',
    );
    expect(dumpTree(parseFragment('x<![CDATA[y]]>', { context: { name: 'g', namespace: SVG_NS } }))).toBe('| "xy"');
  });

  it('treats search as special and dialog as ordinary (adoption agency furthest block)', () => {
    expect(body('<u><dialog></u>x')).toBe('| <u>\n|   <dialog>\n| "x"');
    expect(body('<em><search></em>x')).toBe('| <em>\n| <search>\n|   <em>\n|   "x"');
  });

  it('"in column group" without a colgroup: ignores each non-space character, keeps the whitespace after it', () => {
    expect(template('<template><col>;\t')).toBe('| <col>\n| "\t"');
    expect(template('<template><col>t&#10x y')).toBe('| <col>\n| "\n "');
    expect(dumpTree(parseFragment('a;\tb c<col> x', { context: 'colgroup' }))).toBe('| "\t "\n| <col>\n| " "');
  });

  it('follows the standard where Chromium 156 deviates (templates, forms, case-adjusted end tags, base)', () => {
    // "in table": a form start tag is ignored when a template is on the stack.
    expect(template('<template><colgroup><form>')).toBe('| <colgroup>');
    expect(template('<template><table><form>')).toBe('| <table>');
    // "in body" </form> with a template on the stack pops up to the form.
    expect(template('<template><form><div></form>x')).toBe('| <form>\n|   <div>\n| "x"');
    // Foreign "any other end tag" reaching an HTML element processes the lowercase name in body.
    expect(body('<foreignobject><svg></foreignObject>x')).toBe('| <foreignobject>\n|   <svg svg>\n| "x"');
    // "in template": base takes the "in head" row like link, so table parts still work.
    expect(template('<template><base><colgroup>')).toBe('| <base>\n| <colgroup>');
  });

  it('parses byte input through encoding sniffing', () => {
    const bytes = new TextEncoder().encode('<!DOCTYPE html><meta charset=utf-8><p>caf\u00e9');
    expect(parseDocument(bytes).body!.textContent).toBe('caf\u00e9');
    // Without a declaration the transport encoding decides.
    const plain = new TextEncoder().encode('<p>caf\u00e9');
    expect(parseDocument(plain, { transportEncoding: 'utf-8' }).body!.textContent).toBe('caf\u00e9');
  });
});

/** Depth of the deepest element below `root` (iterative). */
function depth(root: ParentNode): number {
  let max = 0;
  const stack: [ParentNode, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [n, d] = stack.pop()!;
    if (d > max) max = d;
    for (const c of n.childNodes) if (c.nodeType === 1) stack.push([c as ParentNode, d + 1]);
  }
  return max;
}

// Adversarial input must neither overflow the call stack nor go quadratic. Sizes are large enough that a
// quadratic algorithm would take minutes here (and time out), while a linear one takes well under a second.
describe('adversarial input stays linear and never throws', () => {
  const N = 100_000;
  const ids = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `<${tag} id=${i}>`).join('');
  const cases: [string, string, (doc: Document) => void][] = [
    ['100k nested divs', '<div>'.repeat(N), (d) => expect(depth(d.body!)).toBe(N)],
    ['100k unclosed identical <b>', '<b>'.repeat(N) + 'x', (d) => expect(d.body!.textContent).toBe('x')],
    ['100k distinct <b> then 100k </i>', ids('b', N) + '</i>'.repeat(N), (d) => expect(depth(d.body!)).toBe(N)],
    ['<a> storm', '<a>'.repeat(N), (d) => expect(d.body!.childNodes.length).toBe(N)],
    ['<a><div> storm through the adoption agency', '<a><div>'.repeat(N / 2), (d) => expect(depth(d.body!)).toBeGreaterThan(N / 2)],
    ['adoption agency with ordinary elements and a long list', ids('i', N / 2) + '<b><span><div></b>'.repeat(N / 2), () => {}],
    ['Noah\'s Ark with a long list', '<b><b><b>' + ids('b', N) + '<b>'.repeat(N), () => {}],
    ['100k fostered nodes', '<table>' + '<b>x'.repeat(N), (d) => expect(d.body!.textContent.length).toBe(N)],
    ['100k attributes', '<div ' + Array.from({ length: N }, (_, i) => `a${i}=1`).join(' ') + '>', (d) => expect((d.body!.firstChild as Element).attributes.length).toBe(N)],
    ['100k nested templates', '<template>'.repeat(N), () => {}],
    ['any other end tag under 100k spans', '<span>'.repeat(N) + '</x>'.repeat(N), (d) => expect(depth(d.body!)).toBe(N)],
    ['tables under 100k divs', '<div>'.repeat(N) + '<table></table>'.repeat(N / 10), () => {}],
    ['100k nested svg', '<svg>'.repeat(N) + '<p>', () => {}],
    ['options with selectedcontent', '<select><button><selectedcontent></button>' + '<option>x'.repeat(N), () => {}],
    ['deep options with selectedcontent', '<select><button><selectedcontent></button>' + '<div><option>x'.repeat(N), () => {}],
    ['many selectedcontents', '<select><button>' + '<selectedcontent>'.repeat(N) + '</button>' + '<option>x'.repeat(N), () => {}],
  ];
  for (const [name, input, check] of cases) {
    it(name, { timeout: 30_000 }, () => {
      const doc = parseDocument(input);
      check(doc);
      parseFragment(input, { context: 'td' });
    });
  }
});
