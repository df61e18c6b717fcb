/** Pipeline step 4: URLs, style, classes, ids, forced attributes, depth limit (run alone). */
import { describe, expect, test } from 'vitest';
import { parseFragment } from '../../src/parser.js';
import { applyPolicyAttributes, compilePolicy, DEFAULT_MAX_DEPTH, type Policy, type UrlRewriteContext } from '../../src/policy/index.js';
import { serialize } from '../../src/serializer.js';
import { attributes, maxElementDepth, parentLinksConsistent, preorder, stage } from './helpers.js';

describe('URL-valued attributes', () => {
  test('default policy: http, https, mailto, tel; relative URLs kept', () => {
    expect(
      attributes(
        '<a href="https://a.example/x">1</a><a href="ftp://f/">2</a><a href="mailto:me@x">3</a><a href="tel:+1">4</a><a href="/p?q">5</a><a href=" JaVa&#x09;Script:alert(1)">6</a>',
        {},
      ),
    ).toBe('<a href="https://a.example/x">1</a><a>2</a><a href="mailto:me@x">3</a><a href="tel:+1">4</a><a href="/p?q">5</a><a>6</a>');
  });

  test('every URL attribute is checked, with the kind of its element', () => {
    const seen: string[] = [];
    const rewrite = (url: string, c: UrlRewriteContext): string => {
      seen.push(`${c.element} ${c.attribute} ${c.kind} ${url}`);
      return url;
    };
    attributes(
      '<a href="https://l/" ping="https://p1/ https://p2/">a</a><img src="https://i/" srcset="https://s1/ 1x, https://s2/ 2x" longdesc="https://d/">' +
        '<form action="https://f/"><button formaction="https://b/">b</button></form><video poster="https://v/" src="https://m/"></video>' +
        '<blockquote cite="https://c/">q</blockquote><object data="https://o/"></object><table background="https://bg/"></table>' +
        '<svg><a href="https://sa/"></a><image xlink:href="https://si/"></image></svg><math><mi href="https://mi/">x</mi></math>',
      { urls: { rewrite } },
    );
    expect(seen).toEqual([
      'a href link https://l/',
      'a ping link https://p1/',
      'a ping link https://p2/',
      'img src image https://i/',
      'img srcset image https://s1/',
      'img srcset image https://s2/',
      'img longdesc link https://d/',
      'form action form https://f/',
      'button formaction form https://b/',
      'video poster image https://v/',
      'video src media https://m/',
      'blockquote cite link https://c/',
      'object data object https://o/',
      'table background image https://bg/',
      'a href link https://sa/',
      'image xlink:href image https://si/',
      'mi href link https://mi/',
    ]);
  });

  test('data is a URL only on object; attributes the policy marks are URLs too', () => {
    expect(attributes('<p data="javascript:x" data-src="javascript:x">x</p>', {})).toBe('<p data="javascript:x" data-src="javascript:x">x</p>');
    expect(attributes('<p data-src="javascript:x" data-ok="https://x/">x</p>', { attributes: { 'data-src': { url: 'url' }, 'data-ok': { url: 'url' } } })).toBe(
      '<p data-ok="https://x/">x</p>',
    );
    expect(attributes('<img data-srcset="javascript:x 1x, https://x/ 2x">', { elements: { img: { attributes: { 'data-srcset': { url: 'srcset' } } } } })).toBe(
      '<img data-srcset="https://x/ 2x">',
    );
  });

  test('relative URLs: keep, drop, resolve', () => {
    const html = '<a href="../up?x#f">r</a><a href="https://abs.example/">a</a>';
    expect(attributes(html, { urls: { relative: 'keep' } })).toBe(html);
    expect(attributes(html, { urls: { relative: 'drop' } })).toBe('<a>r</a><a href="https://abs.example/">a</a>');
    expect(attributes(html, { urls: { relative: 'resolve', base: 'https://site.example/a/b/c' } })).toBe(
      '<a href="https://site.example/a/up?x#f">r</a><a href="https://abs.example/">a</a>',
    );
  });

  test('per-kind rules: data: images allowed, data: links not', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const policy: Policy = { urls: { kinds: { image: { schemes: ['https', 'data'] } } } };
    expect(attributes(`<img src="${png}"><a href="${png}">l</a><img src="data:text/html,x">`, policy)).toBe(`<img src="${png}"><a>l</a><img>`);
  });

  test('rewrite: a link redirector and an image proxy; null drops; a javascript: result is refused', () => {
    const policy: Policy = {
      urls: {
        rewrite: (url, c) => {
          if (url.startsWith('https://blocked.example/')) return null;
          if (url.startsWith('https://evil.example/')) return 'javascript:alert(1)';
          if (c.kind === 'image') return 'https://proxy.example/img?u=' + encodeURIComponent(url);
          if (c.kind === 'link') return 'https://go.example/?u=' + encodeURIComponent(url);
          return url;
        },
      },
    };
    const { html, report } = stage(
      'attributes',
      '<a href="https://x.example/p">a</a><img src="http://i.example/i.png"><a href="https://blocked.example/">b</a><a href="https://evil.example/">c</a>',
      policy,
    );
    expect(html).toBe(
      '<a href="https://go.example/?u=https%3A%2F%2Fx.example%2Fp">a</a><img src="https://proxy.example/img?u=http%3A%2F%2Fi.example%2Fi.png"><a>b</a><a>c</a>',
    );
    expect(report.map((r) => [r.action, r.rule, r.attribute, r.reason ?? ''])).toEqual([
      ['change-attribute', 'urls.rewrite', 'href', ''],
      ['change-attribute', 'urls.rewrite', 'src', ''],
      ['drop-attribute', 'urls', 'href', 'refused by rewrite'],
      ['drop-attribute', 'urls', 'href', 'rewrite returned a javascript: URL'],
    ]);
  });

  test('srcset candidates each go through the policy and the rewrite', () => {
    const policy: Policy = { urls: { rewrite: (u) => (u.includes('drop') ? null : u.replace('http://', 'https://')) } };
    expect(attributes('<img srcset="http://a/1.png 1x, http://a/drop.png 2x, javascript:x 3x, http://a/4.png 4x">', policy)).toBe(
      '<img srcset="https://a/1.png 1x, https://a/4.png 4x">',
    );
    expect(attributes('<img srcset="javascript:x 1x">', policy)).toBe('<img>');
  });

  test('cid: resolution for email images', () => {
    const parts: Record<string, string> = { 'logo@mail': 'https://cdn.example/logo.png' };
    const policy: Policy = {
      urls: {
        kinds: { image: { schemes: ['https', 'cid'] } },
        rewrite: (url) => (url.startsWith('cid:') ? (parts[url.slice(4)] ?? null) : url),
      },
    };
    expect(attributes('<img src="cid:logo@mail"><img src="cid:missing">', policy)).toBe('<img src="https://cdn.example/logo.png"><img>');
  });

  test('meta refresh: the URL goes through the policy', () => {
    const policy: Policy = { urls: { rewrite: (u) => 'https://go.example/?u=' + encodeURIComponent(u) } };
    expect(attributes('<meta http-equiv="Refresh" content="0; URL=\'https://x.example/\'">', policy)).toBe(
      '<meta http-equiv="Refresh" content="0;url=https://go.example/?u=https%3A%2F%2Fx.example%2F">',
    );
    expect(attributes('<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', {})).toBe('<meta http-equiv="refresh">');
    expect(attributes('<meta http-equiv="refresh" content="5">', {})).toBe('<meta http-equiv="refresh" content="5">');
    expect(attributes('<meta http-equiv="refresh" content="soon">', {})).toBe('<meta http-equiv="refresh">');
    // Other meta content is not a URL.
    expect(attributes('<meta name="x" content="javascript:ok">', {})).toBe('<meta name="x" content="javascript:ok">');
  });

  test('SVG url() references: same-document only', () => {
    expect(attributes('<svg><rect fill="url(#g) red" stroke="url(https://x/s.svg#p)" mask="none"></rect></svg>', {})).toBe(
      '<svg><rect fill="url(#g) red" mask="none"></rect></svg>',
    );
  });
});

