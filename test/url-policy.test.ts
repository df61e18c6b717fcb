/**
 * URL policy: a table of tricky attribute values (already entity-decoded, as the HTML tokenizer delivers them).
 * Expected values are worked out from the URL Standard (basic URL parser) and Fetch's data: URL processor.
 */
import { describe, expect, it } from 'vitest';
import { decodeHTMLAttribute } from 'entities';
import {
  type UrlContext,
  type UrlPolicy,
  checkUrl,
  checkUrlList,
  cleanUrl,
  cssUrlRewriter,
  dataUrlMimeType,
  schemeOf,
  urlKind,
  urlScheme,
} from '../src/url/url-policy.js';

const POLICIES: Record<string, UrlPolicy> = {
  keep: { schemes: ['http', 'https', 'mailto'], relative: 'keep' },
  drop: { schemes: ['http', 'https', 'mailto'], relative: 'drop' },
  resolve: { schemes: ['http', 'https'], relative: 'resolve', base: 'https://mail.example/inbox/msg?id=1' },
  nobase: { schemes: ['https'], relative: 'resolve' },
  httpbase: { schemes: ['https'], relative: 'resolve', base: 'http://plain.example/' },
  data: { schemes: ['https', 'data'], relative: 'drop' },
};

type Row = [input: string, policy: string, action: 'keep' | 'drop', valueOrReason: string, form?: string];

