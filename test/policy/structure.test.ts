/** Pipeline step 2: element rules, attribute rules, toStyle, hooks (run alone, without the Sanitizer API step). */
import { describe, expect, test } from 'vitest';
import { Attr, HTML_NS, SVG_NS, XLINK_NS, type Element } from '../../src/dom.js';
import { parseFragment } from '../../src/parser.js';
import {
  PolicyHookError,
  STYLE_TRANSFORM_PROPERTIES,
  applyPolicyStructure,
  compilePolicy,
  styleValueFor,
  type Policy,
  type StyleTransformProperty,
} from '../../src/policy/index.js';
import { legacyColor } from '../../src/policy/style-transforms.js';
import { serialize } from '../../src/serializer.js';
import { parentLinksConsistent, preorder, stage, structure } from './helpers.js';

/** `<p a0="0" a1="1" … a(n-1)="n-1">x</p>`. */
function paragraphWithAttributes(n: number): string {
  return '<p' + Array.from({ length: n }, (_, i) => ` a${i}="${i}"`).join('') + '>x</p>';
}

describe('element rules', () => {
  test('rename keeps attributes, children and the namespace', () => {
    expect(structure('<b class="x" title="t">bold <i>it</i></b>', { elements: { b: { rename: 'strong' } } })).toBe(
      '<strong class="x" title="t">bold <i>it</i></strong>',
    );
    const f = parseFragment('<svg><rect width="1"/></svg>');
    applyPolicyStructure(f, compilePolicy({ elements: { 'svg:rect': { rename: 'circle' } } }));
    const el = preorder(f)[1]!;
    expect([el.localName, el.namespaceURI, el.getAttribute('width')]).toEqual(['circle', SVG_NS, '1']);
  });

  test('a rename applies once: the new name is not looked up again', () => {
    // strong has no structural rule; b's rename does not chain into anything else.
    expect(structure('<b>x</b><strong>y</strong>', { elements: { b: { rename: 'strong' }, strong: { force: { title: 't' } } } })).toBe(
      '<strong>x</strong><strong>y</strong>',
    );
  });

  test('rules are per namespace', () => {
    // An HTML rule for "a" leaves the SVG a alone, and the other way round.
    expect(structure('<a>h</a><svg><a>s</a></svg>', { elements: { a: { unwrap: true } } })).toBe('h<svg><a>s</a></svg>');
    expect(structure('<a>h</a><svg><a>s</a></svg>', { elements: { 'svg:a': { unwrap: true } } })).toBe('<a>h</a><svg>s</svg>');
    expect(structure('<math><mi>x</mi><mo>+</mo></math>', { elements: { 'math:mo': { drop: true } } })).toBe('<math><mi>x</mi></math>');
  });

  test('drop removes the content, unwrap keeps it', () => {
    expect(structure('a<span>b<i>c</i></span>d', { elements: { span: { drop: true } } })).toBe('ad');
    expect(structure('a<span>b<i>c</i></span>d', { elements: { span: { unwrap: true } } })).toBe('ab<i>c</i>d');
  });

  test('children of an unwrapped element are judged in the parent they end up in', () => {
    const policy: Policy = { elements: { span: { unwrap: true }, b: { rename: 'strong' }, i: { drop: true } } };
    expect(structure('<p><span><span><b>1</b><i>2</i></span>3</span></p>', policy)).toBe('<p><strong>1</strong>3</p>');
  });

  test('unwrapping a template reads its contents', () => {
    expect(structure('<template><b>x</b></template>y', { elements: { template: { unwrap: true }, b: { rename: 'em' } } })).toBe(
      '<em>x</em>y',
    );
  });

  test('rules reach template contents', () => {
    expect(structure('<template><b>x</b></template>', { elements: { b: { rename: 'strong' } } })).toBe(
      '<template><strong>x</strong></template>',
    );
  });

  test('report entries for element rules', () => {
    const { report } = stage('structure', '<div><p>x</p><p><b>y</b><span>z</span></p></div>', {
      elements: { b: { rename: 'strong' }, span: { drop: true } },
    });
    expect(report).toEqual([
      { stage: 'policy', action: 'rename-element', rule: 'elements["b"].rename', element: 'b', path: 'div > p:nth-child(2) > strong', from: 'b', to: 'strong' },
      { stage: 'policy', action: 'drop-element', rule: 'elements["span"].drop', element: 'span', path: 'div > p:nth-child(2) > span:nth-child(2)' },
    ]);
  });
});

