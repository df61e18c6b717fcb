import { describe, expect, it } from 'vitest';
import { JSDOM } from 'jsdom';
import { parseDocument, parseFragment } from '../../src/parser.js';
import { sanitize, sanitizeDocument } from '../../src/sanitize.js';
import { serialize } from '../../src/serializer.js';
import { email, emailPolicy, sanitizeEmail } from '../../policies/index.js';
import { corpusFiles, elements, readCorpus, retention, visibleText } from './helpers.js';

const PROXY = 'https://proxy.test/img?u=';
const proxyImage = (u: string): string | null => (/^https?:\/\/gallery\.mailchimp\.com\//.test(u) ? PROXY + encodeURIComponent(u) : null);

/** Every URL in the output that makes the browser load something (links excluded). */
function loadedUrls(html: string, css: string): string[] {
  const out: string[] = [];
  const frag = parseFragment(html, { context: 'div' });
  for (const el of elements(frag)) {
    for (const a of el.attributes) {
      if (['src', 'background', 'poster', 'lowsrc', 'dynsrc', 'data'].includes(a.name)) out.push(a.value);
      if (a.name === 'srcset') for (const c of a.value.split(',')) out.push(c.trim().split(/\s+/)[0]!);
      if (a.name === 'style') for (const m of a.value.matchAll(/url\(\s*["']?([^"')]*)/gi)) out.push(m[1]!);
    }
  }
  for (const m of css.matchAll(/url\(\s*["']?([^"')]*)/gi)) out.push(m[1]!);
  for (const m of css.matchAll(/@import\s+["']([^"']*)/gi)) out.push(m[1]!);
  return out;
}

/** Selector lists of the style rules of a (compact, re-serialized) sheet. */
function selectors(css: string): string[] {
  const out: string[] = [];
  for (const m of css.matchAll(/(?:^|[{};])\s*([^{};@][^{};]*)\{/g)) out.push(m[1]!.trim());
  return out;
}

describe('email policy', () => {
  it('keeps tables and presentational attributes; removes scripts, forms, frames, objects, meta refresh', () => {
    const r = sanitizeEmail(
      '<html><head><meta http-equiv="refresh" content="0;url=https://evil.test/"><script>x()</script></head>' +
        '<body bgcolor="#fff"><table width="600" cellpadding="4" cellspacing="0" border="0" bgcolor="#eeeeee" align="center">' +
        '<tr><td valign="top" height="20" style="color:red;position:fixed;behavior:url(x.htc)">cell</td></tr></table>' +
        '<form action="https://evil.test/"><input name="q"><button>go</button>text</form><iframe src="https://x.test"></iframe>' +
        '<object data="x.swf"></object><embed src="x.swf"><a href="https://site.test/" target="_self">link</a></body></html>',
      { container: 'mail' },
    );
    const frag = parseFragment(r.body, { context: 'div' });
    const names = elements(frag).map((e) => e.localName);
    for (const bad of ['script', 'meta', 'form', 'input', 'button', 'iframe', 'object', 'embed']) expect(names).not.toContain(bad);
    const table = elements(frag).find((e) => e.localName === 'table')!;
    for (const a of ['width', 'cellpadding', 'cellspacing', 'border', 'bgcolor', 'align']) expect(table.hasAttribute(a), a).toBe(true);
    const td = elements(frag).find((e) => e.localName === 'td')!;
    expect(td.getAttribute('valign')).toBe('top');
    expect(td.getAttribute('style')).toContain('color');
    expect(td.getAttribute('style')).not.toMatch(/position|behavior/);
    expect(r.body).toContain('text');
    const a = elements(frag).find((e) => e.localName === 'a')!;
    expect(a.getAttribute('target')).toBe('_blank');
    expect(a.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it("keeps a picture's img (a dark-mode logo's light version, say) and drops its sources", () => {
    const r = sanitizeEmail(
      '<picture><source srcset="https://i.test/dark.png" media="(prefers-color-scheme: dark)"><img src="https://i.test/light.png" alt="Logo" width="120"></picture>',
      { container: 'mail', proxyImage: (u) => 'https://proxy.test/?u=' + encodeURIComponent(u) },
    );
    expect(r.body).toBe('<img src="https://proxy.test/?u=https%3A%2F%2Fi.test%2Flight.png" alt="Logo" width="120">');
  });

  it("shows a video's fallback content (the image linking to the video), as a mail client that plays no video does", () => {
    const r = sanitizeEmail(
      '<video width="320" controls poster="https://i.test/p.jpg" autoplay><source src="https://v.test/m.mp4" type="video/mp4"><track src="https://v.test/c.vtt">' +
        '<a href="https://v.test/watch"><img src="https://i.test/fallback.jpg" alt="Play"></a></video><audio src="https://v.test/a.mp3">Listen <a href="https://v.test/a">here</a></audio>',
      { container: 'mail' },
    );
    expect(r.body).toBe(
      '<a href="https://v.test/watch" rel="noopener noreferrer" target="_blank"><img alt="Play"></a>Listen <a href="https://v.test/a" rel="noopener noreferrer" target="_blank">here</a>',
    );
  });

  it('blocks remote images by default, proxies them through the callback, resolves cid:', () => {
    const html = '<img src="http://img.test/a.png"><img src="cid:logo@x"><table><tr><td background="https://img.test/bg.png"></td></tr></table><div style="background-image:url(https://img.test/c.png)">x</div><img src="data:image/png;base64,AAAA">';
    const blocked = sanitizeEmail(html, { container: 'm' });
    expect(loadedUrls(blocked.body, blocked.css).filter((u) => !u.startsWith('data:'))).toEqual([]);
    const seen: string[] = [];
    const r = sanitizeEmail(html, {
      container: 'm',
      proxyImage: (u) => (seen.push(u), 'https://proxy.test/?u=' + encodeURIComponent(u)),
      resolveCid: (id) => (id === 'logo@x' ? '/attachments/logo' : null),
    });
    expect(seen.sort()).toEqual(['http://img.test/a.png', 'https://img.test/bg.png', 'https://img.test/c.png']);
    const urls = loadedUrls(r.body, r.css);
    expect(urls).toContain('/attachments/logo');
    expect(urls.filter((u) => !u.startsWith('https://proxy.test/') && !u.startsWith('data:') && u !== '/attachments/logo')).toEqual([]);
    // The plain policy has no callbacks: everything remote is blocked, <style> dropped.
    const doc = sanitizeDocument('<style>p{color:red}</style>' + html, { policy: email });
    const out = serialize(doc);
    expect(out).not.toMatch(/img\.test|cid:|<style/);
  });

  it('asks proxyImage only for the URLs of styles it keeps', () => {
    // `cursor` and `list-style-image` are not among the email policy's properties: their URLs are never proxied.
    const seen: string[] = [];
    const r = sanitizeEmail(
      '<style>p{cursor:url(https://img.test/s1.cur),auto;background:url(https://img.test/s2.png)}</style>' +
        '<p style="list-style-image:url(https://img.test/a1.png);background-image:url(https://img.test/a2.png)">x</p>',
      { container: 'm', proxyImage: (u) => (seen.push(u), 'https://proxy.test/?u=' + encodeURIComponent(u)) },
    );
    expect(seen.sort()).toEqual(['https://img.test/a2.png', 'https://img.test/s2.png']);
    expect(r.html).not.toMatch(/cursor|list-style-image/);
    expect(loadedUrls(r.body, r.css).sort()).toEqual([
      'https://proxy.test/?u=' + encodeURIComponent('https://img.test/a2.png'),
      'https://proxy.test/?u=' + encodeURIComponent('https://img.test/s2.png'),
    ]);
  });

  it("carries the body's colors, background image, dir and style to the container, below and above the sheets", () => {
    const reports: string[] = [];
    const r = sanitizeEmail(
      '<html dir="ltr"><head><style>body{color:navy}</style></head>' +
        '<body bgcolor="#EEE" background="https://img.test/bg.png" text="Teal" link="#00F" dir="RTL" style="margin:0;position:fixed;color:#333" class="b" lang="en">x',
      {
        container: 'm',
        proxyImage: (u) => 'https://proxy.test/?u=' + encodeURIComponent(u),
        onReport: (e) => e.stage === 'policy' && e.element === 'body' && reports.push(`${e.attribute}: ${e.reason ?? e.rule}`),
      },
    );
    expect(r.css).toBe(
      '.m{background-color:#eeeeee;background-image:url("https://proxy.test/?u=https%3A%2F%2Fimg.test%2Fbg.png");color:teal;direction:rtl}\n' +
        ':where(.m a:link){color:#0000ff}\n.m{color:navy;}\n.m{margin:0;color:#333}',
    );
    expect(r.html).toBe('<style>' + r.css + '</style>x');
    expect(r.body).toBe('x');
    expect(reports).toContain('class: the body is replaced by the container');
    // The language goes to the caller, for the container's lang attribute.
    expect(r.lang).toBe('en');
    expect(reports.filter((x) => x.startsWith('lang'))).toEqual([]);
    // Without sheets: the rules alone; the html element's dir when the body has none; colors read as a browser
    // reads them (chucknorris is #c00000), and where it reads none (transparent) reported; a blocked image leaves
    // no rule.
    reports.length = 0;
    const plain = sanitizeEmail('<html dir="rtl"><body bgcolor="chucknorris" background="https://img.test/bg.png" text="transparent">y', {
      container: 'm',
      onReport: (e) => e.stage === 'policy' && e.element === 'body' && reports.push(`${e.attribute}: ${e.reason ?? e.rule}`),
    });
    expect(plain.css).toBe('.m{background-color:#c00000;direction:rtl}\n');
    expect(plain.lang).toBe('');
    expect(sanitizeEmail('<html lang="ja-JP"><body>z', { container: 'm' }).lang).toBe('ja-JP');
    expect(sanitizeEmail('<html lang="ja"><body lang="x y">z', { container: 'm' }).lang).toBe('');
    expect(plain.html).toBe('<style>' + plain.css + '</style>y');
    expect(reports).toEqual(['background: refused by rewrite', 'text: no color (empty or transparent)']);
    expect(sanitizeEmail('<body>z', { container: 'm' }).html).toBe('z');
    // Nothing in a carried value closes the <style> element or breaks out of its rule.
    const hostile = sanitizeEmail('<body style="font-family:&quot;</style><script>x</script>&quot;" background="data:image/png;base64,AA&quot;)}<!--">w', {
      container: 'm',
    });
    expect(hostile.html).not.toMatch(/<\/style>.*<\/style>|<script|<!--/s);
    const sheet = parseFragment(hostile.html, { context: 'div' }).childNodes[0]!;
    expect(sheet.nodeName).toBe('STYLE');
    expect(selectors(hostile.css)).toEqual(['.m', '.m']);
  });

  it('reads a callback that returns nothing (a missing attachment: attachments.get(id)) as a block', () => {
    const attachments = new Map([['logo@x', '/attachments/logo']]);
    const html = '<img src="cid:logo@x"><img src="cid:gone@x"><img src="https://img.test/a.png">';
    const r = sanitizeEmail(html, { container: 'm', resolveCid: (id) => attachments.get(id), proxyImage: () => undefined });
    expect(r.html).toContain('src="/attachments/logo"');
    expect(r.html).not.toMatch(/cid:|gone|img\.test/);
    expect(r.html.match(/<img/g)?.length).toBe(3); // the blocked images stay, without a source
    expect(() => sanitizeEmail(html, { container: 'm', resolveCid: () => 5 as never })).toThrow(/^urls\.rewrite: expected a string or null, got number/);
  });

  it('scopes <style> sheets to the container', () => {
    const r = sanitizeEmail(
      '<style>@import url(https://evil.test/x.css); body{color:red} p, .x{margin:0} @media (max-width:600px){td{display:block}} @font-face{font-family:x;src:url(https://f.test/x.woff)} a{background:url(https://img.test/a.png)}</style><p class="x">t</p>',
      { container: 'c1' },
    );
    expect(r.css).not.toMatch(/@import|@font-face|evil\.test|img\.test/);
    for (const s of selectors(r.css)) for (const part of s.split(',')) expect(part.trim()).toMatch(/^\.c1(?![\w-])/);
    expect(r.css).toContain('@media');
    expect(r.html.startsWith('<style>')).toBe(true);
    expect(() => sanitizeEmail('x', { container: 'a b' })).toThrow(/options\.container/);
    expect(() => sanitizeEmail('x', { proxyImage: 'no' as never })).toThrow(/options\.proxyImage/);
  });

  it('keeps each call\'s callbacks and style sheets to that call (the policy is compiled once for all calls)', () => {
    const img = '<img src="https://a.test/1.png"><img src="cid:part1">';
    const calls: string[] = [];
    // A callback that sanitizes another message in the middle of this one: the inner call has its own callbacks
    // and sheets, and the outer call's are back when it returns.
    const outer = sanitizeEmail('<style>p { color: red }</style>' + img + '<p style="background:url(https://a.test/bg.png)">x</p>', {
      container: 'outer',
      proxyImage: (u) => {
        calls.push('outer ' + u);
        const inner = sanitizeEmail('<style>b { color: blue }</style><img src="https://b.test/2.png">', {
          container: 'inner',
          resolveCid: () => '/att/inner',
        });
        calls.push('inner css ' + inner.css + ' body ' + inner.body);
        return '/proxy/' + encodeURIComponent(u);
      },
      resolveCid: (id) => '/att/' + id,
    });
    expect(outer.body).toBe(
      '<img src="/proxy/https%3A%2F%2Fa.test%2F1.png"><img src="/att/part1">' +
        '<p style="background:url(/proxy/https%3A%2F%2Fa.test%2Fbg.png)">x</p>',
    );
    expect(outer.css).toContain('.outer p');
    expect(outer.css).not.toContain('blue');
    expect(calls.filter((c) => c.startsWith('outer ')).length).toBe(2);
    // The inner call blocked its remote image (no proxyImage of its own) and scoped only its own sheet.
    for (const c of calls.filter((x) => x.startsWith('inner '))) {
      expect(c).toContain('.inner b');
      expect(c).not.toContain('red');
      expect(c).toContain('body <img>');
    }
    // A callback that throws leaves nothing behind for the next call.
    expect(() =>
      sanitizeEmail('<style>i { color: green }</style><img src="https://a.test/3.png">', {
        proxyImage: () => {
          throw new Error('proxy down');
        },
      }),
    ).toThrow('proxy down');
    const after = sanitizeEmail('<img src="https://a.test/4.png"><img src="cid:x"><p>y</p>', { container: 'after' });
    expect(after).toEqual({ html: '<img><img><p>y</p>', body: '<img><img><p>y</p>', css: '', container: 'after', lang: '', cssRemoved: [] });
  });

  it("resolves relative URLs against the message's base element, else baseUrl; drops them without either", () => {
    const proxy = (u: string): string => 'https://proxy.test/?u=' + encodeURIComponent(u);
    const msg = (head: string): string =>
      `<html><head>${head}<style>.x{background:url(img/s.png)}</style></head><body background="bg.png">` +
      '<a href="../archive">a</a><a href="#top">t</a><a href="//cdn.test/x">o</a><a href="http:same">h</a>' +
      '<img src="logo.png" srcset="a.png 1x, /b.png 2x"><div style="background-image:url(\'/s.png\')">x</div><a href="javascript:alert(1)">j</a></body></html>';
    const links = (html: string): (string | null)[] => elements(parseFragment(html, { context: 'div' })).filter((e) => e.localName === 'a').map((e) => e.getAttribute('href'));
    const r = sanitizeEmail(msg('<base href="https://news.test/issue/7/">'), { container: 'c', proxyImage: proxy });
    expect(links(r.body)).toEqual([
      'https://news.test/issue/archive',
      'https://news.test/issue/7/#top',
      'https://cdn.test/x',
      // `http:same` is absolute against an https base, relative against an http one (below).
      'http://same/',
      null,
    ]);
    expect(loadedUrls(r.body, r.css).sort()).toEqual(
      ['https://news.test/issue/7/bg.png', 'https://news.test/issue/7/img/s.png', 'https://news.test/issue/7/logo.png',
        'https://news.test/issue/7/a.png', 'https://news.test/b.png', 'https://news.test/s.png'].map(proxy).sort(),
    );
    // baseUrl (the MIME part's Content-Location) is the fallback: a relative base element resolves against it.
    const m = sanitizeEmail(msg('<base target="_blank"><base href="sub/"><base href="https://ignored.test/">'), { container: 'c', baseUrl: 'http://mime.test/dir/page.html' });
    expect(links(m.body)).toEqual(['http://mime.test/dir/archive', 'http://mime.test/dir/sub/#top', 'http://cdn.test/x', 'http://mime.test/dir/sub/same', null]);
    // No base: relative URLs would point at the page showing the message; dropped, but for scheme-relative ones.
    const none = sanitizeEmail(msg(''), { container: 'c', proxyImage: proxy });
    expect(links(none.body)).toEqual([null, null, 'https://cdn.test/x', 'http://same/', null]);
    expect(loadedUrls(none.body, none.css)).toEqual([]);
    // A base element that fails to parse, or of data: or javascript:, leaves the fallback (the standard); one of
    // another scheme is what relative URLs resolve against, and only what comes out http(s), mailto: or tel: is kept.
    for (const bad of ['http://[bad', 'javascript:alert(1)//', 'data:text/html,x']) {
      expect(links(sanitizeEmail(msg(`<base href="${bad}">`), { container: 'c', baseUrl: 'https://mime.test/' }).body)[0]).toBe('https://mime.test/archive');
      expect(links(sanitizeEmail(msg(`<base href="${bad}">`), { container: 'c' }).body)[0]).toBe(null);
    }
    expect(links(sanitizeEmail(msg('<base href="mailto:x@y.test">'), { container: 'c' }).body)).toEqual([null, 'mailto:x@y.test#top', null, 'http://same/', null]);
    expect(links(sanitizeEmail(msg('<base href="ftp://f.test/d/">'), { container: 'c' }).body)).toEqual([null, null, null, 'http://same/', null]);
    // Each call has its own base: the last message's does not stay.
    expect(links(sanitizeEmail('<a href="x">x</a>', { container: 'c' }).body)).toEqual([null]);
    // The plain policy takes baseUrl too (the message's base element is read by sanitizeEmail only).
    expect(links(sanitize('<base href="https://no.test/"><a href="x">x</a>', { policy: emailPolicy({ baseUrl: 'https://e.test/d/' }) }))).toEqual(['https://e.test/d/x']);
  });

  it('refuses a baseUrl that is not an absolute http or https URL, naming the option', () => {
    for (const bad of [1, null, '', '/rel', 'ftp://x.test/', 'javascript:alert(1)', 'data:,x', 'http://[bad']) {
      expect(() => sanitizeEmail('x', { baseUrl: bad as string })).toThrow(/^sanitizeEmail: options\.baseUrl: expected (a string|an absolute http or https URL)/);
      expect(() => emailPolicy({ baseUrl: bad as string })).toThrow(/^emailPolicy: options\.baseUrl: /);
    }
    expect(() => sanitizeEmail('x', { baseUrl: 'HTTPS://Mail.Test/a b' })).not.toThrow();
  });

  it('names each default container differently', () => {
    const names = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const { container, html } = sanitizeEmail('<style>p { margin: 0 }</style><p>x</p>');
      expect(container).toMatch(/^htmlsift-email-[0-9a-z]{2,14}$/);
      expect(html.startsWith('<style>.' + container + ' p')).toBe(true);
      names.add(container);
    }
    expect(names.size).toBe(300);
  });

  it('decodes bytes with the given charset', () => {
    const bytes = Uint8Array.from([...Buffer.from('<p>caf'), 0xe9, ...Buffer.from('</p>')]);
    expect(sanitizeEmail(bytes, { charset: 'windows-1252', container: 'm' }).body).toBe('<p>café</p>');
  });

  const files = corpusFiles('email', 'email corpus');
  const retained: number[] = [];
  it.runIf(files.length > 0).each(files)('email/$name: fixed point, words kept, no unapproved remote URL, scoped CSS', ({ path }) => {
    const input = readCorpus(path);
    const r = sanitizeEmail(input, { container: 'mailbox', proxyImage });
    // Fixed point: the body markup sanitized again (same policy and callback) is unchanged.
    const again = emailPolicy({ proxyImage: (u) => (u.startsWith(PROXY) ? u : proxyImage(u)) });
    expect(sanitize(r.body, { policy: again, context: 'div' })).toBe(r.body);
    const blocked = sanitizeEmail(input, { container: 'm' }).body;
    expect(sanitize(blocked, { policy: email, context: 'div' })).toBe(blocked);

    const rate = retention(visibleText(parseDocument(input)), visibleText(parseFragment(r.body, { context: 'div' })));
    retained.push(rate);
    expect(rate).toBeGreaterThanOrEqual(0.97);

    for (const u of loadedUrls(r.body, r.css)) expect(u.startsWith(PROXY) || u.startsWith('data:'), u).toBe(true);

    // Scoped CSS cannot style outside its container: every selector, run in a page holding the same markup
    // outside and inside the container, matches nothing outside.
    const dom = new JSDOM(`<!doctype html><body><div id="outside">${r.body}</div><div class="mailbox" id="inside">${r.body}</div></body>`);
    const d = dom.window.document;
    const outside = d.getElementById('outside')!;
    if (/<style/i.test(input)) expect(selectors(r.css).length).toBeGreaterThan(0);
    for (const list of selectors(r.css)) {
      for (const sel of list.split(',')) {
        expect(sel.trim()).toMatch(/^\.mailbox(?![\w-])/);
        let matched: ArrayLike<globalThis.Element>;
        try {
          matched = d.querySelectorAll(sel);
        } catch {
          matched = d.querySelectorAll(sel.replace(/::?[a-z-]+(\([^)]*\))?/gi, ''));
        }
        for (const m of Array.from(matched)) expect(outside.contains(m) || m === d.body || m === outside, sel).toBe(false);
      }
    }
    dom.window.close();
  });

  it.runIf(files.length > 0)('reports word retention', () => {
    console.log(`[email] word retention: min ${(Math.min(...retained) * 100).toFixed(2)}%, mean ${((retained.reduce((a, b) => a + b, 0) / retained.length) * 100).toFixed(2)}% over ${retained.length} files`);
    expect(retained.length).toBe(files.length);
  });
});