describe('style attributes', () => {
  test('property allow-list, re-serialized from tokens', () => {
    const policy: Policy = { style: { properties: ['color', 'margin'] } };
    const { html, report } = stage('attributes', '<p style="COLOR : red ; position: fixed; margin:0 auto">x</p>', policy);
    expect(html).toBe('<p style="color:red;margin:0 auto">x</p>');
    expect(report).toEqual([
      {
        stage: 'policy',
        action: 'change-attribute',
        rule: 'style',
        element: 'p',
        attribute: 'style',
        path: 'p',
        from: 'COLOR : red ; position: fixed; margin:0 auto',
        to: 'color:red;margin:0 auto',
        reason: 'position: property not allowed',
      },
    ]);
  });

  test('the default allow-list keeps presentational properties only', () => {
    expect(attributes('<p style="color:red;position:absolute;z-index:9;text-align:center">x</p>', {})).toBe(
      '<p style="color:red;text-align:center">x</p>',
    );
  });

  test('nothing left, or style: false, drops the attribute', () => {
    expect(attributes('<p style="position:fixed">x</p>', {})).toBe('<p>x</p>');
    expect(attributes('<p style="color:red">x</p>', { style: false })).toBe('<p>x</p>');
  });

  test('!important only when allowed', () => {
    expect(attributes('<p style="color:red !important">x</p>', {})).toBe('<p>x</p>');
    expect(attributes('<p style="color:red !important">x</p>', { style: { allowImportant: true } })).toBe('<p style="color:red!important">x</p>');
  });

  test('url() in styles goes through the URL policy as an image', () => {
    const ctxs: UrlRewriteContext[] = [];
    const policy: Policy = {
      style: { properties: ['background-image'] },
      urls: { rewrite: (u, c) => (ctxs.push({ ...c }), 'https://proxy/?u=' + encodeURIComponent(u)) },
    };
    expect(attributes('<div style="background-image:url(http://x/a.png)">x</div>', policy)).toBe(
      '<div style="background-image:url(https://proxy/?u=http%3A%2F%2Fx%2Fa.png)">x</div>',
    );
    expect(ctxs).toEqual([{ element: 'div', attribute: 'style', kind: 'image', written: 'http://x/a.png' }]);
    expect(attributes('<div style="background-image:url(javascript:alert(1))">x</div>', policy)).toBe('<div>x</div>');
  });

  test('a rewrite is given the URL as written, cleaned as the URL parser starts, beside its parsed form', () => {
    const seen: [string, string][] = [];
    const policy: Policy = { urls: { relative: 'keep', rewrite: (u, c) => (seen.push([u, c.written]), u) } };
    attributes('<a href=" http:x\ty ">a</a><img src="\n../a b.png"><a href="HTTPS://X.TEST/%7e">b</a>', policy);
    expect(seen).toEqual([
      ['http://xy/', 'http:xy'],
      ['../a b.png', '../a b.png'],
      ['https://x.test/%7e', 'HTTPS://X.TEST/%7e'],
    ]);
  });
});