describe('attribute rules', () => {
  test('drop and rename, global and per element; the per-element rule wins', () => {
    const policy: Policy = {
      attributes: { title: { drop: true }, 'data-x': { rename: 'data-y' } },
      elements: { abbr: { attributes: { title: { rename: 'data-title' } } } },
    };
    expect(structure('<p title="a" data-x="1">x</p><abbr title="b">y</abbr>', policy)).toBe(
      '<p data-y="1">x</p><abbr data-title="b">y</abbr>',
    );
  });

  test('a rename onto an attribute the element already has keeps the existing one', () => {
    const { html, report } = stage('structure', '<p data-x="old" data-y="kept">x</p>', { attributes: { 'data-x': { rename: 'data-y' } } });
    expect(html).toBe('<p data-y="kept">x</p>');
    expect(report[0]).toMatchObject({ action: 'drop-attribute', attribute: 'data-x', reason: 'the element already has the target attribute' });
  });

  test('namespaced attributes: xlink:href and xml:lang are matched as the namespaced attributes they are', () => {
    const f = parseFragment('<svg><a xlink:href="#a" xml:lang="en">t</a></svg><p xlink:href="#p">x</p>');
    applyPolicyStructure(f, compilePolicy({ attributes: { 'xlink:href': { rename: 'href' }, 'xml:lang': { rename: 'lang' } } }));
    const [, a, p] = preorder(f) as [Element, Element, Element];
    expect(a.attributes.map((x) => [x.namespaceURI, x.name, x.value])).toEqual([
      [null, 'href', '#a'],
      [null, 'lang', 'en'],
    ]);
    // On an HTML element "xlink:href" is a plain attribute whose local name contains a colon: untouched.
    expect(p.attributes.map((x) => [x.namespaceURI, x.name])).toEqual([[null, 'xlink:href']]);
    // And the other way: a rename into a namespace.
    const g = parseFragment('<svg><a href="#b">t</a></svg>');
    applyPolicyStructure(g, compilePolicy({ elements: { 'svg:a': { attributes: { href: { rename: 'xlink:href' } } } } }));
    const attr = preorder(g)[1]!.attributes[0]!;
    expect([attr.namespaceURI, attr.prefix, attr.localName]).toEqual([XLINK_NS, 'xlink', 'href']);
  });

  test('value rules: oneOf, ignoreCase, pattern, maxLength', () => {
    const policy: Policy = {
      attributes: {
        dir: { value: { oneOf: ['ltr', 'rtl', 'auto'], ignoreCase: true } },
        lang: { value: { pattern: '[a-z]{2,3}(-[A-Za-z0-9]+)*' } },
        title: { value: { maxLength: 5 } },
        'data-k': { value: { oneOf: ['A'] } },
      },
    };
    expect(structure('<p dir="RTL" lang="en-GB" title="short" data-k="A">x</p>', policy)).toBe(
      '<p dir="RTL" lang="en-GB" title="short" data-k="A">x</p>',
    );
    expect(structure('<p dir="up" lang="en GB" title="toolong" data-k="a">x</p>', policy)).toBe('<p>x</p>');
    // The pattern is anchored: a match inside the value is not enough.
    expect(structure('<p lang="xx en">x</p>', policy)).toBe('<p>x</p>');
  });

  test('toStyle moves a valid value into style, before the element\'s own declarations', () => {
    // (A sanitizer that keeps style: toStyle with one that never does is refused.)
    const policy: Policy = { sanitizer: {}, attributes: { align: { toStyle: 'text-align' }, bgcolor: { toStyle: 'background-color' } } };
    expect(structure('<p align="Center" style="color:red">x</p>', policy)).toBe('<p style="text-align:center;color:red">x</p>');
    expect(structure('<div bgcolor="ffcc00" align="left">x</div>', policy)).toBe(
      '<div style="background-color:#ffcc00;text-align:left">x</div>',
    );
  });

  test('toStyle drops a value that fails the strict check', () => {
    const { html, report } = stage('structure', '<p align="center;position:fixed" bgcolor="red)">x</p>', {
      sanitizer: {},
      attributes: { align: { toStyle: 'text-align' }, bgcolor: { toStyle: 'background-color' } },
    });
    expect(html).toBe('<p>x</p>');
    expect(report.map((r) => [r.attribute, r.reason])).toEqual([
      ['align', 'not a valid text-align value'],
      ['bgcolor', 'not a valid background-color value'],
    ]);
  });

  test('font → span with its attributes remapped', () => {
    const policy: Policy = {
      sanitizer: {},
      elements: { font: { rename: 'span', attributes: { color: { toStyle: 'color' }, face: { toStyle: 'font-family' }, size: { toStyle: 'font-size' } } } },
    };
    expect(structure('<font color="red" face="Times New Roman, serif" size="-1">x</font>', policy)).toBe(
      '<span style="color:red;font-family:&quot;Times New Roman&quot;, serif;font-size:small">x</span>',
    );
  });
});