const TABLE: Row[] = [
  // Obfuscated script URLs: all seen as javascript/vbscript after cleaning.
  ['javascript:alert(1)', 'keep', 'drop', 'scheme not allowed: javascript', 'absolute'],
  ['JaVaScRiPt:alert(1)', 'keep', 'drop', 'scheme not allowed: javascript'],
  [' javascript:alert(1)', 'keep', 'drop', 'scheme not allowed: javascript'],
  ['\tjavascript:alert(1)', 'keep', 'drop', 'scheme not allowed: javascript'],
  ['java\tscript:alert(1)', 'keep', 'drop', 'scheme not allowed: javascript'],
  ['java\nscript:alert(1)', 'keep', 'drop', 'scheme not allowed: javascript'],
  ['java\rscript:alert(1)', 'keep', 'drop', 'scheme not allowed: javascript'],
  ['jav\tascript\n:alert(1)', 'keep', 'drop', 'scheme not allowed: javascript'],
  ['\u0001javascript:alert(1)', 'keep', 'drop', 'scheme not allowed: javascript'],
  ['\u0000javascript:alert(1)', 'keep', 'drop', 'scheme not allowed: javascript'],
  ['\u001f\u0020javascript:alert(1)\u0000 ', 'keep', 'drop', 'scheme not allowed: javascript'],
  ['  \n javascript:alert(1)  ', 'keep', 'drop', 'scheme not allowed: javascript'],
  ['javascript://%0aalert(1)', 'keep', 'drop', 'scheme not allowed: javascript'],
  ['javascript\t:alert(1)', 'keep', 'drop', 'scheme not allowed: javascript'],
  ['vbscript:msgbox(1)', 'keep', 'drop', 'scheme not allowed: vbscript'],
  ['VBScript:msgbox(1)', 'keep', 'drop', 'scheme not allowed: vbscript'],
  ['livescript:x', 'keep', 'drop', 'scheme not allowed: livescript'],
  ['javascript:alert(1)', 'resolve', 'drop', 'scheme not allowed: javascript'],
  // Not schemes at all: the URL parser falls back to "no scheme", so these are harmless relative paths.
  ['\u00a0javascript:alert(1)', 'keep', 'keep', '\u00a0javascript:alert(1)', 'path-relative'],
  ['java\u0000script:alert(1)', 'keep', 'keep', 'java\u0000script:alert(1)', 'path-relative'],
  ['javascript&colon;alert(1)', 'keep', 'keep', 'javascript&colon;alert(1)', 'path-relative'],
  ['javascript :alert(1)', 'keep', 'keep', 'javascript :alert(1)', 'path-relative'],
  ['ja\u200bvascript:alert(1)', 'keep', 'keep', 'ja\u200bvascript:alert(1)', 'path-relative'],
  ['JAVASCR\u0130PT:alert(1)', 'keep', 'keep', 'JAVASCR\u0130PT:alert(1)', 'path-relative'],
  ['./javascript:alert(1)', 'keep', 'keep', './javascript:alert(1)', 'path-relative'],
  ['\u00a0javascript:alert(1)', 'drop', 'drop', 'relative URL'],
  // Other schemes.
  ['data:text/html,<script>alert(1)</script>', 'keep', 'drop', 'scheme not allowed: data'],
  ['file:///etc/passwd', 'keep', 'drop', 'scheme not allowed: file'],
  ['about:blank', 'keep', 'drop', 'scheme not allowed: about'],
  ['blob:https://x.example/0b1c', 'keep', 'drop', 'scheme not allowed: blob'],
  ['jar:http://x.example!/a', 'keep', 'drop', 'scheme not allowed: jar'],
  ['ftp://x.example/', 'keep', 'drop', 'scheme not allowed: ftp'],
  ['c:\\windows\\system32', 'keep', 'drop', 'scheme not allowed: c'],
  ['ms-its:mhtml:file://x', 'keep', 'drop', 'scheme not allowed: ms-its'],
  ['x-y+z.w:1', 'keep', 'drop', 'scheme not allowed: x-y+z.w'],
  // Allowed absolute URLs are emitted as the parser's href.
  ['https://example.com', 'keep', 'keep', 'https://example.com/', 'absolute'],
  ['HTTPS://EXAMPLE.COM/A', 'keep', 'keep', 'https://example.com/A'],
  ['http://example.com/a b', 'keep', 'keep', 'http://example.com/a%20b'],
  ['https:\\\\example.com\\a', 'keep', 'keep', 'https://example.com/a'],
  ['https:example.com', 'keep', 'keep', 'https://example.com/'],
  ['  https://example.com/x  ', 'keep', 'keep', 'https://example.com/x'],
  ['https://exa\tmple.com/x\n', 'keep', 'keep', 'https://example.com/x'],
  ['https://user:pw@example.com/', 'keep', 'keep', 'https://user:pw@example.com/'],
  ['http://[::1]:80/', 'keep', 'keep', 'http://[::1]/'],
  ['https://\u4f8b\u3048.jp/', 'keep', 'keep', 'https://xn--r8jz45g.jp/'],
  ['mailto:a@b.example', 'keep', 'keep', 'mailto:a@b.example'],
  ['MAILTO:a@b.example?subject=hi there', 'keep', 'keep', 'mailto:a@b.example?subject=hi%20there'],
  ['https://ex ample.com/', 'keep', 'drop', 'invalid URL'],
  ['http://%zz/', 'keep', 'drop', 'invalid URL'],
  ['https://a.example:99999/', 'keep', 'drop', 'invalid URL'],
  // Relative forms kept as written (cleaned).
  ['/path/x', 'keep', 'keep', '/path/x', 'path-absolute'],
  ['path/x.html', 'keep', 'keep', 'path/x.html', 'path-relative'],
  ['../x', 'keep', 'keep', '../x', 'path-relative'],
  ['?q=1', 'keep', 'keep', '?q=1', 'query'],
  ['#frag', 'keep', 'keep', '#frag', 'fragment'],
  ['', 'keep', 'keep', '', 'empty'],
  ['  /a\tb\n ', 'keep', 'keep', '/ab', 'path-absolute'],
  ['//evil.example/x', 'keep', 'keep', '//evil.example/x', 'scheme-relative'],
  ['\\\\evil.example\\x', 'keep', 'keep', '\\\\evil.example\\x', 'scheme-relative'],
  ['/\\evil.example', 'keep', 'keep', '/\\evil.example', 'scheme-relative'],
  ['\\/evil.example', 'keep', 'keep', '\\/evil.example', 'scheme-relative'],
  ['//exa mple.com/', 'keep', 'drop', 'invalid URL', 'scheme-relative'],
  // relative: 'drop'.
  ['/path', 'drop', 'drop', 'relative URL', 'path-absolute'],
  ['#frag', 'drop', 'drop', 'relative URL', 'fragment'],
  ['//evil.example/', 'drop', 'drop', 'relative URL', 'scheme-relative'],
  ['https://ok.example/', 'drop', 'keep', 'https://ok.example/'],
  // relative: 'resolve' against https://mail.example/inbox/msg?id=1.
  ['img.png', 'resolve', 'keep', 'https://mail.example/inbox/img.png'],
  ['/img.png', 'resolve', 'keep', 'https://mail.example/img.png'],
  ['//cdn.example/a', 'resolve', 'keep', 'https://cdn.example/a'],
  ['\\\\evil.example', 'resolve', 'keep', 'https://evil.example/'],
  ['?x', 'resolve', 'keep', 'https://mail.example/inbox/msg?x'],
  ['#top', 'resolve', 'keep', 'https://mail.example/inbox/msg?id=1#top'],
  ['', 'resolve', 'keep', 'https://mail.example/inbox/msg?id=1'],
  ['https:foo', 'resolve', 'keep', 'https://mail.example/inbox/foo'],
  ['http:foo', 'resolve', 'keep', 'http://foo/'],
  ['img.png', 'nobase', 'drop', 'relative URL with no base'],
  ['img.png', 'httpbase', 'drop', 'scheme not allowed: http'],
  // data: URLs by MIME type.
  ['data:image/png;base64,iVBORw0KGgo=', 'data', 'keep', 'data:image/png;base64,iVBORw0KGgo='],
  ['DATA:IMAGE/PNG;BASE64,iVBORw0KGgo=', 'data', 'keep', 'DATA:IMAGE/PNG;BASE64,iVBORw0KGgo='.replace('DATA', 'data')],
  ['data: image/png ;base64,AAAA', 'data', 'keep', 'data: image/png ;base64,AAAA'],
  ['data:image/gif;charset=x;base64,R0lG', 'data', 'keep', 'data:image/gif;charset=x;base64,R0lG'],
  ['data:image/svg+xml,<svg onload=alert(1)>', 'data', 'drop', 'data: MIME type not allowed: image/svg+xml'],
  ['data:text/html;base64,PHNjcmlwdD4=', 'data', 'drop', 'data: MIME type not allowed: text/html'],
  ['data:,hello', 'data', 'drop', 'data: MIME type not allowed: text/plain'],
  ['data:;base64,AAAA', 'data', 'drop', 'data: MIME type not allowed: text/plain'],
  ['data:image/png', 'data', 'drop', 'invalid data: URL'],
  ['da\nta:text/html,x', 'data', 'drop', 'data: MIME type not allowed: text/html'],
];

