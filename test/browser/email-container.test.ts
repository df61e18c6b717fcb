/**
 * `sanitizeEmail`'s container stands in for the message's body: Chromium must compute, for the container holding
 * the sanitized markup, the same style as it does for the body of the original message. Generated messages combine
 * the body attributes `sanitizeEmail` carries over (`bgcolor`, `text` and `link`, plain colors and values only the
 * legacy color rules make a color of, `background`, `dir`, `style` with properties the email policy keeps), the `html` element's `dir`, and `<style>`
 * sheets with `body` and link rules, so that the order of presentational hints, sheet rules and the inline style
 * is exercised. Compared: background color and image (the original's URL as the proxy callback rewrote it),
 * direction, color, font size, text alignment, padding, the locale (`-webkit-locale`, from `lang`: the caller puts
 * `SanitizedEmail.lang` on the container), and a link's color and font size. Requests are all
 * refused but the page's own: nothing is loaded.
 *
 *   npx vitest run --config vitest.browser.config.ts test/browser/email-container.test.ts
 *   HTMLSIFT_EMAIL_CASES=2000 HTMLSIFT_SEED=7 ...   # more messages, another seed
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumSkipReason } from './chromium.js';
import { EmailPages } from './email-pages.js';
import { sanitizeEmail } from '../../policies/index.js';
import { mulberry32 } from '../support/random.js';

const SUITE = 'email-container';
const CASES = Number(process.env.HTMLSIFT_EMAIL_CASES ?? 200);
const SEED = Number(process.env.HTMLSIFT_SEED ?? 2026112950);
const PROXY = 'https://proxy.test/?u=';
const PROPERTIES = ['background-color', 'background-image', 'direction', 'color', 'font-size', 'text-align', 'padding-left', '-webkit-locale'];

const skip = chromiumSkipReason(SUITE);

/** Color attribute values: plain colors, and what only the legacy color rules make a color of (or none). */
const COLORS = [
  '#eee', '#EEEEEE', '  #123456 ', 'NAVY', 'transparent', '', ' ', 'chucknorris', 'fff', '#ffff', '#1234567',
  'rgb(1,2,3)', 'currentcolor', 'canvas', '\u{1F600}ff', 'a\u{1F600}b\u{1F600}', '0'.repeat(24) + '1',
  'f'.repeat(130) + '1', '#\u0000a', 'ninja turtle', '&#x41;&#x42;c',
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** A message whose body (and html element) carry some of the attributes, and maybe a sheet with body rules. */
function message(random: () => number): string {
  const attrs: string[] = [];
  const maybe = (p: number, s: () => string): void => {
    if (random() < p) attrs.push(s());
  };
  maybe(0.6, () => `bgcolor="${pick(random, [...COLORS, '0a0b0c', 'red'])}"`);
  maybe(0.4, () => `background="${pick(random, ['https://img.test/a.png', 'http://img.test/b c.png', 'https://img.test/q?x=&quot;1&quot;'])}"`);
  maybe(0.4, () => `dir="${pick(random, ['rtl', 'ltr', 'RTL', 'auto'])}"`);
  maybe(0.3, () => `text="${pick(random, [...COLORS, 'teal'])}"`);
  maybe(0.3, () => `link="${pick(random, [...COLORS, 'orange'])}"`);
  maybe(0.3, () => `lang="${pick(random, ['ja', 'zh-Hant-TW', 'EN-us', 'de'])}"`);
  maybe(0.6, () => {
    const decls = ['color:#333', 'background-color:#abcdef', 'direction:ltr', 'font-size:20px', 'text-align:center', 'padding-left:7px', 'background:none'];
    const n = 1 + Math.floor(random() * 3);
    return `style="${Array.from({ length: n }, () => pick(random, decls)).join(';')}"`;
  });
  const htmlDir = (random() < 0.3 ? ` dir="${pick(random, ['rtl', 'ltr'])}"` : '') + (random() < 0.3 ? ` lang="${pick(random, ['ko', 'ar-EG'])}"` : '');
  const sheet =
    random() < 0.5
      ? `<style>${pick(random, ['body{background-color:#010203}', 'body{color:green}', 'body{direction:rtl}', 'body{font-size:11px;text-align:right}', 'body{background-image:url(https://img.test/s.png)}', 'a{color:#aaa}', 'a:link{color:#bbb}', 'body a{font-size:9px}'])}</style>`
      : '';
  return `<!DOCTYPE html><html${htmlDir}><head>${sheet}</head><body ${attrs.join(' ')}>x<a href="https://link.test/">l</a></body></html>`;
}

const pages = new EmailPages();

/** The computed style of the element `selector` finds, and the color and font size of the link in it. */
async function computed(markup: string, selector: string): Promise<Record<string, string>> {
  const page = await pages.load(markup);
  return page.evaluate(
    ([sel, props]) => {
      const el = document.querySelector(sel as string)!;
      const s = getComputedStyle(el);
      const a = getComputedStyle(el.querySelector('a')!);
      return { ...Object.fromEntries((props as string[]).map((p) => [p, s.getPropertyValue(p)])), 'a color': a.color, 'a font-size': a.fontSize };
    },
    [selector, PROPERTIES] as const,
  );
}

describe.skipIf(skip !== null)("sanitizeEmail's container looks like the message's body (Chromium)", () => {
  beforeAll(() => pages.open());
  afterAll(() => pages.close());

  test(`${CASES} generated messages`, async () => {
    const random = mulberry32(SEED);
    const differences: string[] = [];
    let carried = 0;
    for (let i = 0; i < CASES; i++) {
      const input = message(random);
      const out = sanitizeEmail(input, { container: 'm', proxyImage: (u) => PROXY + encodeURIComponent(u) });
      if (out.css.includes('.m{')) carried++;
      const original = await computed(input, 'body');
      // The original's image URL as the proxy rewrote it: the URL Chromium resolved, proxied.
      const image = /^url\("(.*)"\)$/.exec(original['background-image']!);
      if (image !== null) original['background-image'] = `url("${PROXY + encodeURIComponent(JSON.parse(`"${image[1]}"`) as string)}")`;
      // The container as the README shows it: the class, and the message's language as its lang attribute.
      const lang = out.lang !== '' ? ` lang="${out.lang}"` : '';
      const ours = await computed(`<!DOCTYPE html><html><head></head><body><div class="m"${lang}>${out.html}</div></body></html>`, '.m');
      for (const p of [...PROPERTIES, 'a color', 'a font-size']) {
        if (original[p] !== ours[p]) differences.push(`${input}\n  ${p}: body ${original[p]}, container ${ours[p]}\n  css: ${out.css}`);
      }
    }
    expect(differences.slice(0, 5)).toEqual([]);
    // The cases do exercise the carrying over.
    expect(carried).toBeGreaterThan(CASES / 2);
  });

  test('positive control: without the carried rules, the container differs from the body', async () => {
    const input = '<!DOCTYPE html><html><body bgcolor="#eee" dir="rtl" style="color:#333" link="red" lang="ja">x<a href="https://link.test/">l</a></body></html>';
    const out = sanitizeEmail(input, { container: 'm' });
    const original = await computed(input, 'body');
    const ours = await computed(`<!DOCTYPE html><div class="m">${out.body}</div>`, '.m');
    expect([...PROPERTIES, 'a color'].filter((p) => original[p] !== ours[p])).toEqual(['background-color', 'direction', 'color', '-webkit-locale', 'a color']);
  });
});
