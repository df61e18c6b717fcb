/**
 * Seeded random CSS aimed at where a CSS sanitizer and a browser could disagree about which URLs a style holds,
 * wrapped in HTML email markup, for css-differential.test.ts.
 *
 * The grammar leans on CSS Syntax Level 3 tokenization rather than on valid CSS: `url(` written plainly, in any
 * ASCII case, or with escapes in the function name (`\75 rl(`, `U\52L(`, `\000075rl(`); whitespace, comments,
 * CR, FF and CR LF around and inside it; quoted and unquoted arguments with hex and literal escapes (with and
 * without the whitespace a hex escape may swallow), escaped newlines, escapes of zero, surrogates and values past
 * U+10FFFF; arguments that make a bad-url or a bad-string token, unclosed `url(`, strings, comments and blocks at
 * the end of the input; `image-set()` and `-webkit-image-set()` with bare strings, `cross-fade()`, `image()`,
 * `src()`, `var()`/`env()`/`attr()`/`if()` around URLs; `!important`, stray `;`, `}`, `)`, `]`, nested blocks.
 * Properties are the email policy's URL-taking ones (`background`, `background-image`, `list-style`), their
 * names escaped or upper-cased, and others (`content`, `cursor`, `border-image`, `mask-image`, `filter`, `src`,
 * custom properties...). Sheets add selectors, CSS nesting, `@import` (url and string forms), `@font-face`,
 * `@media`, `@supports`, `@layer`, `@container`, `@scope`, `@starting-style`, `@page`, `@property`,
 * `@keyframes`, `@namespace`, `@counter-style`, unknown at-rules, CDO/CDC and `</style` text.
 *
 * The HTML around the CSS: style attributes (mostly escaped so the CSS is exactly the text generated, sometimes raw),
 * `<style>` in the body, in tables and in a full document's head, `background` attributes, `title` attributes holding
 * URLs for `attr()`, and style elements and attributes in SVG, MathML, template, noscript, select and raw-text
 * elements.
 *
 * Every generated URL that could load something carries a marker (`<tag>u<n>`) so that a request or a CSSOM
 * value names the case it came from. Driven by `Rng` (sfc32) from generator.ts, so `HTMLSIFT_SEED` replays a run.
 */
import type { Rng } from './generator.js';

/** The host of every generated absolute URL: a request to it is an escape. */
export const REMOTE_HOST = 'remote.test';

const DATA_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==';