describe('checkUrl: table of tricky URLs', () => {
  it('has at least 60 rows', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(60);
  });

  it.each(TABLE)('%j with policy %s -> %s', (input, policy, action, valueOrReason, form) => {
    const d = checkUrl(input, POLICIES[policy]!);
    expect(d.action).toBe(action);
    if (action === 'drop') {
      expect(d.value).toBeNull();
      expect(d.reason).toBe(valueOrReason);
    } else {
      expect(d.value).toBe(valueOrReason);
    }
    if (form !== undefined) expect(d.form).toBe(form);
    // Whatever is kept, a browser resolving it against any http(s) page gets an allowed scheme.
    if (d.value !== null) {
      const resolved = new URL(d.value, 'https://page.example/dir/doc');
      expect(POLICIES[policy]!.schemes).toContain(resolved.protocol.slice(0, -1));
    }
  });
});

describe('values as the HTML tokenizer delivers them (character references decoded first)', () => {
  // The attribute text as written in the HTML source; entities' spec-conformant decoder stands in for the
  // tokenizer's character reference handling.
  it.each([
    ['&#x6A;avascript:alert(1)', 'javascript'],
    ['&#106;avascript:alert(1)', 'javascript'],
    ['&#0000106;&#0000097;vascript:alert(1)', 'javascript'],
    ['jav&#x09;ascript:alert(1)', 'javascript'],
    ['jav&Tab;ascript:alert(1)', 'javascript'],
    ['java&NewLine;script:alert(1)', 'javascript'],
    ['javascript&colon;alert(1)', 'javascript'],
    ['&#x20;&#x01;javascript:alert(1)', 'javascript'],
    ['vbscript&#58;msgbox(1)', 'vbscript'],
    ['&#x64;ata:text/html,x', 'data'],
  ])('%j is refused as %s', (source, scheme) => {
    const d = checkUrl(decodeHTMLAttribute(source), POLICIES.keep!);
    expect(d.action).toBe('drop');
    expect(d.scheme).toBe(scheme);
  });

  it('schemes in the policy are matched case-insensitively, with or without a colon', () => {
    expect(checkUrl('HTTPS://a.example/', { schemes: ['HTTPS:'], relative: 'drop' }).action).toBe('keep');
    expect(checkUrl('mailto:x@y', { schemes: ['MailTo'], relative: 'drop' }).action).toBe('keep');
    expect(checkUrl('mailto:x@y', { schemes: ['mail'], relative: 'drop' }).action).toBe('drop');
  });
});

