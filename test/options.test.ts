/**
 * The option bags of the public functions, read as Web IDL reads a dictionary argument (as Chromium's setHTML
 * reads its options): no options and `null` are the same, any other primitive is a TypeError, and an option of
 * the wrong type is a TypeError naming the function and the option, never a crash, never silently ignored. The
 * built-in policies' options the same way, and the tree construction helpers' arguments.
 */
import { describe, expect, it } from 'vitest';
import {
  type Document,
  type DocumentFragment,
  type Element,
  HTML_NS,
  parseDocument,
  parseFragment,
  parseHTMLLike,
  sanitize,
  sanitizeDocument,
  sanitizeFragment,
  serialize,
  serializeOuter,
  SVG_NS,
  createComment,
  createElement,
  createProcessingInstruction,
  createText,
  decodeHTMLBytes,
  enforceReparseSafety,
  setHTMLLike,
  sniffEncoding,
  walk,
  compilePolicy,
  PolicyHookError,
  css,
  url,
  childrenOf,
  InvalidCharacterError,
  NamespaceError,
  HierarchyRequestError,
  createDocumentFragment,
  Attr,
  XML_NS,
  XMLNS_NS,
} from '../src/index.js';
import * as htmlsift from '../src/index.js';
import { comment, commentPolicy, emailPolicy, sanitizeEmail } from '../policies/index.js';

const MARKUP = '<p onclick="x()">a<my-el>b</my-el><script>1</script><a href="javascript:1">c</a><noscript><i>n</i></noscript>';

/** Each public function that takes options, called on MARKUP with the given options, its result as markup. */
const FUNCTIONS: Record<string, (options: unknown) => string> = {
  sanitize: (o) => sanitize(MARKUP, o as never),
  sanitizeFragment: (o) => serialize(sanitizeFragment(MARKUP, o as never)),
  sanitizeDocument: (o) => serialize(sanitizeDocument(MARKUP, o as never)),
  setHTMLLike: (o) => serialize(setHTMLLike(MARKUP, o as never)),
  parseHTMLLike: (o) => serialize(parseHTMLLike(MARKUP, o as never)),
  parseDocument: (o) => serialize(parseDocument(MARKUP, o as never)),
  parseFragment: (o) => serialize(parseFragment(MARKUP, o as never)),
  serialize: (o) => serialize(parseFragment(MARKUP), o as never),
  serializeOuter: (o) => serializeOuter(parseFragment(MARKUP).childNodes[0]!, o as never),
};