const URL_NAMES = [
  'url', 'url', 'url', 'url', 'URL', 'Url', 'uRl', '\\75 rl', '\\75rl', '\\000075rl', '\\000075 rl', 'U\\52L', 'u\\rl',
  '\\u\\r\\l', '\\55 \\52 \\4c ', 'ur\\6c', 'ur\\6C\t', '\\75\nrl', '\\75\r\nrl', '\\75\frl', 'u\\0072l',
];
/** Names that look like `url` but are not: the argument is then no URL to a browser (nor must it be to us). */
const NOT_URL_NAMES = ['url ', 'url/**/', '\\75  rl', 'urls', 'ur\\6c x', '-url', 'u-rl', 'url\\28', '\\url'];
const IMAGE_SET_NAMES = ['image-set', 'image-set', '-webkit-image-set', '-webkit-image-set', 'IMAGE-SET', 'image-\\73 et', '\\69mage-set', '-WEBKIT-Image-Set', '-webkit-\\69 mage-set'];
const CROSS_FADE_NAMES = ['cross-fade', '-webkit-cross-fade', 'CROSS-FADE'];
const WS = [' ', ' ', ' ', '', '', '\t', '\n', '\r', '\f', '\r\n', '  \n ', '\n\n', '\r\r'];
const COMMENTS = ['/**/', '/* c */', '/*)*/', '/*"*/', '/*\n*/', '/* url(x) */'];
const KEYWORDS = [
  'red', '#fff', '#000000', 'transparent', 'none', 'no-repeat', 'repeat-x', 'center', 'top left', '0 0', '10px', '50%',
  'inside', 'disc', 'square', 'fixed', 'cover', 'contain', 'initial', 'inherit', 'unset', 'revert', 'rgb(1,2,3)',
  'linear-gradient(red, blue)', 'radial-gradient(#fff, #000)', 'calc(1px + 2px)', '1x', 'format("woff")', 'local(x)',
];
/** Properties the email policy keeps that take URLs, written as a browser still reads them. */
const URL_PROPERTIES = [
  'background', 'background', 'background', 'background-image', 'background-image', 'list-style', 'BACKGROUND',
  'Background-Image', 'backgr\\6f und', 'b\\61 ckground-image', '\\62 ackground', 'list-\\73 tyle', 'background\\-image',
  'LIST-STYLE',
];
const OTHER_PROPERTIES = [
  'list-style-image', 'content', 'cursor', 'border-image', 'border-image-source', 'mask-image', '-webkit-mask-image', 'mask',
  '-webkit-mask', 'filter', 'src', '--x', '--u', '--background', 'shape-outside', '-webkit-box-reflect', 'clip-path',
  'color', 'font', 'font-family', 'border', 'background-color', 'background-position', 'background-repeat', 'background-size',
  'border-top-color', 'text-shadow', 'outline', 'display', 'width', 'behavior', '-moz-binding', 'marker-start', 'fill',
  'offset-path', 'mask-border-source', '-webkit-mask-box-image', 'list-style-type', 'initial-value', 'symbols',
  'background-image ', 'background:', 'background-blend-mode',
];
const SELECTORS = [
  'p', 'div', '.x', '#y', 'body', 'html', ':root', 'td', '*', 'a:hover', 'p::before', 'p::after', 'li::marker', 'div > p',
  'body p', 'html body .x', 'span', 'li', 'table td', '.x, p', 'p:first-child', '[title]', ':is(p, div)', ':where(.x)',
  'p:not(.x)', 'div::first-line', 'p, ::selection', ':is(url(http://remote.test/sel))', 'a[href^="http"]', 'body > *',
  'html:hover p', '::backdrop', 'div:has(p)', 'p ~ p', 'ul li', 'p:nth-child(2n+1)', '\\70', 'P', 'DIV.x',
];
const ATTR_FORMS = [
  'attr(title)', 'attr(title url)', 'attr(title type(<url>))', 'attr(title type(*))', 'attr(title type(<image>))',
  'attr(title string)', 'attr(alt type(<url>), none)', 'image-set(attr(title) 1x)', 'attr(title raw-string)',
];

/** A small builder carrying the run's Rng, the case's tag and its URL counter. */
export class CssGen {
  private k = 0;
  constructor(
    private readonly rng: Rng,
    /** Marker prefix of this case's URLs (e.g. `c123`): letters and digits only. */
    readonly tag: string,
  ) {}

  private ws(): string {
    const r = this.rng;
    if (r.chance(0.06)) return r.pick(COMMENTS);
    return r.pick(WS);
  }

  /** Whitespace that is never empty (between tokens that must stay apart). */
  private sep(): string {
    const s = this.ws();
    return s === '' ? ' ' : s;
  }

  /** The text of a URL (before any CSS escaping): mostly remote ones, with this case's marker. */
  url(): string {
    const r = this.rng;
    const mark = `${this.tag}u${this.k++}`;
    return r.weighted<string>([
      [30, `http://${REMOTE_HOST}/${mark}`],
      [12, `https://${REMOTE_HOST}/${mark}.png`],
      [3, `HTTP://REMOTE.TEST/${mark}`],
      [6, `//${REMOTE_HOST}/${mark}`],
      [2, `\\\\${REMOTE_HOST}\\${mark}`],
      [2, `http:${REMOTE_HOST}/${mark}`],
      [2, `http:\\\\${REMOTE_HOST}/${mark}`],
      [5, `r${mark}.png`],
      [2, `/${mark}`],
      [1, `?${mark}`],
      [9, `cid:${mark}@x`],
      [1, `CID:%3C${mark}%3E`],
      [5, DATA_PNG],
      [1, `data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"><image href="http://${REMOTE_HOST}/${mark}"/></svg>`],
      [1, 'data:text/html,<b>x</b>'],
      [1, 'data:,x'],
      [2, ` http://${REMOTE_HOST}/${mark} `],
      [1, `ht\ttp://${REMOTE_HOST}/${mark}`],
      [1, `http://${REMOTE_HOST}/${mark}\n`],
      [1, 'javascript:void(0)'],
      [1, ''],
      [1, `http://${REMOTE_HOST}:80/${mark}#f`],
      [1, `https://user@${REMOTE_HOST}/${mark}`],
      [1, `http://${REMOTE_HOST}/${mark}?a=)('"`],
      [1, `http://${REMOTE_HOST}/${mark}/\u00e9\ud83d\ude00`],
    ]);
  }