describe('classes', () => {
  const policy: Policy = { classes: { allow: ['note', 'warning'], prefixes: ['lang-'] } };
  test('exact names and prefixes', () => {
    expect(attributes('<p class=" note evil lang-js  lang- warning">x</p>', policy)).toBe('<p class="note lang-js warning">x</p>');
  });
  test('an empty result drops the attribute', () => {
    expect(attributes('<p class="evil">x</p>', policy)).toBe('<p>x</p>');
    expect(attributes('<p class="note">x</p>', { classes: false })).toBe('<p>x</p>');
  });
  test('omitted: classes are left alone', () => {
    expect(attributes('<p class="anything at all">x</p>', {})).toBe('<p class="anything at all">x</p>');
  });
});

describe('ids and same-document references', () => {
  const policy: Policy = { ids: { prefix: 'user-content-' } };
  test('ids and names are prefixed, references follow', () => {
    expect(
      attributes(
        '<h2 id="intro">i</h2><a href="#intro">go</a><a name="n">n</a><label for="f">l</label><input id="f" name="q" list="dl" aria-describedby="intro n">' +
          '<img usemap="#m"><map name="m"></map><datalist id="dl"></datalist><form name="login"></form>',
        policy,
      ),
    ).toBe(
      '<h2 id="user-content-intro">i</h2><a href="#user-content-intro">go</a><a name="user-content-n">n</a><label for="user-content-f">l</label>' +
        '<input id="user-content-f" name="q" list="user-content-dl" aria-describedby="user-content-intro user-content-n">' +
        '<img usemap="#user-content-m"><map name="user-content-m"></map><datalist id="user-content-dl"></datalist><form name="user-content-login"></form>',
    );
  });

  test('already prefixed values are not prefixed twice (sanitizing twice changes nothing)', () => {
    const once = attributes('<p id="x"><a href="#x">x</a></p>', policy);
    expect(attributes(once, policy)).toBe(once);
  });

  test('name: false leaves names alone; an empty href fragment is not a reference', () => {
    expect(attributes('<a name="n" href="#">x</a>', { ids: { prefix: 'u-', name: false } })).toBe('<a name="n" href="#">x</a>');
  });

  test("references: 'existing' prefixes only references to ids in the output", () => {
    expect(
      attributes('<a href="#late">1</a><a href="#host">2</a><p aria-labelledby="late host">p</p><h2 id="late">l</h2>', {
        ids: { prefix: 'u-', references: 'existing' },
      }),
    ).toBe('<a href="#u-late">1</a><a href="#host">2</a><p aria-labelledby="u-late host">p</p><h2 id="u-late">l</h2>');
  });

  test('SVG url(#id) references are prefixed', () => {
    expect(attributes('<svg><linearGradient id="g"></linearGradient><rect fill="url(#g)"></rect></svg>', policy)).toBe(
      '<svg><linearGradient id="user-content-g"></linearGradient><rect fill="url(#user-content-g)"></rect></svg>',
    );
  });

  test('fragment links skip the URL rewrite (they stay in the document)', () => {
    const calls: string[] = [];
    const out = attributes('<a href="#x">x</a><a href="https://e/">e</a>', { ids: { prefix: 'u-' }, urls: { rewrite: (u) => (calls.push(u), u) } });
    expect(out).toBe('<a href="#u-x">x</a><a href="https://e/">e</a>');
    expect(calls).toEqual(['https://e/']);
  });
});