describe('styleValueFor (strict presentational values)', () => {
  const CASES: [StyleTransformProperty, string, string | null][] = [
    ['text-align', ' RIGHT ', 'right'],
    ['text-align', 'middle', 'center'],
    ['text-align', 'left;color:red', null],
    ['vertical-align', 'Top', 'top'],
    ['vertical-align', 'sub', null],
    ['background-color', '#abc', '#abc'],
    ['background-color', '#AABBCC', '#aabbcc'],
    ['background-color', 'aabbcc', '#aabbcc'],
    ['background-color', 'abc', null], // legacy colour parsing would not give #abc
    ['background-color', 'RebeccaPurple', 'rebeccapurple'],
    ['background-color', 'rgb(1,2,3)', null],
    ['color', 'expression(alert(1))', null],
    ['width', '100', '100px'],
    ['width', '050px', '50px'],
    ['width', '50%', '50%'],
    ['width', '150%', null],
    ['height', '-1', null],
    ['height', '1e3', null],
    ['font-family', 'Arial,  Helvetica Neue ,SANS-SERIF', '"Arial", "Helvetica Neue", sans-serif'],
    ['font-family', 'x"y', null],
    ['font-family', 'a,,b', null],
    ['font-size', '1', 'x-small'],
    ['font-size', '7', 'xxx-large'],
    ['font-size', '+2', 'x-large'],
    ['font-size', '+7', 'xxx-large'],
    ['font-size', '-3', 'x-small'],
    ['font-size', '8', null],
    ['white-space', '', 'nowrap'],
  ];
  test.each(CASES)('%s from %j', (prop, value, expected) => {
    expect(styleValueFor(prop, value)).toBe(expected);
  });
  test('every transform property is covered above', () => {
    expect(new Set(CASES.map((c) => c[0]))).toEqual(new Set(STYLE_TRANSFORM_PROPERTIES));
  });
});

