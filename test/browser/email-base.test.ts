/**
 * `sanitizeEmail` resolves a message's relative URLs as a browser showing the message would: against the message's
 * first `<base href>` (itself resolved against `baseUrl`), else against `baseUrl`. Chromium is the oracle: the
 * original message is loaded at the URL given as `baseUrl`, and every URL in it is resolved there with the page's
 * own base (`new URL(value, document.baseURI)`). Generated messages have zero to two base elements (with and without
 * `href`, relative, absolute, `data:`, `javascript:`, unparseable, in the head or among the links) and URLs of every
 * relative form (and absolute ones) in links, images, `srcset`, a cell's `background`, a `style` attribute and a
 * `<style>` sheet. Expected of the sanitized message, shown in a page at another URL: a link's `href` is the URL
 * Chromium resolved when that is an http, https, mailto or tel URL, else none; an image's (and a background's) is
 * that URL through the proxy when it is http or https, else none (computed styles compared for the CSS ones).
 *
 *   npx vitest run --config vitest.browser.config.ts test/browser/email-base.test.ts
 *   HTMLSIFT_EMAIL_CASES=2000 HTMLSIFT_SEED=7 ...   # more messages, another seed
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumSkipReason } from './chromium.js';
import { EmailPages } from './email-pages.js';
import { sanitizeEmail } from '../../policies/index.js';
import { mulberry32 } from '../support/random.js';

const SUITE = 'email-base';
const CASES = Number(process.env.HTMLSIFT_EMAIL_CASES ?? 200);
const SEED = Number(process.env.HTMLSIFT_SEED ?? 2026112951);
const PROXY = 'https://proxy.test/?u=';

const skip = chromiumSkipReason(SUITE);

/** URLs as written in attributes (HTML-escaped where needed), of every form. */
const REFS = [
  'a.png', './b.png', '../up/c.png', '../../../../../top.png', '/root/d.png', '//cdn.test/e.png', '\\\\cdn.test\\f.png',
  '?q=1', '#frag', '', '  sp.png  ', 'sp ace.png', 'tab\tin.png', 'nl\nin.png', '\u00fc.png', '%41.png', '..', '.', '/',
  'a.png?x=1&amp;y=2', 'https://abs.test/g.png', 'HTTP://ABS.TEST:80/H.PNG', 'http://abs.test:8080/i.png',
  'http://[::1]/j.png', 'x:y', 'javascript:alert(1)', 'https:k.png', 'http:/l.png', '///m.png', 'data:image/png;base64,AAAA',
];
/** Also for links. */
const LINK_REFS = [...REFS, 'mailto:a@b.test', 'tel:+1-555', 'ftp://f.test/'];
/** The CSS ones: no quote, backslash or line break (written in url("...")). */
const CSS_REFS = REFS.filter((r) => !/["'\\\n]|&amp;/.test(r));
/** Base element `href`s. */
const BASES = [
  'https://news.test/issue/7/', 'http://news.test/a/b', '/root/', 'sub/', '../up/', '//cdn2.test/p/', '', ' https://sp.test/x/ ',
  'javascript:alert(1)//', 'data:text/html,x', 'http://[bad', 'https://news.test/q?x=1#f', 'mailto:x@y.test', 'ftp://f.test/d/',
  'HTTPS://UP.TEST/A/', '?only=query', '#only',
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

interface Message {
  html: string;
  /** The URLs, in the order the page lists them (see LIST). */
  links: string[];
  images: string[];
  srcsets: string[];
  backgrounds: string[];
  styles: string[];
  sheet: string | null;
}

function message(random: () => number): Message {
  const m: Message = { html: '', links: [], images: [], srcsets: [], backgrounds: [], styles: [], sheet: null };
  const base = (): string => (random() < 0.15 ? '<base target="_top">' : `<base href="${pick(random, BASES)}">`);
  const head: string[] = [];
  const body: string[] = [];
  if (random() < 0.7) head.push(base());
  if (random() < 0.5) {
    m.sheet = pick(random, CSS_REFS);
    head.push(`<style>.k{background-image:url("${m.sheet}")}</style>`);
  }
  const n = 2 + Math.floor(random() * 5);
  for (let i = 0; i < n; i++) {
    if (random() < 0.1) body.push(base());
    switch (Math.floor(random() * 5)) {
      case 0: {
        const r = pick(random, LINK_REFS);
        m.links.push(r);
        body.push(`<a href="${r}">l</a>`);
        break;
      }
      case 1: {
        const r = pick(random, REFS);
        m.images.push(r);
        body.push(`<img src="${r}" alt="i">`);
        break;
      }
      case 2: {
        const r = pick(random, REFS.filter((x) => !/[\s,]/.test(x) && x !== ''));
        m.srcsets.push(r);
        body.push(`<img srcset="${r} 2x" alt="s">`);
        break;
      }
      case 3: {
        const r = pick(random, REFS);
        m.backgrounds.push(r);
        body.push(`<table><tr><td background="${r}">c</td></tr></table>`);
        break;
      }
      default: {
        const r = pick(random, CSS_REFS);
        m.styles.push(r);
        body.push(`<div style="background-image:url('${r}')">s</div>`);
      }
    }
  }
  if (m.sheet !== null) body.push('<div class="k">k</div>');
  m.html = `<!DOCTYPE html><html><head>${head.join('')}</head><body>${body.join('')}</body></html>`;
  return m;
}

/** What a page lists: per kind, in document order. */
interface Listing {
  base: string;
  links: (string | null)[];
  images: (string | null)[];
  srcsets: (string | null)[];
  backgrounds: (string | null)[];
  styles: string[];
  sheet: string | null;
}

const pages = new EmailPages();

/** Loads `markup` at `url` and lists the URLs in it: attributes as written, and computed background images. */
async function list(markup: string, url: string): Promise<Listing> {
  const page = await pages.load(markup, url);
  return page.evaluate(() => {
    const attr = (sel: string, name: string) => [...document.querySelectorAll(sel)].map((e) => e.getAttribute(name));
    return {
      base: document.baseURI,
      links: attr('a', 'href'),
      images: attr('img[alt=i]', 'src'),
      srcsets: attr('img[alt=s]', 'srcset'),
      backgrounds: attr('td', 'background'),
      styles: [...document.querySelectorAll('div:not(.k)')].map((e) => getComputedStyle(e).backgroundImage),
      sheet: document.querySelector('.k') ? getComputedStyle(document.querySelector('.k')!).backgroundImage : null,
    };
  });
}

/**
 * The URLs resolved in the original's page, by Chromium's URL parser against the page's base. One departure from
 * the standard (Chromium 156): a base element's `href` that fails to parse makes the document base URL
 * `about:blank`, where the standard ("set the frozen base URL") falls back to the document's URL; the standard is
 * followed, and such messages counted.
 */
let deviated = false;
async function resolveAll(refs: string[]): Promise<(string | null)[]> {
  const [urls, departs] = await pages.page.evaluate((rs) => {
    const departs = document.baseURI === 'about:blank' && document.querySelector('base[href]') !== null;
    const base = departs ? location.href : document.baseURI;
    const urls = rs.map((r) => {
      // As the HTML parser decodes the attribute (only &amp; is written).
      const v = r.replace(/&amp;/g, '&');
      try {
        return new URL(v, base).href;
      } catch {
        return null;
      }
    });
    return [urls, departs] as const;
  }, refs);
  deviated ||= departs;
  return urls;
}

const isHttp = (u: string | null): boolean => u !== null && /^https?:/.test(u);
/** An image URL as the email policy leaves it: http and https through the proxy, raster `data:` kept, else none. */
const proxied = (u: string | null): string | null => {
  if (isHttp(u)) return PROXY + encodeURIComponent(u!);
  return u !== null && u.startsWith('data:image/png') ? u : null;
};
const cssImage = (u: string | null): string => (u === null ? 'none' : `url("${u}")`);

describe.skipIf(skip !== null)("sanitizeEmail resolves relative URLs as Chromium does against the message's base", () => {
  beforeAll(() => pages.open());
  afterAll(() => pages.close());

  test(`${CASES} generated messages`, async () => {
    const random = mulberry32(SEED);
    const differences: string[] = [];
    let resolved = 0;
    let deviations = 0;
    for (let i = 0; i < CASES; i++) {
      const m = message(random);
      deviated = false;
      const baseUrl = pages.freshUrl('dir/page.html');
      await list(m.html, baseUrl);
      const expected = {
        links: (await resolveAll(m.links)).map((u) => (u !== null && /^(https?|mailto|tel):/.test(u) ? u : null)),
        images: (await resolveAll(m.images)).map(proxied),
        srcsets: (await resolveAll(m.srcsets)).map((u) => (proxied(u) !== null ? proxied(u) + ' 2x' : null)),
        backgrounds: (await resolveAll(m.backgrounds)).map(proxied),
        styles: (await resolveAll(m.styles)).map((u) => cssImage(proxied(u))),
        sheet: m.sheet === null ? null : cssImage(proxied((await resolveAll([m.sheet]))[0]!)),
      };
      const out = sanitizeEmail(m.html, { container: 'm', baseUrl, proxyImage: (u) => PROXY + encodeURIComponent(u) });
      const ours = await list(`<!DOCTYPE html><html><head></head><body><main class="m">${out.html}</main></body></html>`, pages.freshUrl('other/'));
      for (const k of ['links', 'images', 'srcsets', 'backgrounds', 'styles', 'sheet'] as const) {
        const want = JSON.stringify(expected[k]);
        const got = JSON.stringify(ours[k]);
        if (want !== got) differences.push(`${m.html}\n  ${k}: Chromium ${want}\n  ours     ${got}`);
      }
      resolved += expected.links.filter((u) => u !== null).length;
      if (deviated) deviations++;
    }
    expect(differences.slice(0, 5)).toEqual([]);
    if (deviations > 0) console.log(`[${SUITE}] ${deviations} messages with an unparseable base element: resolved against the standard's fallback, not Chromium's about:blank`);
    // The cases do resolve URLs.
    expect(resolved).toBeGreaterThan(CASES / 2);
  });
});