  /** A hex escape of code point `cp`: 1 to 6 digits, either case, and the whitespace it may swallow. */
  private hexEscape(cp: number, next: string | undefined): string {
    const r = this.rng;
    let h = cp.toString(16);
    if (r.chance(0.3)) h = h.toUpperCase();
    const pad = r.chance(0.3) ? r.range(h.length, 6) : h.length;
    h = h.padStart(pad, '0');
    // Without trailing whitespace only when the next character cannot extend the escape (else it would, and the
    // text would name another code point: still a valid case, but not the URL meant; done on purpose at 3%).
    const nextIsHex = next !== undefined && /[0-9a-fA-F]/.test(next);
    const nextIsWs = next !== undefined && /[ \t\n\r\f]/.test(next);
    const canOmit = !nextIsHex && !nextIsWs;
    if ((canOmit && r.chance(0.4)) || r.chance(0.03)) return '\\' + h;
    return '\\' + h + r.weighted<string>([[8, ' '], [1, '\t'], [1, '\n'], [1, '\r\n'], [1, '\f'], [1, '\r']]);
  }

  /** One escape of a character: hex or `\` + the character (not for hex digits and newlines, where that differs). */
  private escapeChar(ch: string, next: string | undefined): string {
    const cp = ch.codePointAt(0)!;
    const literalOk = !/[0-9a-fA-F\n\r\f]/.test(ch);
    if (literalOk && this.rng.chance(0.5)) return '\\' + ch;
    return this.hexEscape(cp, next);
  }

  /** Odd escapes a browser turns into U+FFFD (zero, surrogates, past U+10FFFF) or into nothing (escaped newline). */
  private oddEscape(): string {
    return this.rng.pick(['\\0 ', '\\000000', '\\D800 ', '\\dfff ', '\\110000 ', '\\FFFFFF ', '\\\ud83d\ude00', '\\\ud800']);
  }