describe('options read as a Web IDL dictionary', () => {
  it('null options are no options', () => {
    for (const [name, run] of Object.entries(FUNCTIONS)) {
      expect(run(null), name).toBe(run(undefined));
      expect(run(null), name).toBe(run({}));
    }
    // setHTML reads null options the same way (test/browser/sanitizer-parity.test.ts compares setHTMLLike with it).
    expect(sanitize(MARKUP, null as never)).toBe('<p>a<a>c</a></p>');
  });

  it('a primitive in place of the options is a TypeError naming the function', () => {
    for (const [name, run] of Object.entries(FUNCTIONS)) {
      for (const bad of [5, 'scripting', true, Symbol('s')]) {
        expect(() => run(bad), `${name}(${String(bad)})`).toThrow(new TypeError(`${name}: options must be an object`));
      }
    }
  });

  it('an option of the wrong type is a TypeError naming the function and the option', () => {
    const cases: [string, string, unknown, string][] = [
      ['sanitize', 'safe', 'false', 'boolean'],
      ['sanitize', 'scripting', 1, 'boolean'],
      ['sanitize', 'onReport', 'log', 'function'],
      ['sanitizeFragment', 'reparseSafe', 'yes', 'boolean'],
      ['sanitizeFragment', 'hardenUrls', 0, 'boolean'],
      ['sanitizeFragment', 'onReport', {}, 'function'],
      ['sanitizeDocument', 'safe', null, 'boolean'],
      ['sanitizeDocument', 'transportEncoding', 1252, 'string'],
      ['setHTMLLike', 'safe', 'no', 'boolean'],
      ['parseHTMLLike', 'safe', 0, 'boolean'],
      ['parseDocument', 'onError', true, 'function'],
      ['parseFragment', 'scripting', 'off', 'boolean'],
      ['serialize', 'roundTrip', 1, 'boolean'],
      ['serialize', 'scripting', 'false', 'boolean'],
      ['serializeOuter', 'roundTrip', 'yes', 'boolean'],
    ];
    for (const [fn, key, value, type] of cases) {
      expect(() => FUNCTIONS[fn]!({ [key]: value }), `${fn} ${key}`).toThrow(new TypeError(`${fn}: options.${key} must be a ${type}`));
    }
  });

  it('undefined options are absent; objects and functions are read as dictionaries', () => {
    expect(sanitize(MARKUP, { safe: undefined, onReport: undefined, context: undefined })).toBe(sanitize(MARKUP));
    expect(sanitize(MARKUP, [] as never)).toBe(sanitize(MARKUP));
    const fnOptions = Object.assign(() => 0, { safe: false });
    expect(sanitize(MARKUP, fnOptions as never)).toBe(sanitize(MARKUP, { safe: false }));
  });

  it('an HTML context given as { name, namespace } is read as the tag name is, in any case', () => {
    // The parser lower-cases an HTML context name; the checks made around the parse (setHTML on a script inserts
    // nothing, a raw text element's text written as it writes it, a template's inert scripting flag) read that name.
    const input = 'a<b>&amp;</b><noscript><p>x</noscript>';
    for (const name of ['SCRIPT', 'Style', 'TEMPLATE', 'tr']) {
      const asObject = { context: { name, namespace: HTML_NS } };
      expect(sanitize(input, asObject), name).toBe(sanitize(input, { context: name }));
      expect(serialize(sanitizeFragment(input, asObject)), name).toBe(serialize(sanitizeFragment(input, { context: name })));
      expect(serialize(setHTMLLike(input, asObject)), name).toBe(serialize(setHTMLLike(input, { context: name })));
    }
    expect(serialize(setHTMLLike('alert(1)', { context: { name: 'SCRIPT', namespace: HTML_NS } }))).toBe('');
    expect(serialize(sanitizeFragment('alert(1)', { context: { name: 'SCRIPT', namespace: HTML_NS } }))).toBe('');
    expect(sanitize('a{}', { context: { name: 'STYLE', namespace: HTML_NS } })).toBe(sanitize('a{}', { context: 'style' }));
  });

  it('null context and policy are absent: the body context, no policy', () => {
    const withNulls = { context: null, policy: null } as never;
    expect(sanitize(MARKUP, withNulls)).toBe(sanitize(MARKUP));
    expect(serialize(sanitizeFragment(MARKUP, withNulls))).toBe(serialize(sanitizeFragment(MARKUP)));
    expect(serialize(sanitizeDocument(MARKUP, { policy: null } as never))).toBe(serialize(sanitizeDocument(MARKUP)));
    // Unsafe, no sanitizer and a null policy: parsed as innerHTML parses (scripting on: noscript content is text).
    const unsafe: DocumentFragment = sanitizeFragment('<noscript><i>n</i></noscript>', { safe: false, policy: null } as never);
    expect((unsafe.childNodes[0] as Element).childNodes[0]!.nodeType).toBe(3);
    // A policy given still applies.
    expect(sanitize('<h1>t</h1>', { policy: comment })).not.toBe(sanitize('<h1>t</h1>'));
  });

  it('a wrong option is reported before any work, with the function the caller called', () => {
    let reports = 0;
    const onReport = (): void => void reports++;
    expect(() => sanitize('<a href="javascript:1">x</a>', { onReport, safe: 'yes' as never })).toThrow(/sanitize: options\.safe/);
    expect(reports).toBe(0);
    const doc: Document = sanitizeDocument('<p>x', { onReport });
    expect(doc.documentElement!.namespaceURI).toBe(HTML_NS);
  });
});

describe('options of the built-in policies', () => {
  it('null options are no options; a primitive or a wrong type is a TypeError naming the function and the option', () => {
    const html = '<p>x<img src="https://example.com/a.png"></p>';
    expect(sanitize(html, { policy: commentPolicy(null as never) })).toBe(sanitize(html, { policy: commentPolicy() }));
    expect(sanitize(html, { policy: emailPolicy(null as never) })).toBe(sanitize(html, { policy: emailPolicy() }));
    expect(sanitizeEmail(html, null as never).html).toBe(sanitizeEmail(html, { container: sanitizeEmail(html, null as never).container }).html);
    expect(() => commentPolicy(5 as never)).toThrow(new TypeError('commentPolicy: options: expected an object'));
    expect(() => emailPolicy('x' as never)).toThrow(new TypeError('emailPolicy: options: expected an object'));
    expect(() => sanitizeEmail(html, true as never)).toThrow(new TypeError('sanitizeEmail: options: expected an object'));
    // `images: 'yes'` was read as false: now it says so.
    expect(() => commentPolicy({ images: 'yes' as never })).toThrow(new TypeError('commentPolicy: options.images: expected a boolean'));
    expect(sanitize(html, { policy: commentPolicy({ images: true }) })).toContain('<img');
    expect(() => sanitizeEmail(5 as never)).toThrow(new TypeError('sanitizeEmail: input: expected a string or a Uint8Array, got number'));
  });
});

