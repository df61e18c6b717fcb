/**
 * The public API, exercised over a list of inputs, with every result written down as JSON: what
 * `test/published-build.test.ts` compares between the sources and the package as built (ESM and CJS).
 *
 * Plain JavaScript, so that the same file runs in the test's process (on the sources) and in a bare Node child
 * process in a directory where `htmlsift` is the built package:
 *   node api-exercise.mjs esm|cjs inputs.json out.json
 * Each input is { text, context } (context: a FragmentContext); each call's result or thrown error (name and
 * message) is recorded, so an API that throws in one build and not in the other shows up as a difference.
 */

const CONFIGS = [
  { elements: ['p', 'b', { name: 'a', attributes: ['href'] }, 'svg', { name: 'circle', namespace: 'http://www.w3.org/2000/svg' }], comments: false },
  { removeElements: ['b', 'table'], replaceWithChildrenElements: ['i', 'div'], removeAttributes: ['title'] },
  { attributes: ['id', 'class', 'href', { name: 'href', namespace: 'http://www.w3.org/1999/xlink' }], dataAttributes: false, comments: true },
];

/** Runs `f`, giving its result or the error it threw. */
function attempt(f) {
  try {
    return f();
  } catch (e) {
    return { threw: String(e && e.name), message: String(e && e.message) };
  }
}

/** `v` as JSON data: a node becomes its name (reports and repairs hold nodes). */
function plain(v) {
  return JSON.parse(JSON.stringify(v, (k, x) => (x !== null && typeof x === 'object' && typeof x.nodeType === 'number' ? '#node ' + x.nodeName : x)) ?? 'null');
}

/** A tree as nested arrays, through the DOM-named properties only. */
function shape(node) {
  const out = [];
  const stack = [[node, out]];
  while (stack.length > 0) {
    const [n, into] = stack.pop();
    const item = [n.nodeType, n.nodeName, n.namespaceURI ?? null, n.data ?? null];
    if (n.attributes) item.push(n.attributes.map((a) => [a.namespaceURI, a.prefix, a.localName, a.value]));
    const kids = [];
    item.push(kids);
    into.push(item);
    const list = n.content ? n.content.childNodes : n.childNodes;
    if (list) for (let i = list.length - 1; i >= 0; i--) stack.push([list[i], kids]);
  }
  return out;
}