describe('cleaning and scheme detection', () => {
  it('cleanUrl strips C0/space at the ends and tab/newline everywhere', () => {
    expect(cleanUrl('\u0000\u0001 a\tb\nc\rd \u001f')).toBe('abcd');
    expect(cleanUrl('a b')).toBe('a b');
    expect(cleanUrl('\u00a0a')).toBe('\u00a0a');
  });

  it('urlScheme follows the scheme state', () => {
    expect(urlScheme('HTTP://x')).toBe('http');
    expect(urlScheme('a+b-c.d:')).toBe('a+b-c.d');
    expect(urlScheme('1a:')).toBeNull();
    expect(urlScheme('+a:')).toBeNull();
    expect(urlScheme('a_b:')).toBeNull();
    expect(urlScheme('abc')).toBeNull();
    expect(urlScheme(':a')).toBeNull();
  });

  it('agrees with the URL parser on the scheme of absolute URLs', () => {
    for (const s of ['javascript:x', 'JAVASCRIPT:x', 'a+b:x', 'c:\\x', 'mailto:x', 'data:,x', 'x.y-z:1']) {
      expect(urlScheme(cleanUrl(s))).toBe(new URL(cleanUrl(s)).protocol.slice(0, -1));
    }
  });

  it('schemeOf(v) is urlScheme(cleanUrl(v)) for every string of up to 4 characters over a mixed alphabet', () => {
    // Letters of both cases, a digit, scheme punctuation, the colon, the removed tab/LF/CR, a stripped C0
    // control and space, a non-scheme character: 15 characters, 54,241 strings.
    const alphabet = ['j', 'A', '1', '+', '.', ':', '\t', '\n', '\r', '\u0000', ' ', '/', '\u00a0', 's', '-'];
    let strings = [''];
    let all: string[] = [''];
    for (let len = 1; len <= 4; len++) {
      strings = strings.flatMap((p) => alphabet.map((c) => p + c));
      all = all.concat(strings);
    }
    expect(all.length).toBe(54241);
    const wrong = all.filter((v) => schemeOf(v) !== urlScheme(cleanUrl(v)));
    expect(wrong).toEqual([]);
    for (const v of ['java\nscript:x', ' \u0001JaVa\tScRiPt:alert(1)', 'https://x/?a=b:c', 'data:text/html,x', 'a b:c', 'x']) {
      expect(schemeOf(v)).toBe(urlScheme(cleanUrl(v)));
    }
    expect(schemeOf(' \u0001JaVa\tScRiPt:alert(1)')).toBe('javascript');
  });

  it('dataUrlMimeType', () => {
    expect(dataUrlMimeType('data:image/PNG;base64,x')).toBe('image/png');
    expect(dataUrlMimeType('data:text/plain;charset=utf-8,x')).toBe('text/plain');
    expect(dataUrlMimeType('data:bogus,x')).toBe('text/plain');
    expect(dataUrlMimeType('data:x')).toBeNull();
  });
});