describe('tree construction helpers', () => {
  it('reject arguments that would make nodes no markup can express, naming the argument', () => {
    expect(() => createElement(5 as never)).toThrow(new TypeError('createElement: localName must be a non-empty string, got number'));
    expect(() => createElement('')).toThrow(new TypeError('createElement: localName must be a non-empty string, got an empty string'));
    expect(() => createElement('p', 5 as never)).toThrow(/^createElement: attributes must be/);
    expect(() => createElement('p', [{}] as never)).toThrow(new TypeError('createElement: an attribute list must hold Attr objects'));
    expect(() => createElement('p', { title: 7 } as never)).toThrow(
      new TypeError('createElement: the value of attribute "title" must be a string, got number'),
    );
    expect(() => createElement('p', undefined, null as never)).toThrow(new TypeError('createElement: namespaceURI must be a string, got null'));
    expect(() => createText(undefined as never)).toThrow(new TypeError('createText: data must be a string, got undefined'));
    expect(() => createComment(1 as never)).toThrow(new TypeError('createComment: data must be a string, got number'));
    expect(() => createProcessingInstruction('', 'd')).toThrow(/^createProcessingInstruction: target must be a non-empty string/);
    expect(() => walk(null as never, () => {})).toThrow(new TypeError('walk: root must be a Document, DocumentFragment or Element'));
    expect(() => walk(createElement('p'), 'x' as never)).toThrow(new TypeError('walk: visit must be a function'));
    // And still make what they made: records, Attr lists (from a parse), null attributes.
    const parsed = parseFragment('<p title="t" lang=en>').childNodes[0] as Element;
    expect(serializeOuter(createElement('p', parsed.attributes))).toBe('<p title="t" lang="en"></p>');
    expect(serializeOuter(createElement('p', { title: 't' }))).toBe('<p title="t"></p>');
    expect(serializeOuter(createElement('p', null as never))).toBe('<p></p>');
    expect(serializeOuter(createElement('circle', undefined, SVG_NS))).toBe('<circle></circle>');
    let visited = 0;
    walk(parsed, () => void visited++);
    expect(visited).toBe(0);
  });
});

describe('the other public functions', () => {
  it('enforceReparseSafety checks its root, context and listener before any repair', () => {
    const tree = parseFragment('<p>a</p>');
    tree.childNodes.push(createText('')); // a repair waiting: an empty text
    const bad: [unknown, unknown, unknown, string][] = [
      [null, { kind: 'document' }, undefined, 'root must be a Document, DocumentFragment or Element'],
      [tree, null, undefined, "context must be { kind: 'document' } or { kind: 'fragment', name, namespace }"],
      [tree, { kind: 'frag' }, undefined, "context must be { kind: 'document' } or { kind: 'fragment', name, namespace }"],
      [tree, { kind: 'fragment', namespace: HTML_NS }, undefined, "context.name must be the context element's local name"],
      [tree, { kind: 'fragment', name: 'div' }, undefined, 'context.namespace must be the HTML, SVG or MathML namespace URI'],
      [tree, { kind: 'fragment', name: 'div', namespace: HTML_NS }, 'log', 'onRepair must be a function'],
    ];
    for (const [root, context, listener, message] of bad) {
      expect(() => enforceReparseSafety(root as never, context as never, listener as never)).toThrow(
        new TypeError('enforceReparseSafety: ' + message),
      );
    }
    expect(tree.childNodes.length).toBe(2); // nothing repaired by the calls that threw
    expect(enforceReparseSafety(tree, { kind: 'fragment', name: 'div', namespace: HTML_NS })).toBe(1);
    expect(tree.childNodes.length).toBe(1);
  });

  it('decodeHTMLBytes and sniffEncoding read their options as the parser does', () => {
    const bytes = new TextEncoder().encode('<p>caf\u00e9');
    expect(decodeHTMLBytes(bytes, null as never)).toEqual(decodeHTMLBytes(bytes));
    expect(sniffEncoding(bytes, null as never)).toEqual(sniffEncoding(bytes));
    expect(() => decodeHTMLBytes(bytes, 5 as never)).toThrow(new TypeError('decodeHTMLBytes: options must be an object'));
    expect(() => sniffEncoding(bytes, { transportEncoding: 8 } as never)).toThrow(
      new TypeError('sniffEncoding: options.transportEncoding must be a string'),
    );
    expect(sniffEncoding(bytes, { transportEncoding: 'latin1' }).encoding).toBe('windows-1252');
  });
});