describe('legacyColor (the HTML standard\'s rules for parsing a legacy colour value)', () => {
  // Worked by hand through the standard's steps; Chromium computes the same (test/browser/email-container.test.ts).
  test.each([
    ['', null],
    ['  TRANSPARENT ', null],
    ['RebeccaPurple', 'rebeccapurple'],
    ['#abc', '#aabbcc'],
    ['abc', '#0a0b0c'], // no '#': three one-digit components
    ['fff', '#0f0f0f'],
    ['#ffff', '#ffff00'], // padded to six digits
    ['chucknorris', '#c00000'], // c00c0000000 padded: c00c 0000 0000, then the first two of each
    [' \t', '#000000'], // only whitespace: no digits, then three zeros
    ['#1234567', '#124570'], // 123456700: 123 456 700, then the first two of each
    ['\u{1F600}ff', '#00ff00'], // a code point past U+FFFF is "00": 00ff, padded 00ff00
    ['0'.repeat(24) + '1', '#000010'], // 27 digits: 9 each, the last 8 kept, then the zeros all three lead with
  ] as [string, string | null][])('%j', (value, expected) => {
    expect(legacyColor(value)).toBe(expected);
  });
});

describe('hooks', () => {
  test('onElement runs once per element, in document order, after the element rule', () => {
    const html = '<div><p>a<b>b</b></p><ul><li>1</li><li>2<i>x</i></li></ul></div><template><span>t</span></template><em>e</em>';
    const expected = preorder(parseFragment(html)).map((e) => (e.localName === 'b' ? 'strong' : e.localName));
    const seen: string[] = [];
    structure(html, { elements: { b: { rename: 'strong' } }, hooks: { onElement: (el) => void seen.push(el.localName) } });
    expect(seen).toEqual(expected);
  });

  test('actions: drop, unwrap, rename (string and object), keep, nothing', () => {
    const onElement = (el: Element): ReturnType<NonNullable<NonNullable<Policy['hooks']>['onElement']>> => {
      switch (el.getAttribute('data-do')) {
        case 'drop':
          return 'drop';
        case 'unwrap':
          return 'unwrap';
        case 'rename':
          return 'section';
        case 'rename-object':
          return { rename: 'aside' };
        case 'keep':
          return 'keep';
        default:
          return undefined;
      }
    };
    expect(
      structure(
        '<div data-do="drop">1</div><div data-do="unwrap">2</div><div data-do="rename">3</div><div data-do="rename-object">4</div><div data-do="keep">5</div><div>6</div>',
        { hooks: { onElement } },
      ),
    ).toBe('2<section data-do="rename">3</section><aside data-do="rename-object">4</aside><div data-do="keep">5</div><div>6</div>');
  });

  test('a hook may edit the element in place; renaming a template moves its contents', () => {
    const out = structure('<a href="x">l</a><template><i>t</i></template>', {
      hooks: {
        onElement: (el) => {
          if (el.localName === 'a') el.setAttribute('data-seen', '1');
          if (el.localName === 'template') return 'div';
          return undefined;
        },
      },
    });
    expect(out).toBe('<a href="x" data-seen="1">l</a><div><i>t</i></div>');
  });

  test('the context gives depth, parent and path', () => {
    const got: [string, number, string, string][] = [];
    structure('<div><p>x</p><p><b>y</b></p></div>', {
      hooks: {
        onElement: (el, ctx) => {
          const parent = ctx.parent as Element;
          got.push([el.localName, ctx.depth, parent.localName ?? '#fragment', ctx.path()]);
        },
      },
    });
    expect(got).toEqual([
      ['div', 1, '#fragment', 'div'],
      ['p', 2, 'div', 'div > p'],
      ['p', 2, 'div', 'div > p:nth-child(2)'],
      ['b', 3, 'p', 'div > p:nth-child(2) > b'],
    ]);
  });

  test('onAttribute: drop, rename, in-place edit, after the declarative rules', () => {
    const seen: string[] = [];
    const out = structure('<p title="t" data-a="1" data-b="2" lang="en">x</p>', {
      attributes: { lang: { drop: true } },
      hooks: {
        onAttribute: (_el, attr) => {
          seen.push(attr.name);
          if (attr.name === 'data-a') return 'drop';
          if (attr.name === 'data-b') return { rename: 'data-c' };
          attr.value = attr.value.toUpperCase();
          return undefined;
        },
      },
    });
    expect(out).toBe('<p title="T" data-c="2">x</p>');
    expect(seen).toEqual(['title', 'data-a', 'data-b']);
  });

  test('onAttribute renames: a clash with another attribute drops the renamed one, also after the hook edits the list', () => {
    const hooks = (onAttribute: NonNullable<NonNullable<Policy['hooks']>['onAttribute']>): Policy => ({ hooks: { onAttribute } });
    // Onto an attribute already there, onto its own name, onto a name freed by an earlier drop.
    expect(structure('<p a="1" b="2" c="3">x</p>', hooks((_el, a) => (a.localName === 'b' ? { rename: 'a' } : undefined)))).toBe(
      '<p a="1" c="3">x</p>',
    );
    expect(structure('<p a="1" b="2">x</p>', hooks((_el, a) => ({ rename: a.localName.toUpperCase() })))).toBe('<p a="1" b="2">x</p>');
    expect(
      structure('<p a="1" b="2">x</p>', hooks((_el, a) => (a.localName === 'a' ? 'drop' : { rename: 'a' }))),
    ).toBe('<p a="2">x</p>');
    // A rename onto its own name still counts that name: a later rename onto it clashes. A name renamed away is
    // free for a later rename, and the new name is taken.
    expect(structure('<p a="1" b="2">x</p>', hooks(() => ({ rename: 'a' })))).toBe('<p a="1">x</p>');
    expect(
      structure('<p a="1" b="2" c="3">x</p>', hooks((_el, a) => ({ rename: a.localName === 'b' ? 'a' : 'x' }))),
    ).toBe('<p x="1" a="2">x</p>');
    // Two renames onto one new name: the second clashes with the first.
    expect(structure('<p a="1" b="2" c="3">x</p>', hooks((_el, a) => (a.localName === 'c' ? undefined : { rename: 'z' })))).toBe(
      '<p z="1" c="3">x</p>',
    );
    // The hook adds an attribute (setAttribute), then renames onto it; and removes the next one before its turn.
    expect(
      structure(
        '<p a="1" b="2" c="3">x</p>',
        hooks((el, a) => {
          if (a.localName === 'a') {
            el.setAttribute('y', 'new');
            el.removeAttribute('b');
            return undefined;
          }
          return { rename: 'y' };
        }),
      ),
    ).toBe('<p a="1" y="new">x</p>');
  });

  test('onAttribute: a name a hook adds before dropping its own attribute still clashes with a later rename', () => {
    const out = structure('<p a="1" b="2" c="3">x</p>', {
      hooks: {
        onAttribute: (el, a) => {
          if (a.localName === 'a') return { rename: 'z' };
          if (a.localName === 'b') {
            el.setAttribute('z2', 'new');
            return 'drop';
          }
          return { rename: 'z2' };
        },
      },
    });
    expect(out).toBe('<p z="1" z2="new">x</p>');
  });

  test('onAttribute on an element with thousands of attributes: every one is seen once, in order, and the result is exact', () => {
    const n = 3000;
    const html = paragraphWithAttributes(n);
    const seen: string[] = [];
    const out = structure(html, {
      hooks: {
        onAttribute: (_el, a) => {
          seen.push(a.localName);
          const i = Number(a.localName.slice(1));
          if (i % 3 === 0) return 'drop';
          if (i % 3 === 1) return { rename: 'r' + i };
          return undefined;
        },
      },
    });
    expect(seen).toEqual(Array.from({ length: n }, (_, i) => 'a' + i));
    let expected = '<p';
    for (let i = 0; i < n; i++) if (i % 3 === 1) expected += ` r${i}="${i}"`; else if (i % 3 === 2) expected += ` a${i}="${i}"`;
    expect(out).toBe(expected + '>x</p>');
  });

  // Past 32 attributes the hook's drops are deferred until something looks at the list (engine.ts, LazyDrops).
  // `model` is the list as a splice per drop leaves it, kept by the test from what its hook returns and does.
  describe('onAttribute on a long list: the hook sees the list as if each drop were spliced at once', () => {
    const n = 300;
    const html = paragraphWithAttributes(n);
    const serialized = (names: string[]): string => '<p' + names.map((m) => ` ${m}="${m[0] === 'a' ? m.slice(1) : 'new'}"`).join('') + '>x</p>';

    test.each([1, 7, 1000])('looking at the list every %i calls', (every) => {
      const model = Array.from({ length: n }, (_, i) => 'a' + i);
      const differences: string[] = [];
      let calls = 0;
      let element: Element | null = null;
      let original: unknown = null;
      const out = structure(html, {
        hooks: {
          onElement: (el) => {
            element = el;
            original = el.attributes;
          },
          onAttribute: (el, a) => {
            if (calls++ % every === 0) {
              const seen = el.attributes.map((b) => b.name).join(' ');
              if (seen !== model.join(' ')) differences.push(`${a.name}: ${seen.length} vs ${model.join(' ').length}`);
              if (el.attributes.length !== model.length || el.attributes.indexOf(a) !== model.indexOf(a.name)) differences.push(a.name);
            }
            const i = Number(a.localName.slice(1));
            if (i % 3 === 1) return undefined;
            model.splice(model.indexOf(a.name), 1);
            return 'drop';
          },
        },
      });
      expect(differences).toEqual([]);
      expect(model.length).toBe(n / 3);
      expect(out).toBe(serialized(model));
      expect(element!.attributes).toBe(original); // the element's own array, not the proxy
    });

    test('with the hook editing, reordering and replacing the list between deferred drops', () => {
      const model = Array.from({ length: n }, (_, i) => 'a' + i);
      const differences: string[] = [];
      const seen: string[] = [];
      const out = structure(html, {
        hooks: {
          onAttribute: (el, a) => {
            seen.push(a.name);
            const i = Number(a.localName.slice(1));
            if (i === 50) {
              el.removeAttribute('a51'); // the next one: never visited
              model.splice(model.indexOf('a51'), 1);
              el.setAttribute('n50', 'new'); // added: kept, not visited
              model.push('n50');
            }
            if (i === 100) {
              el.attributes.reverse(); // later drops come at decreasing indices
              model.reverse();
            }
            if (i === 150 && (el.hasAttribute('a148') || !el.hasAttribute('a149'))) differences.push('at a150');
            if (i === 200) el.attributes = el.attributes.slice(); // another array: its drops are spliced
            if (i === 250 && el.attributes.map((b) => b.name).join() !== model.join()) differences.push('at a250');
            if (i % 2 === 1) return undefined;
            model.splice(model.indexOf(a.name), 1);
            return 'drop';
          },
        },
      });
      expect(differences).toEqual([]);
      expect(seen).toEqual(Array.from({ length: n }, (_, i) => 'a' + i).filter((m) => m !== 'a51'));
      expect(out).toBe(serialized(model));
    });

    test('renames onto names a deferred drop freed, and clashes with names still there', () => {
      // a0 .. a99 are dropped (deferred: still in the array); a100 .. a199 are renamed onto a0 .. a99, which the
      // drops freed; a200 .. a299 onto a0 .. a99 again, which the renamed ones hold: those renames clash and drop.
      const out = structure(html, {
        hooks: {
          onAttribute: (_el, a) => {
            const i = Number(a.localName.slice(1));
            if (i < 100) return 'drop';
            return { rename: 'a' + (i % 100) };
          },
        },
      });
      expect(out).toBe('<p' + Array.from({ length: 100 }, (_, i) => ` a${i}="${i + 100}"`).join('') + '>x</p>');
    });

    test('a hook that throws mid-pass leaves the element its own array, without the attributes it dropped', () => {
      let element: Element | null = null;
      let original: unknown = null;
      expect(() =>
        structure(html, {
          hooks: {
            onElement: (el) => {
              element = el;
              original = el.attributes;
            },
            onAttribute: (_el, a) => {
              if (a.localName === 'a100') throw new Error('stop');
              return 'drop';
            },
          },
        }),
      ).toThrow(PolicyHookError);
      expect(element!.attributes).toBe(original);
      expect(element!.attributes.map((b) => b.name)).toEqual(Array.from({ length: n - 100 }, (_, i) => 'a' + (i + 100)));
    });
  });

  test('a hook that throws aborts with a PolicyHookError naming the hook and the node', () => {
    const boom = new Error('boom');
    let error: unknown;
    try {
      structure('<div><p>x</p></div>', { hooks: { onElement: (el) => { if (el.localName === 'p') throw boom; } } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PolicyHookError);
    expect((error as Error).message).toBe('policy.hooks.onElement threw (boom) at div > p');
    expect((error as Error).cause).toBe(boom);
    expect((error as PolicyHookError).hook).toBe('onElement');
    expect(() => structure('<p title="x">x</p>', { hooks: { onAttribute: () => { throw new Error('bad'); } } })).toThrow(
      'policy.hooks.onAttribute threw (bad) at p [title]',
    );
  });

  test('a hook returning something that is not an action is an error', () => {
    const bad = (v: unknown): Policy => ({ hooks: { onElement: () => v as 'keep' } });
    expect(() => structure('<p>x</p>', bad(42))).toThrow('policy.hooks.onElement returned an invalid action (42) at p');
    expect(() => structure('<p>x</p>', bad('a b'))).toThrow('policy.hooks.onElement returned an invalid action ("a b") at p');
    expect(() => structure('<p>x</p>', bad('template'))).toThrow('policy.hooks.onElement returned an invalid action ("template") at p');
    expect(() => structure('<p id="i">x</p>', { hooks: { onAttribute: () => ({ rename: 'onclick' }) } })).toThrow(
      'policy.hooks.onAttribute returned an invalid action ({"rename":"onclick"}) at p [id]',
    );
    expect(() => structure('<p id="i">x</p>', { hooks: { onAttribute: () => 'unwrap' as 'keep' } })).toThrow(
      'policy.hooks.onAttribute returned an invalid action ("unwrap") at p [id]',
    );
  });

  test('a hook that edits its siblings cannot break the walk', () => {
    const f = parseFragment('<p>1</p><p>2</p><p>3</p>');
    applyPolicyStructure(
      f,
      compilePolicy({
        hooks: {
          onElement: (el) => {
            const parent = el.parentNode;
            if (parent === null) return; // removed by the hook's own earlier call
            // Misbehaving hook: removes the next sibling and appends new ones.
            const next = parent.childNodes[parent.childNodes.indexOf(el) + 1];
            if (next !== undefined) parent.removeChild(next);
            parent.appendChild(new (el.constructor as typeof import('../../src/dom.js').Element)('hr', HTML_NS));
          },
        },
      }),
    );
    expect(parentLinksConsistent(f)).toBe(true);
    // The walk read the three original children and kept them, whatever the hook did to the list.
    expect(serialize(f)).toBe('<p>1</p><p>2</p><p>3</p>');
  });

  test('attributes created by a hook are kept as plain Attr nodes', () => {
    const f = parseFragment('<p>x</p>');
    applyPolicyStructure(f, compilePolicy({ hooks: { onElement: (el) => void el.attributes.push(new Attr('data-h', '1')) } }));
    expect(serialize(f)).toBe('<p data-h="1">x</p>');
  });
});

describe('no work without structural rules', () => {
  test('a policy with only step-4 rules leaves the tree untouched in step 2', () => {
    const f = parseFragment('<b align="x" style="position:fixed">y</b>');
    const before = serialize(f);
    applyPolicyStructure(f, compilePolicy({ ids: { prefix: 'u-' }, style: { properties: ['color'] } }));
    expect(serialize(f)).toBe(before);
  });
});