describe('rewrite callback', () => {
  const ctx: UrlContext = { element: 'img', attribute: 'src', kind: 'image' };

  it('proxies images, receiving a URL object for absolute URLs', () => {
    const seen: unknown[] = [];
    const d = checkUrl('https://img.example/a.png', {
      schemes: ['https'],
      relative: 'drop',
      rewrite: (u, c) => {
        seen.push(u instanceof URL, c.kind);
        return 'https://proxy.example/?u=' + encodeURIComponent(String(u));
      },
    }, ctx);
    expect(seen).toEqual([true, 'image']);
    expect(d).toMatchObject({ action: 'rewrite', value: 'https://proxy.example/?u=https%3A%2F%2Fimg.example%2Fa.png' });
  });

  it('resolves cid: references', () => {
    const parts: Record<string, string> = { 'part1@mail': 'blob:https://mail.example/1234' };
    const policy: UrlPolicy = {
      schemes: ['https', 'cid'],
      relative: 'drop',
      rewrite: (u) => (typeof u !== 'string' && u.protocol === 'cid:' ? (parts[u.pathname] ?? null) : String(u)),
    };
    expect(checkUrl('cid:part1@mail', policy, ctx)).toMatchObject({ action: 'rewrite', value: 'blob:https://mail.example/1234' });
    expect(checkUrl('CID:missing@mail', policy, ctx)).toMatchObject({ action: 'drop', reason: 'refused by rewrite' });
    expect(checkUrl('https://x.example/', policy, ctx)).toMatchObject({ action: 'keep', value: 'https://x.example/' });
  });

  it('refuses script URLs coming back from a rewrite, and gets strings for kept relative URLs', () => {
    const got: unknown[] = [];
    const policy = (out: string): UrlPolicy => ({
      schemes: ['https'],
      relative: 'keep',
      rewrite: (u) => {
        got.push(typeof u);
        return out;
      },
    });
    expect(checkUrl('a.png', policy('javascript:alert(1)')).action).toBe('drop');
    expect(checkUrl('a.png', policy(' java\tscript:alert(1)')).action).toBe('drop');
    expect(checkUrl('a.png', policy('VBScript:x')).action).toBe('drop');
    expect(checkUrl('a.png', policy('a.png')).action).toBe('keep');
    expect(got).toEqual(['string', 'string', 'string', 'string']);
  });

  it("holds a data: URL a rewrite returns to the policy's data: types, and refuses what is not a string or null", () => {
    const policy = (out: unknown, dataMimeTypes?: string[]): UrlPolicy => ({
      schemes: ['https'],
      relative: 'keep',
      ...(dataMimeTypes ? { dataMimeTypes } : {}),
      rewrite: () => out as string,
    });
    expect(checkUrl('https://a/', policy('data:text/html,<script>alert(1)</script>'))).toMatchObject({
      action: 'drop',
      reason: 'rewrite returned a data: URL of a type not allowed: text/html',
    });
    expect(checkUrl('https://a/', policy('DATA:image/svg+xml,<svg onload=alert(1)>')).action).toBe('drop');
    expect(checkUrl('https://a/', policy('data:,x')).action).toBe('drop'); // text/plain: not an image type
    expect(checkUrl('https://a/', policy('data:image/png;base64,AAAA'))).toMatchObject({ action: 'rewrite', value: 'data:image/png;base64,AAAA' });
    expect(checkUrl('https://a/', policy('data:image/svg+xml,<svg/>', ['image/svg+xml'])).action).toBe('rewrite');
    for (const bad of [undefined, 5, {}, ['https://b/']]) {
      expect(() => checkUrl('https://a/', policy(bad))).toThrow(/^urls\.rewrite: expected a string or null, got \w+ for "https:\/\/a\/"$/);
    }
  });
});

describe('helpers', () => {
  it('urlKind', () => {
    expect(urlKind('a', 'href')).toBe('link');
    expect(urlKind('img', 'src')).toBe('image');
    expect(urlKind('img', 'srcset')).toBe('image');
    expect(urlKind('video', 'poster')).toBe('image');
    expect(urlKind('source', 'src')).toBe('media');
    expect(urlKind('form', 'action')).toBe('form');
    expect(urlKind('button', 'formaction')).toBe('form');
    expect(urlKind('image', 'xlink:href')).toBe('image');
    expect(urlKind('use', 'href')).toBe('object');
    expect(urlKind('td', 'background')).toBe('image');
    expect(urlKind('iframe', 'src')).toBe('frame');
  });

  it('cssUrlRewriter plugs a URL policy into the CSS declaration filter', () => {
    const rw = cssUrlRewriter({ schemes: ['https'], relative: 'resolve', base: 'https://m.example/a/' });
    expect(rw('b.png')).toBe('https://m.example/a/b.png');
    expect(rw(' java\tscript:alert(1)')).toBeNull();
  });

  it('checkUrlList keeps the allowed URLs of a space-separated list', () => {
    expect(checkUrlList(' https://a.example/p  javascript:x\thttps://b.example/q ', POLICIES.keep!)).toBe(
      'https://a.example/p https://b.example/q',
    );
    expect(checkUrlList('javascript:x', POLICIES.keep!)).toBeNull();
  });
});