  /** `text` as a CSS string token: escapes here and there, line continuations, sometimes broken on purpose. */
  string(text: string): string {
    const r = this.rng;
    const q = r.chance(0.6) ? '"' : "'";
    const p = r.weighted<number>([[4, 0], [3, 0.08], [2, 0.4], [1, 1]]);
    let out = q;
    const chars = Array.from(text);
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i]!;
      const next = chars[i + 1];
      if (r.chance(0.02)) out += r.pick(['\\\n', '\\\r\n', '\\\r', '\\\f']); // line continuation: nothing
      if (r.chance(0.01)) out += this.oddEscape();
      if (ch === q || ch === '\\') out += this.escapeChar(ch, next);
      else if (ch === '\n' || ch === '\r' || ch === '\f') out += r.chance(0.9) ? this.hexEscape(ch.charCodeAt(0), next) : ch; // raw: bad-string
      else if (r.chance(p)) out += this.escapeChar(ch, next);
      else out += ch;
    }
    if (r.chance(0.03)) out += '\\'; // escape at the end: before the quote (escaping it) or at EOF
    if (r.chance(0.96)) out += q;
    else if (r.chance(0.5)) out += '\n'; // unterminated: a bad-string at the line end
    return out;
  }

  /** `text` as the argument of an unquoted url token, characters that must be escaped escaped (mostly). */
  private urlTokenText(text: string): string {
    const r = this.rng;
    const p = r.weighted<number>([[4, 0], [3, 0.08], [2, 0.4], [1, 1]]);
    const sloppy = r.chance(0.05);
    let out = '';
    const chars = Array.from(text);
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i]!;
      const next = chars[i + 1];
      const c = ch.codePointAt(0)!;
      const must = c <= 0x20 || c === 0x7f || ch === '"' || ch === "'" || ch === '(' || ch === ')' || ch === '\\';
      if (r.chance(0.005)) out += this.oddEscape();
      if (must && !(sloppy && r.chance(0.5))) out += this.escapeChar(ch, next);
      else if (!must && r.chance(p)) out += this.escapeChar(ch, next);
      else out += ch;
    }
    return out;
  }

  /** A `url(...)` in one of its many spellings, around one URL (or broken on purpose). */
  urlFunction(text = this.url()): string {
    const r = this.rng;
    const name = r.chance(0.03) ? r.pick(NOT_URL_NAMES) : r.pick(URL_NAMES);
    const before = r.chance(0.7) ? '' : this.ws();
    const after = r.chance(0.7) ? '' : this.ws();
    const form = r.weighted<string>([[10, 'token'], [8, 'string'], [1, 'bad'], [1, 'unclosed'], [1, 'comment']]);
    let body: string;
    switch (form) {
      case 'token':
        body = this.urlTokenText(text);
        break;
      case 'string':
        body = this.string(text);
        break;
      case 'bad': {
        // A character a url token may not hold, then recovery up to the next `)` (escaped ones do not count).
        const bad = r.pick(['"', "'", '(', '\u0001', '\u007f', ' x', '\\\n', '\u000b']);
        const cut = r.int(text.length + 1);
        body = this.urlTokenText(text.slice(0, cut)) + bad + this.urlTokenText(text.slice(cut)) + r.pick(['', '\\)', ' ) ', '(']);
        break;
      }
      case 'unclosed':
        return name + '(' + before + (r.chance(0.5) ? this.urlTokenText(text) : this.string(text));
      default:
        body = r.chance(0.5) ? '/**/' + this.urlTokenText(text) : this.string(text) + '/**/';
        break;
    }
    return name + '(' + before + body + after + (r.chance(0.97) ? ')' : '');
  }

  /** An image: `url()`, or a string where a browser reads one as a URL, or a gradient. */
  private image(depth: number): string {
    const r = this.rng;
    return r.weighted<() => string>([
      [6, () => this.urlFunction()],
      [3, () => this.string(this.url())],
      [1, () => 'linear-gradient(red, blue)'],
      [depth < 2 ? 1 : 0, () => this.imageSet(depth + 1)],
    ])();
  }

  imageSet(depth = 0): string {
    const r = this.rng;
    const n = r.range(1, 3);
    const options: string[] = [];
    for (let i = 0; i < n; i++) {
      const res = r.pick(['1x', '2x', '1dppx', '', '192dpi', 'type("image/png")', '1x type("image/webp")', '2X']);
      options.push(this.ws() + this.image(depth) + (res === '' ? '' : this.sep() + res) + this.ws());
    }
    return r.pick(IMAGE_SET_NAMES) + '(' + options.join(r.chance(0.9) ? ',' : ' ') + (r.chance(0.97) ? ')' : '');
  }

  private crossFade(): string {
    const r = this.rng;
    const name = r.pick(CROSS_FADE_NAMES);
    return r.chance(0.5)
      ? `${name}(${this.image(1)}, ${this.image(1)}, 50%)`
      : `${name}(${this.image(1)} 30%, ${this.image(1)})`;
  }

  /** One component of a value. */
  private piece(depth: number): string {
    const r = this.rng;
    const deeper = depth < 3;
    return r.weighted<() => string>([
      [20, () => this.urlFunction()],
      [8, () => this.imageSet()],
      [3, () => this.crossFade()],
      [2, () => r.pick(['image', 'src', 'SRC', 'image']) + '(' + this.string(this.url()) + (r.chance(0.3) ? ', red' : '') + ')'],
      [8, () => r.pick(KEYWORDS)],
      [deeper ? 3 : 0, () => `var(--x${this.ws()},${this.ws()}${this.value(depth + 1, false)})`],
      [1, () => 'var(--x)'],
      [2, () => r.pick(ATTR_FORMS)],
      [1, () => `env(safe-area-inset-top, ${this.urlFunction()})`],
      [deeper ? 1 : 0, () => `if(media(screen): ${this.value(depth + 1, false)}; else: ${this.value(depth + 1, false)})`],
      [deeper ? 2 : 0, () => {
        const [o, c] = r.pick([['(', ')'], ['[', ']'], ['{', '}'], ['calc(', ')'], ['--f(', ')'], ['x(', ')']] as const);
        return o + this.value(depth + 1, false) + (r.chance(0.9) ? c : '');
      }],
      [2, () => this.string(this.url())],
      [3, () => r.pick([
        ')', ']', '}', ';', '\\', '!', '!important', '<!--', '-->', '\u0000', '\r', '\f', '"unterminated\n', "'x", '/*', '*/',
        '@media', '{', '(', 'url(', 'u\\rl', '\\\n', '</style>', '</STYLE ', '<\\/style>', 'expression(x)', '\u2028', '\ufeff',
      ])],
    ])();
  }

  /** A declaration's value: pieces separated by whitespace or commas, sometimes `!important`. */
  value(depth = 0, important = true): string {
    const r = this.rng;
    const n = r.weighted<number>([[6, 1], [3, 2], [1, 3]]);
    let out = '';
    for (let i = 0; i < n; i++) {
      if (i > 0) out += r.chance(0.7) ? this.sep() : this.ws() + ',' + this.ws();
      out += this.piece(depth);
    }
    if (important && r.chance(0.12)) out += this.ws() + r.pick(['!important', '! important', '!IMPORTANT', '!imp\\6f rtant', '!/**/important', '!important!important']);
    return out;
  }

  private property(): string {
    const r = this.rng;
    return r.chance(0.7) ? r.pick(URL_PROPERTIES) : r.pick(OTHER_PROPERTIES);
  }

  declaration(): string {
    return this.ws() + this.property() + this.ws() + ':' + this.ws() + this.value();
  }

  /** Declarations as a style attribute or a rule's block holds them (sometimes with junk between them). */
  declarations(): string {
    const r = this.rng;
    const n = r.weighted<number>([[4, 1], [4, 2], [2, 3], [1, 4]]);
    let out = '';
    for (let i = 0; i < n; i++) {
      if (r.chance(0.05)) out += r.pick(['}', '{', ';;', 'x{', 'a{b:c}', '@media x{', ')', ']', '"\n', 'p { background:url(http://remote.test/' + this.tag + 'n) }']);
      out += this.declaration();
      if (i < n - 1 || r.chance(0.5)) out += r.weighted<string>([[10, ';'], [1, ';;'], [1, '\n;'], [1, ' ; '], [1, '']]);
    }
    return out;
  }

  /** A style attribute's text: declarations, rarely cut short (an unclosed string, url or block at its end). */
  styleAttribute(): string {
    const r = this.rng;
    const s = this.declarations();
    return r.chance(0.1) ? s.slice(0, r.int(s.length + 1)) : s;
  }

  private block(inner: string): string {
    return '{' + this.ws() + inner + this.ws() + (this.rng.chance(0.97) ? '}' : '');
  }

  private selector(): string {
    const r = this.rng;
    const n = r.chance(0.8) ? 1 : 2;
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(r.pick(SELECTORS));
    return out.join(', ');
  }

  /** Contents of a style rule: declarations, and with nesting, nested rules between them. */
  private ruleContents(depth: number): string {
    const r = this.rng;
    let out = this.declarations();
    if (depth < 3 && r.chance(0.3)) {
      const nested = r.weighted<() => string>([
        [3, () => r.pick(['& b', 'b', '> p', '& > span', '&:hover', '.x &', 'span', '+ p', '~ p', '& p, b', ':is(b)']) + ' ' + this.block(this.ruleContents(depth + 1))],
        [1, () => '@media screen ' + this.block(this.ruleContents(depth + 1))],
        [1, () => '@supports (color: red) ' + this.block(this.ruleContents(depth + 1))],
        [1, () => '@layer l ' + this.block(this.ruleContents(depth + 1))],
        [1, () => '@nest & b ' + this.block(this.declarations())],
        [1, () => 'b:' + this.urlFunction() + ' ' + this.block(this.declarations())],
        // A declaration that runs into a block: a nested rule (`prop:value` as its selector) to CSS Syntax, which a
        // browser may still read as a declaration.
        [2, () => this.property() + r.pick([':', ':', ' :', ': ']) + this.value(depth + 1, false) + r.pick(['', '', ' ']) + this.block(r.chance(0.5) ? '' : this.declarations()) + r.pick(['', ';', ' ', '\n'])],
      ])();
      out += this.ws() + nested + this.ws();
      if (r.chance(0.5)) out += this.declarations();
    }
    return out;
  }

  /** One rule of a sheet. */
  rule(depth = 0): string {
    const r = this.rng;
    const deeper = depth < 3;
    const rules = (): string => {
      const n = r.range(1, 2);
      let s = '';
      for (let i = 0; i < n; i++) s += this.ws() + this.rule(depth + 1);
      return s;
    };
    return r.weighted<() => string>([
      [30, () => this.selector() + this.ws() + this.block(this.ruleContents(depth))],
      [4, () => r.pick(['@import', '@IMPORT', '@\\69mport', '@import/**/']) + ' ' + (r.chance(0.5) ? this.urlFunction() : this.string(this.url())) + r.pick([';', ' screen;', ' layer(l);', ' supports(display: grid);', '', '\n'])],
      [3, () => '@font-face ' + this.block(`font-family: f${this.tag}; src: ${r.chance(0.5) ? this.urlFunction() : this.string(this.url())} format("woff")${r.chance(0.3) ? ', ' + this.urlFunction() : ''}`)],
      [deeper ? 5 : 0, () => '@media ' + r.pick(['screen', 'all', '(min-width: 1px)', 'print', 'not print', '(max-width:600px)', 'screen and ' + this.urlFunction()]) + ' ' + this.block(rules())],
      [deeper ? 2 : 0, () => '@supports ' + r.pick(['(display: grid)', `(background: ${this.urlFunction()})`, 'not (x: y)', 'selector(p)']) + ' ' + this.block(rules())],
      [deeper ? 2 : 0, () => (r.chance(0.7) ? '@layer a ' + this.block(rules()) : '@layer a, b;')],
      [deeper ? 1 : 0, () => '@container ' + r.pick(['(min-width: 1px)', 'c (width > 0)', '']) + ' ' + this.block(rules())],
      [deeper ? 1 : 0, () => '@scope ' + r.pick(['(.x)', '(p) to (b)', '', '(:root)']) + ' ' + this.block(rules())],
      [deeper ? 1 : 0, () => '@starting-style ' + this.block(rules())],
      [1, () => '@page ' + r.pick(['', ':first ', 'p ']) + this.block(this.declarations() + (r.chance(0.5) ? ' @top-left ' + this.block(this.declarations()) : ''))],
      [1, () => `@property --p${this.tag} ` + this.block(`syntax: "<image>"; inherits: true; initial-value: ${this.urlFunction()}`)],
      [2, () => `@keyframes k${this.tag} ` + this.block(`from ${this.block(this.declarations())} to ${this.block(this.declarations())}`)],
      [1, () => '@namespace ' + r.pick(['', 'svg ']) + (r.chance(0.5) ? this.urlFunction() : this.string(this.url())) + ';'],
      [1, () => '@counter-style c ' + this.block(`system: cyclic; symbols: ${this.urlFunction()}; suffix: " "`)],
      [1, () => '@unknown ' + this.urlFunction() + ' ' + this.block(rules())],
      [1, () => '@charset "utf-8";'],
      [1, () => '@position-try --t ' + this.block(this.declarations())],
      [1, () => '@font-feature-values f ' + this.block('@styleset { a: 1 }')],
      [1, () => '@function --f() ' + this.block(`result: ${this.urlFunction()}`)],
      [1, () => '@view-transition ' + this.block('navigation: auto')],
      [2, () => r.pick(['<!--', '-->', '<!-- ', ' -->'])],
      [1, () => r.pick(['}', ';', '{', '</style>', '</STYLE', '<\\/style>', ')', '"\n', '/*', `--x: ${this.urlFunction()};`, this.declaration() + ';'])],
    ])();
  }

  /** A style sheet: a few rules, sometimes cut short, sometimes wrapped in CDO/CDC. */
  sheet(): string {
    const r = this.rng;
    const n = r.weighted<number>([[4, 1], [4, 2], [2, 3], [1, 5]]);
    let s = '';
    for (let i = 0; i < n; i++) s += this.ws() + this.rule();
    if (r.chance(0.1)) s = s.slice(0, r.int(s.length + 1));
    if (r.chance(0.05)) s = '<!--' + s + '-->';
    return s;
  }
}