describe('inputs', () => {
  it('a non-string input is a TypeError naming the function called', () => {
    expect(() => parseFragment(5 as never)).toThrow(new TypeError('parseFragment: input must be a string'));
    expect(() => setHTMLLike(null as never)).toThrow(new TypeError('setHTMLLike: html must be a string'));
    expect(() => parseHTMLLike(new Uint8Array(1) as never)).toThrow(new TypeError('parseHTMLLike: html must be a string'));
    expect(() => sanitize({} as never)).toThrow(new TypeError('sanitize: input must be a string, got object'));
  });
});

describe('trees that are not trees, and hooks that break their element', () => {
  /** `<div><p><b>x</b></p></div>` with the div pushed among b's children (childNodes edited directly). */
  function cyclic(): { root: DocumentFragment; div: Element; b: Element } {
    const root = parseFragment('<div><p><b>x</b></p></div>');
    const div = root.childNodes[0] as Element;
    const b = (div.childNodes[0] as Element).childNodes[0] as Element;
    b.childNodes.push(div);
    return { root, div, b };
  }

  it('walk, textContent and serialize turn a cycle into a TypeError instead of running out of memory', () => {
    const { root } = cyclic();
    let visits = 0;
    expect(() => walk(root, () => void visits++)).toThrow(new TypeError('walk: the tree has a cycle'));
    expect(visits).toBeLessThan(10_000);
    expect(() => root.textContent).toThrow(new TypeError('textContent: the tree has a cycle'));
    expect(() => serialize(root)).toThrow(new TypeError('serialize: the tree has a cycle'));
  });

  it('a deep tree without a cycle is walked to the end (the check only looks, from 2,048 levels down)', () => {
    const root = parseFragment('<div>'.repeat(5000) + 'x');
    let visits = 0;
    walk(root, () => void visits++);
    expect(visits).toBe(5001);
    expect(root.textContent).toBe('x');
    // The same list at two places that are not nested is no cycle.
    const shared = parseFragment('<i>y</i>').childNodes;
    const twice = parseFragment('<b></b><b></b>');
    for (const b of twice.childNodes) (b as Element).childNodes = shared;
    expect(twice.textContent).toBe('yy');
  });

  it('a hook that makes a cycle, or leaves a name or value that is not a string, fails with an error naming it', () => {
    const html = '<p title="t">x<b>y</b></p>';
    const cycle = compilePolicy({
      hooks: {
        onElement: (el) => {
          if (el.localName === 'b') el.childNodes.push(el.parentNode as Element);
        },
      },
    });
    expect(() => sanitize(html, { policy: cycle })).toThrow(new TypeError('policy.hooks: the tree has a cycle'));
    // Through an element the hook unwraps: the p comes back among its own children at each visit.
    let p: Element | null = null;
    const unwrapCycle = compilePolicy({
      hooks: {
        onElement: (el) => {
          if (el.localName === 'p') p = el;
          else if (el.localName === 'b') {
            el.childNodes.push(p!);
            return 'unwrap';
          }
          return undefined;
        },
      },
    });
    expect(() => sanitize(html, { policy: unwrapCycle })).toThrow(/^policy\.hooks: the tree has a cycle/);
    const value = compilePolicy({ hooks: { onAttribute: (_el, a) => void ((a as { value: unknown }).value = 5) } });
    expect(() => sanitize(html, { policy: value })).toThrow(
      new PolicyHookError('onAttribute', 'p', 'left an attribute whose name or value is not a string'),
    );
    expect(() => sanitize(html, { policy: value })).toThrow(PolicyHookError);
    const name = compilePolicy({ hooks: { onElement: (el) => void ((el as { localName: unknown }).localName = null) } });
    expect(() => sanitize(html, { policy: name })).toThrow(/^policy\.hooks\.onElement left an element name that is not a string/);
    const attrs = compilePolicy({ hooks: { onElement: (el) => void ((el as { attributes: unknown }).attributes = 'title') } });
    expect(() => sanitize(html, { policy: attrs })).toThrow(/^policy\.hooks\.onElement left attributes that are not a list/);
    // Edits that leave the element well-formed go through.
    const ok = compilePolicy({ hooks: { onAttribute: (_el, a) => void (a.value = a.value.toUpperCase()) } });
    expect(sanitize(html, { policy: ok })).toBe('<p title="T">x<b>y</b></p>');
  });
});