export function exercise(h, p, inputs) {
  const results = [];
  const comment = p.commentPolicy({ images: true });
  const custom = attempt(() =>
    h.compilePolicy({
      elements: {
        p: {},
        a: { attributes: { href: { url: 'url' }, title: { value: { maxLength: 20 } } }, force: { rel: 'nofollow' } },
        b: { unwrap: true },
        span: { rename: 'em' },
        img: { attributes: { src: { url: 'url' }, srcset: { url: 'srcset' } } },
        table: {}, tr: {}, td: {},
      },
      urls: { schemes: ['https', 'http', 'cid'], relative: 'drop' },
      hooks: {
        onElement: (el) => (el.localName === 'em' ? { rename: 'strong' } : undefined),
        onAttribute: (el, attr) => (attr.localName === 'title' ? { rename: 'data-title' } : undefined),
      },
    }),
  );
  const extended = attempt(() => p.extendPolicy(p.paste, { elements: { mark: {} } }));
  for (const { text, context } of inputs) {
    const r = {};
    const errors = [];
    r.document = attempt(() => {
      const doc = h.parseDocument(text, { onError: (e) => errors.push([e.code, e.line, e.column, e.offset]) });
      return [doc.mode, h.serialize(doc), h.serialize(doc, { roundTrip: true, scripting: false })];
    });
    r.errors = errors;
    r.fragment = attempt(() => {
      const frag = h.parseFragment(text, { context, scripting: false });
      return [h.serialize(frag), shape(frag)];
    });
    r.sanitize = attempt(() => h.sanitize(text));
    r.sanitizeInContext = attempt(() => h.sanitize(text, { context }));
    const reports = [];
    r.sanitizeConfigs = CONFIGS.map((sanitizer) => attempt(() => h.sanitize(text, { sanitizer, onReport: (e) => reports.push(e) })));
    r.sanitizeUnsafe = attempt(() => h.sanitize(text, { sanitizer: CONFIGS[1], safe: false }));
    r.policies = [comment, p.paste, p.email, custom, extended].map((policy) =>
      attempt(() => h.sanitize(text, { policy, onReport: (e) => reports.push(e) })),
    );
    r.reports = plain(reports);
    r.email = attempt(() => {
      const m = p.sanitizeEmail(new TextEncoder().encode(text), {
        container: 'mail',
        resolveCid: (id) => 'https://cid.example/' + id,
        proxyImage: (url) => (url.startsWith('https:') ? 'https://proxy.example/?u=' + encodeURIComponent(url) : null),
      });
      return JSON.parse(JSON.stringify(m));
    });
    r.tree = attempt(() => {
      const frag = h.sanitizeFragment(text, { reparseSafe: false });
      // Edits a policy hook could make, then reparse safety on the result.
      let k = 0;
      const repairs = [];
      h.walk(frag, (node) => {
        if (node.nodeType !== h.ELEMENT_NODE) return;
        k++;
        if (k % 3 === 0) node.setAttribute('title', '</p><b x="' + k);
        if (k % 5 === 0) node.appendChild(h.createElement(k % 2 ? 'p' : 'table'));
        if (k % 7 === 0 && node.parentNode) node.parentNode.appendChild(h.createText('\r\n' + k));
      });
      const count = h.enforceReparseSafety(frag, { kind: 'fragment', name: 'body', namespace: 'http://www.w3.org/1999/xhtml' }, (e) => repairs.push(e));
      repairs.push(count);
      return [h.serialize(frag), plain(repairs), frag.textContent];
    });
    r.sanitizer = attempt(() => {
      const s = new h.Sanitizer(CONFIGS[0]);
      s.allowElement('i');
      s.removeAttribute('id');
      return [s.get(), h.serialize(h.setHTMLLike(text, { sanitizer: s })), h.serialize(h.parseHTMLLike(text, { sanitizer: CONFIGS[2] }))];
    });
    r.css = attempt(() => {
      const style = text.slice(0, 200);
      return [
        h.css.tokenize(style).length,
        h.css.serializeComponentValues(h.css.parseComponentValues(style)),
        JSON.parse(
          JSON.stringify(
            h.css.scopeStylesheet(style + '{color:red} .a{margin:0;background:url(x)}', {
              scope: '#x',
              declarations: { allow: (property) => property !== 'margin', rewriteUrl: (u) => 'https://p.example/' + u },
            }),
          ),
        ),
      ];
    });
    r.url = attempt(() => {
      const v = text.slice(0, 80);
      return [h.url.cleanUrl(v), h.url.urlScheme(h.url.cleanUrl(v)), h.url.parseSrcset(v + ' 1x, b 2x'), h.url.urlKind('a', 'href')];
    });
    r.bytes = attempt(() => {
      const d = h.decodeHTMLBytes(new TextEncoder().encode('<meta charset=windows-1252>' + text));
      return [d.encoding, d.text.length, h.sniffEncoding(new Uint8Array([0xef, 0xbb, 0xbf, 0x3c]))];
    });
    results.push(r);
  }
  // The DOM classes and their errors.
  results.push(
    attempt(() => {
      const el = h.createElement('div', { id: 'a', class: 'b' });
      const c = h.createElement('p');
      el.appendChild(c);
      c.appendChild(h.createComment('x'));
      el.insertBefore(h.createText('t'), c);
      el.setAttributeNS('http://www.w3.org/1999/xlink', 'xlink:href', '#a');
      el.removeAttribute('class');
      const out = [h.serializeOuter(el), el.getAttributeNS('http://www.w3.org/1999/xlink', 'href'), c.previousSibling.data, el.textContent];
      out.push(Object.keys(el).sort(), Object.keys(h.createText('t')).sort(), h.isHTMLElement(el));
      out.push(attempt(() => [...h.childrenOf(el)].length));
      out.push(attempt(() => el.appendChild(el)));
      out.push(attempt(() => h.createElement('a b')));
      out.push(attempt(() => h.sanitize('<p>', { policy: { elements: 3 } })));
      out.push(attempt(() => new h.Sanitizer({ elements: 'p' })));
      out.push(attempt(() => h.compilePolicy({ onElement: () => ({ rename: 1 }) })));
      return out;
    }),
  );
  return results;
}

// As a child process: `node api-exercise.mjs esm|esm-modules|cjs inputs.json out.json`, `htmlsift` resolved from here:
// `esm` through the package's exports (for Node, the bundled `dist/node/`), `esm-modules` the one-file-per-module
// ESM that bundlers get (its Node entry modules, which install the multi-byte decoders as `dist/node/` does).
const [, script, mode, inFile, outFile] = process.argv;
if (script !== undefined && import.meta.url === (await import('node:url')).pathToFileURL(script).href && mode !== undefined) {
  const { readFileSync, writeFileSync } = await import('node:fs');
  let h;
  let p;
  if (mode === 'cjs') {
    const { createRequire } = await import('node:module');
    const require = createRequire(import.meta.url);
    h = require('htmlsift');
    p = require('htmlsift/policies');
  } else if (mode === 'esm-modules') {
    h = await import(new URL('./node_modules/htmlsift/dist/src/node.js', import.meta.url).href);
    p = await import(new URL('./node_modules/htmlsift/dist/policies/node.js', import.meta.url).href);
  } else {
    h = await import('htmlsift');
    p = await import('htmlsift/policies');
  }
  const inputs = JSON.parse(readFileSync(inFile, 'utf8'));
  writeFileSync(outFile, JSON.stringify({ exports: [Object.keys(h).sort(), Object.keys(p).sort()], results: exercise(h, p, inputs) }));
}