/** Escapes text for a double-quoted attribute value so the HTML parser gives back exactly that text. */
export function attributeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/\r/g, '&#13;');
}

/** One case: HTML email markup holding generated style attributes and sheets. */
export function generateCssCase(rng: Rng, tag: string): string {
  const g = new CssGen(rng, tag);
  const title = (): string => {
    if (!rng.chance(0.15)) return '';
    const u = g.url();
    return ` title="${attributeText(rng.chance(0.5) ? 'url(' + u + ')' : u)}"`;
  };
  const styled = (): string => {
    const st = g.styleAttribute();
    // Mostly escaped so the CSS is exactly the text generated; sometimes raw, as a careless email writes it.
    const attr = rng.chance(0.9) ? `style="${attributeText(st)}"` : rng.chance(0.5) ? `style='${st}'` : `style="${st}"`;
    const t = title();
    return rng.weighted<() => string>([
      [6, () => `<div ${attr}${t}>x</div>`],
      [2, () => `<p class="x" ${attr}${t}>p</p>`],
      [2, () => `<span ${attr}${t}>s</span>`],
      [2, () => `<ul><li ${attr}${t}>i</li></ul>`],
      [2, () => `<table><tr><td ${attr}${t}>c</td></tr></table>`],
      [1, () => `<a href="https://site.test/" ${attr}${t}>l</a>`],
      [1, () => `<table ${attr}><tr><td>c</td></tr></table>`],
    ])();
  };
  const sheetEl = (): string => `<style${rng.chance(0.1) ? ' type="text/css" media="screen"' : ''}>${g.sheet()}</style>`;
  const body: string[] = [];
  const n = rng.range(1, 4);
  let sheets = 0;
  for (let i = 0; i < n; i++) {
    body.push(
      rng.weighted<() => string>([
        [10, styled],
        [6, () => (sheets++, sheetEl())],
        [2, () => (sheets++, `<table>${sheetEl()}<tr><td class="x">c</td></tr></table>`)],
        [3, () => `<p class="x"${title()}>t</p><div id="y"><span>s</span></div><ul><li>i</li></ul>`],
        [1, () => `<table background="${attributeText(g.url())}"><thead background="${attributeText(g.url())}"><tr background="${attributeText(g.url())}"><th background="${attributeText(g.url())}">h</th><td background="${attributeText(g.url())}">b</td></tr></thead></table>`],
        [1, () => `<div background="${attributeText(g.url())}"><span background="${attributeText(g.url())}">b</span></div>`],
        [1, () => `<img src="${attributeText(g.url())}" alt="i">`],
        // Style elements and attributes where the HTML parser makes something else of them, or where a policy
        // drops the subtree: foreign content (and its HTML integration points), templates, noscript, select.
        [1, () => `<svg><style>${g.sheet()}</style><rect style="${attributeText(g.styleAttribute())}"/><foreignObject><style>${g.sheet()}</style><p class="x">f</p></foreignObject></svg>`],
        [1, () => `<math><mi><style>${g.sheet()}</style></mi><mtext style="${attributeText(g.styleAttribute())}">m</mtext></math>`],
        [1, () => rng.pick(['template', 'noscript', 'select', 'textarea', 'xmp', 'noembed', 'title', 'iframe']).replace(/.+/, (t) => `<${t}><style>${g.sheet()}</style><div style="${attributeText(g.styleAttribute())}">t</div></${t}><p class="x">after</p>`)],
      ])(),
    );
  }
  // Something for the sheets' selectors to match.
  if (sheets > 0) body.push(`<p class="x">t</p><div><p>q</p><span>s</span></div><ul><li>i</li></ul><table><tr><td>c</td></tr></table>`);
  if (rng.chance(0.3)) {
    const head: string[] = [];
    const h = rng.range(1, 2);
    for (let i = 0; i < h; i++) head.push(sheetEl());
    const bodyAttrs = rng.chance(0.2) ? ` background="${attributeText(g.url())}" style="${attributeText(g.styleAttribute())}"` : '';
    return `<!DOCTYPE html><html><head><meta charset="utf-8">${head.join('')}</head><body${bodyAttrs}>${body.join('')}</body></html>`;
  }
  return body.join('');
}