/** Runs `f`, which must throw a TypeError whose message matches. */
function typeError(f: () => unknown, message: RegExp): void {
  let error: unknown = null;
  try {
    f();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(TypeError);
  expect((error as Error).message).toMatch(message);
}

describe('the CSS toolkit (css.*): arguments, options and callback results', () => {
  const allow = (): boolean => true;

  it('text that is not a string is a TypeError naming the function', () => {
    const fns: Record<string, (x: never) => unknown> = {
      tokenize: css.tokenize,
      preprocess: css.preprocess,
      parseComponentValues: css.parseComponentValues,
      parseCommaSeparatedList: css.parseCommaSeparatedList,
      parseStylesheet: css.parseStylesheet,
      parseBlockContents: css.parseBlockContents,
      parseDeclarationList: css.parseDeclarationList,
      parseDeclaration: css.parseDeclaration,
      serializeIdent: css.serializeIdent,
      serializeString: css.serializeString,
      CssTokenizer: (x) => new css.CssTokenizer(x),
      filterDeclarations: (x) => css.filterDeclarations(x, { allow }),
      scopeStylesheet: (x) => css.scopeStylesheet(x, { scope: '.s', declarations: { allow } }),
    };
    for (const [name, f] of Object.entries(fns)) {
      for (const bad of [null, undefined, 5, ['a'], { toString: () => 'a' }]) typeError(() => f(bad as never), new RegExp('^' + name + ': .* must be a string, got '));
      expect(() => f('a' as never)).not.toThrow();
    }
  });

  it('lists that are not arrays are a TypeError naming the function', () => {
    const fns: Record<string, (x: never) => unknown> = {
      groupComponentValues: css.groupComponentValues,
      splitOnCommas: css.splitOnCommas,
      serializeTokens: css.serializeTokens,
      flattenComponentValues: css.flattenComponentValues,
      serializeComponentValues: css.serializeComponentValues,
      serializeDeclarations: css.serializeDeclarations,
      blockItemTokens: css.blockItemTokens,
      serializeRules: css.serializeRules,
      filterDeclarationList: (x) => css.filterDeclarationList(x, { allow }),
      checkValue: (x) => css.checkValue(x, 'color', undefined),
      containsFunction: (x) => css.containsFunction(x, ['url']),
    };
    for (const [name, f] of Object.entries(fns)) {
      for (const bad of [null, undefined, 'a', {}]) typeError(() => f(bad as never), new RegExp('^' + name + ': .* must be an array, got '));
      expect(() => f([] as never)).not.toThrow();
    }
    typeError(() => css.serializeTokens([{ type: 'block' } as never]), /not a token: "block"/);
  });

  it('declaration filter and scope options of the wrong type are a TypeError naming the option', () => {
    typeError(() => css.filterDeclarations('a:b', null as never), /^filterDeclarations: options must be an object, got null/);
    typeError(() => css.filterDeclarations('a:b', {} as never), /^filterDeclarations: options\.allow must be a function/);
    typeError(() => css.filterDeclarations('a:b', { allow, rewriteUrl: 'x' } as never), /options\.rewriteUrl must be a function, got string/);
    typeError(() => css.filterDeclarations('a:b', { allow, allowImportant: 'no' } as never), /options\.allowImportant must be a boolean/);
    typeError(() => css.filterDeclaration(null as never, { allow }), /^filterDeclaration: the declaration must be an object/);
    const scope = (o: unknown): unknown => css.scopeStylesheet('a{color:red}', o as never);
    typeError(() => scope(null), /^scopeStylesheet: options must be an object, got null/);
    typeError(() => scope({ scope: '.s' }), /options\.declarations must be an object, got undefined/);
    typeError(() => scope({ scope: 5, declarations: { allow } }), /options\.scope must be a string, got number/);
    typeError(() => scope({ scope: '.s', declarations: { allow }, allowAtRules: 'media' }), /options\.allowAtRules must be an array, got string/);
    typeError(() => scope({ scope: '.s', declarations: { allow }, allowAtRules: ['media', 'mdia'] }), /options\.allowAtRules: "mdia" is not one of media, supports/);
    typeError(() => scope({ scope: '.s', declarations: { allow }, nesting: 0 }), /options\.nesting must be a boolean, got number/);
    typeError(() => scope({ scope: '.s', declarations: { allow }, remoteFonts: 'yes' }), /options\.remoteFonts must be a boolean/);
    expect(css.scopeStylesheet('@media x{a{color:red}}', { scope: '.s', declarations: { allow }, allowAtRules: ['media'] }).css).toBe(
      '@media x{.s a{color:red;}}',
    );
  });

  it('an allow verdict or a URL rewrite of the wrong type is a TypeError (it was taken as "keep", or failed later)', () => {
    typeError(() => css.filterDeclarations('color:red', { allow: () => 1 as never }), /^allow: expected true, false or a string, got number for "color"/);
    typeError(() => css.filterDeclarations('color:red', { allow: () => undefined as never }), /got undefined/);
    const url = (r: unknown): unknown => css.filterDeclarations('background:url(a.png)', { allow, rewriteUrl: () => r as never });
    typeError(() => url(5), /^rewriteUrl: expected a string or null, got number for "a.png"/);
    typeError(() => url(undefined), /got undefined/);
    expect((url(null) as { css: string }).css).toBe('');
    expect((url('https://x/a.png') as { css: string }).css).toBe('background:url(https://x/a.png)');
    typeError(
      () => css.scopeStylesheet('a{background-image:image-set("a.png" 1x)}', { scope: '.s', declarations: { allow, rewriteUrl: () => ({}) as never } }),
      /^rewriteUrl: expected a string or null, got object/,
    );
  });
});

describe('the URL toolkit (url.*) and the tree helpers the package exports', () => {
  const policy = { schemes: ['https'], relative: 'keep' as const };

  it('a URL, srcset or name that is not a string is a TypeError naming the function', () => {
    const fns: Record<string, (x: never) => unknown> = {
      checkUrl: (x) => url.checkUrl(x, policy),
      checkUrlList: (x) => url.checkUrlList(x, policy),
      cleanUrl: url.cleanUrl,
      urlScheme: url.urlScheme,
      relativeForm: url.relativeForm,
      dataUrlMimeType: url.dataUrlMimeType,
      urlKind: (x) => url.urlKind(x, 'href'),
      parseSrcset: url.parseSrcset,
      srcsetSafeUrl: url.srcsetSafeUrl,
      filterSrcset: (x) => url.filterSrcset(x, policy),
    };
    for (const [name, f] of Object.entries(fns)) {
      for (const bad of [null, undefined, 5, {}, ['a']]) typeError(() => f(bad as never), new RegExp('^' + name + ': .* must be a string, got '));
      expect(() => f('a' as never)).not.toThrow();
    }
    typeError(() => url.urlKind('a', null as never), /^urlKind: the attribute name must be a string, got null/);
    typeError(() => url.serializeSrcset(null as never), /^serializeSrcset: the candidates must be an array/);
    typeError(() => url.serializeSrcset([{ url: 5 }] as never), /each candidate must be an object with a string url/);
    expect(url.serializeSrcset([{ url: 'a b.png', descriptors: ['2x'] }])).toBe('a%20b.png 2x');
  });

  it('a policy or context of the wrong shape is a TypeError naming the field', () => {
    typeError(() => url.checkUrl('https://a/', null as never), /^checkUrl: policy must be an object, got null/);
    typeError(() => url.checkUrl('https://a/', { relative: 'keep' } as never), /policy\.schemes must be an array of strings, got undefined/);
    typeError(() => url.checkUrl('https://a/', { schemes: 'https', relative: 'keep' } as never), /policy\.schemes must be an array of strings, got string/);
    typeError(() => url.checkUrl('https://a/', { schemes: ['https'], relative: 'kep' } as never), /policy\.relative must be one of keep, drop, resolve, got "kep"/);
    typeError(() => url.checkUrl('https://a/', { ...policy, base: 5 } as never), /policy\.base must be a string/);
    typeError(() => url.checkUrl('https://a/', { ...policy, dataMimeTypes: 'image/png' } as never), /policy\.dataMimeTypes must be an array of strings/);
    typeError(() => url.checkUrl('https://a/', { ...policy, rewrite: 'x' } as never), /policy\.rewrite must be a function, got string/);
    typeError(() => url.checkUrl('https://a/', policy, 'a' as never), /^checkUrl: context must be an object, got string/);
    typeError(() => url.checkUrl('https://a/', policy, { element: 'a' } as never), /context\.attribute must be a string, got undefined/);
    typeError(() => url.cssUrlRewriter({ schemes: ['https'] } as never), /^cssUrlRewriter: policy\.relative must be one of/);
    expect(url.checkUrl(' https://a/x ', policy)).toMatchObject({ action: 'keep', value: 'https://a/x' });
    expect(url.filterSrcset('a.png 1x, javascript:x 2x', policy).value).toBe('a.png 1x');
  });

  it('childrenOf checks its node; internal helpers are not exported', () => {
    typeError(() => childrenOf(null as never), /^childrenOf: node must be a Document, DocumentFragment or Element/);
    typeError(() => childrenOf(createText('x') as never), /^childrenOf: node/);
    const t = parseFragment('<template>a</template>').childNodes[0] as Element;
    expect(childrenOf(t)).toBe(t.content!.childNodes);
    for (const name of ['noCycle', 'exactCopy', 'workList', 'asciiLowercase', 'leadingWhitespace', 'CYCLE_CHECK_DEPTH', 'isAsciiAlpha']) {
      expect(name in htmlsift).toBe(false);
    }
  });
});

describe('the construction helpers refuse the names the DOM refuses', () => {
  it('attribute names: empty, or holding whitespace, NUL, "/", ">" or "="', () => {
    for (const bad of ['', 'a b', 'a/b', 'a>b', 'a=b', 'a\u0000b', '\tx']) {
      expect(() => createElement('p', { [bad]: 'v' })).toThrow(InvalidCharacterError);
      expect(() => createElement('p', [new Attr(bad, 'v')])).toThrow(InvalidCharacterError);
    }
    // What they make serializes to markup that reparses to it.
    const frag = parseFragment('');
    frag.appendChild(createElement('x-y', { 'a:b': '1', 'é': '2' }));
    expect(serialize(frag)).toBe('<x-y a:b="1" é="2"></x-y>');
    expect(parseFragment(serialize(frag)).childNodes[0]).toMatchObject({ localName: 'x-y' });
  });

  it('element names and processing instruction targets', () => {
    for (const ok of ['p', 'x-y', 'a\u0001b', ':x', '_x', 'é-1', 'svg:rect']) expect(createElement(ok).localName).toBe(ok);
    for (const bad of ['a b', 'a/b', 'a>b', '1a', '-a', 'a\u0000', ':a b', '\u00e9 x']) {
      expect(() => createElement(bad)).toThrow(InvalidCharacterError);
    }
    expect(createProcessingInstruction('xml-x', 'a > b').data).toBe('a > b');
    expect(() => createProcessingInstruction('a b', 'd')).toThrow(InvalidCharacterError);
    expect(() => createProcessingInstruction('1a', 'd')).toThrow(InvalidCharacterError);
    expect(() => createProcessingInstruction('t', 'a?>b')).toThrow(InvalidCharacterError);
  });
});

describe('the tree classes take their arguments as the DOM\'s methods do', () => {
  it('attribute names and values are converted to strings (null is "null")', () => {
    const el = createElement('p', { null: 'n', '5': 'five' });
    expect(el.getAttribute(null as never)).toBe('n');
    expect(el.getAttribute(5 as never)).toBe('five');
    expect(el.hasAttribute(undefined as never)).toBe(false);
    el.setAttribute('title', 7 as never);
    el.setAttribute(null as never, null as never);
    expect(el.getAttribute('title')).toBe('7');
    // (A record's integer-like keys come first.)
    expect(serializeOuter(el)).toBe('<p 5="five" null="null" title="7"></p>');
    el.removeAttribute(null as never);
    expect(el.getAttributeNS(undefined as never, 'title')).toBe('7');
    el.setAttributeNS(undefined as never, 'lang', 5 as never);
    expect(el.getAttributeNS('', 'lang')).toBe('5');
    expect(serializeOuter(el)).toBe('<p 5="five" title="7" lang="5"></p>');
    expect(() => el.setAttribute(Symbol('s') as never, 'v')).toThrow(TypeError);
  });

  it('setAttribute and setAttributeNS refuse the names and namespaces the DOM refuses', () => {
    const el = createElement('p');
    for (const bad of ['', 'a b', 'a/b', 'a>b', 'a=b', 'a\u0000b', '\tx']) {
      expect(() => el.setAttribute(bad, 'v')).toThrow(InvalidCharacterError);
      expect(() => el.setAttributeNS('urn:x', bad, 'v')).toThrow(InvalidCharacterError);
    }
    expect(() => el.setAttributeNS('urn:x', ':a', 'v')).toThrow(InvalidCharacterError);
    expect(() => el.setAttributeNS('urn:x', 'a b:c', 'v')).toThrow(InvalidCharacterError);
    // NamespaceError: a prefix without a namespace, xml outside the XML namespace, xmlns outside (or missing from) XMLNS.
    for (const [ns, q] of [[null, 'x:y'], ['', 'x:y'], ['urn:x', 'xml:lang'], [null, 'xmlns'], ['urn:x', 'xmlns:a'], [XMLNS_NS, 'a'], [XMLNS_NS, 'x:a']] as const) {
      expect(() => el.setAttributeNS(ns, q, 'v'), ns + ' ' + q).toThrow(NamespaceError);
    }
    expect(el.attributes).toEqual([]);
    el.setAttributeNS(XML_NS, 'xml:lang', 'en');
    el.setAttributeNS(XMLNS_NS, 'xmlns:a', 'urn:a');
    el.setAttributeNS(XMLNS_NS, 'xmlns', 'urn:b');
    el.setAttributeNS('urn:x', 'x:y', '1');
    el.setAttribute('data-OK', '2');
    expect(serializeOuter(el)).toBe('<p xml:lang="en" xmlns:a="urn:a" xmlns="urn:b" x:y="1" data-ok="2"></p>');
  });

  it('a node argument that is not a node is a TypeError naming the method; an undefined reference node appends', () => {
    const parent = createElement('div');
    const child = parent.appendChild(createText('a'));
    for (const bad of [null, undefined, 'x', {}, { nodeType: 1 }]) {
      expect(() => parent.appendChild(bad as never)).toThrow(/^appendChild: expected a node, got /);
      expect(() => parent.insertBefore(bad as never, null)).toThrow(/^insertBefore: expected a node, got /);
      expect(() => parent.removeChild(bad as never)).toThrow(/^removeChild: expected a node, got /);
      expect(() => parent.replaceChild(createText('b'), bad as never)).toThrow(/^replaceChild: expected a node, got /);
      expect(() => parent.replaceChild(bad as never, child)).toThrow(/^replaceChild: expected a node, got /);
      if (bad !== null && bad !== undefined) expect(() => parent.insertBefore(createText('b'), bad as never)).toThrow(TypeError);
    }
    parent.insertBefore(createText('c'), undefined as never);
    expect(parent.textContent).toBe('ac');
    expect(() => parent.appendChild(createDocumentFragment() as never)).toThrow(HierarchyRequestError);
  });
});

describe('a tree edited into something that is not one', () => {
  const broken: Record<string, (f: DocumentFragment) => void> = {
    'childNodes null': (f) => void ((f.childNodes[0] as Element).childNodes = null as never),
    'a child that is null': (f) => void (f.childNodes[0] as Element).childNodes.push(null as never),
    'attributes null': (f) => void ((f.childNodes[0] as Element).attributes = null as never),
    'an attribute that is null': (f) => void (f.childNodes[0] as Element).attributes.push(null as never),
    'template contents that are not a fragment': (f) => {
      const t = parseFragment('<template>x</template>').childNodes[0] as Element;
      t.content = {} as never;
      f.childNodes.push(t);
    },
  };
  // (Not serialize: it names the nodes it cannot write.)
  const readers: Record<string, (f: DocumentFragment) => unknown> = {
    walk: (f) => walk(f, () => undefined),
    textContent: (f) => f.textContent,
    enforceReparseSafety: (f) => enforceReparseSafety(f, { kind: 'fragment', name: 'body', namespace: HTML_NS }),
  };

  it('is a TypeError naming the function and saying it is not a well-formed tree, the engine error as its cause', () => {
    let failures = 0;
    for (const [what, edit] of Object.entries(broken)) {
      for (const [name, read] of Object.entries(readers)) {
        const f = parseFragment('<p title="t">x<b>y</b></p>');
        edit(f);
        try {
          read(f);
        } catch (e) {
          failures++;
          // The engine's own error, renamed, or one the function already gave a message of its own.
          expect(e, what + ' / ' + name).toBeInstanceOf(TypeError);
          const message = (e as Error).message;
          expect(message, what + ' / ' + name).toMatch(new RegExp('^' + name + ': '));
          if (message.includes('not a well-formed tree')) expect((e as Error).cause).toBeInstanceOf(TypeError);
          else expect(message).not.toMatch(/Cannot read|is not a function|is not iterable/);
        }
      }
    }
    // (Not every reader reads every part: walk reads no attributes.)
    expect(failures).toBeGreaterThan(5);
  });

  it('what a callback throws passes as it is', () => {
    const mine = new TypeError('mine');
    expect(() => walk(parseFragment('<p>x'), () => { throw mine; })).toThrow(mine);
    const pDiv = (): DocumentFragment => {
      const f = createDocumentFragment();
      f.appendChild(createElement('p')).appendChild(createElement('div'));
      return f;
    };
    expect(enforceReparseSafety(pDiv(), { kind: 'fragment', name: 'body', namespace: HTML_NS })).toBe(1);
    expect(() => enforceReparseSafety(pDiv(), { kind: 'fragment', name: 'body', namespace: HTML_NS }, () => { throw mine; })).toThrow(mine);
  });
});