describe('forced attributes', () => {
  const policy: Policy = { elements: { a: { force: { rel: 'noopener noreferrer', target: '_blank' } } } };
  test('added, replaced, rel tokens merged without duplicates', () => {
    expect(attributes('<a href="/x">1</a><a rel="nofollow NOOPENER" target="_self">2</a><p>3</p>', policy)).toBe(
      '<a href="/x" rel="noopener noreferrer" target="_blank">1</a><a rel="nofollow NOOPENER noreferrer" target="_blank">2</a><p>3</p>',
    );
  });
  test('reported as add or change, nothing when already as forced', () => {
    const { report } = stage('attributes', '<a target="_self">1</a><a rel="noopener noreferrer" target="_blank">2</a>', policy);
    expect(report.map((r) => [r.action, r.attribute, r.from ?? null, r.to, r.path])).toEqual([
      ['add-attribute', 'rel', null, 'noopener noreferrer', 'a'],
      ['change-attribute', 'target', '_self', '_blank', 'a'],
    ]);
  });
  test('namespaced forced attributes on foreign elements', () => {
    const f = parseFragment('<svg><a></a></svg>');
    applyPolicyAttributes(f, compilePolicy({ elements: { 'svg:a': { force: { 'xlink:title': 't' } } } }));
    const a = preorder(f)[1]!.attributes[0]!;
    expect([a.namespaceURI, a.prefix, a.localName, a.value]).toEqual(['http://www.w3.org/1999/xlink', 'xlink', 'title', 't']);
  });
});

describe('depth limit', () => {
  test('elements deeper than maxDepth are unwrapped, their text stays', () => {
    const { html, report } = stage('attributes', '<div><p><span>a<b>b</b></span>c</p>d</div>', { maxDepth: 2 });
    expect(html).toBe('<div><p>abc</p>d</div>');
    expect(report.map((r) => [r.action, r.rule, r.element, r.path])).toEqual([
      ['unwrap-element', 'maxDepth', 'span', 'div > p > span'],
      // b is read inside p, in span's place, as p's second element child.
      ['unwrap-element', 'maxDepth', 'b', 'div > p > b:nth-child(2)'],
    ]);
  });

  test('template contents count as children of the template', () => {
    expect(attributes('<template><p><i>x</i></p></template>', { maxDepth: 2 })).toBe('<template><p>x</p></template>');
  });

  test('the default is 256', () => {
    expect(DEFAULT_MAX_DEPTH).toBe(256);
    const html = '<div>'.repeat(300) + 'x';
    const f = parseFragment(html);
    applyPolicyAttributes(f, compilePolicy({}));
    expect(maxElementDepth(f)).toBe(256);
    expect(f.textContent).toBe('x');
  });

  test('100,000 levels: one report per unwrapped element, depth and text as computed from the input', () => {
    const N = 100_000;
    const f = parseFragment('<div>'.repeat(N) + 'deep' + '</div>'.repeat(N) + 'tail');
    const elementsBefore = preorder(f).length;
    const depthBefore = maxElementDepth(f);
    let reports = 0;
    applyPolicyAttributes(f, compilePolicy({ maxDepth: 100 }), () => reports++);
    expect(maxElementDepth(f)).toBe(Math.min(100, depthBefore));
    expect(reports).toBe(elementsBefore - preorder(f).length);
    expect(reports).toBe(depthBefore - 100);
    expect(f.textContent).toBe('deeptail');
    expect(parentLinksConsistent(f)).toBe(true);
  });
});

describe('report', () => {
  test('paths are short: at most 12 segments', () => {
    const { report } = stage('attributes', '<div>'.repeat(20) + '<a href="ftp://x">x</a>', {});
    expect(report).toHaveLength(1);
    expect(report[0]!.path).toBe('… > ' + Array(11).fill('div').join(' > ') + ' > a');
  });

  test('without a listener the result is the same', () => {
    const html = '<div><a href="ftp://x" rel="x" style="position:fixed;color:red" id="i">x</a></div>';
    const policy = compilePolicy({ ids: { prefix: 'p-' }, elements: { a: { force: { rel: 'noopener' } } }, maxDepth: 1 });
    const a = parseFragment(html);
    const b = parseFragment(html);
    applyPolicyAttributes(a, policy);
    const entries: unknown[] = [];
    applyPolicyAttributes(b, policy, (e) => entries.push(e));
    expect(serialize(a)).toBe(serialize(b));
    expect(entries.length).toBeGreaterThan(0);
  });
});
