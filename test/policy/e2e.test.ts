/** The policy through the public pipeline: sanitize(html, { policy }) and sanitizeFragment/sanitizeDocument. */
import { describe, expect, test } from 'vitest';
import { type ChildNode, type Element, createDocumentFragment, createElement, createProcessingInstruction, createText } from '../../src/dom.js';
import { parseFragment } from '../../src/parser.js';
import { compilePolicy, extendPolicy, PolicyHookError, type Policy, type PolicyReportEntry } from '../../src/policy/index.js';
import { sanitize, sanitizeDocument, sanitizeFragment, type SanitizeReportEntry } from '../../src/sanitize.js';
import { getSanitizerInstanceFromOptions } from '../../src/sanitizer-api/config.js';
import { Sanitizer, sanitizeWith } from '../../src/sanitizer-api/index.js';
import { serialize, serializeOuter } from '../../src/serializer.js';
import { maxElementDepth, parentLinksConsistent } from './helpers.js';

const withLinks: Policy = {
  sanitizer: { elements: ['p', 'a', 'img', 'strong', 'em', 'span', 'div', 'h2'], attributes: ['href', 'src', 'srcset', 'style', 'id', 'title', 'alt'] },
};

describe('sanitize with a policy', () => {
  test('a link-rewriting proxy: links through a redirector, images through a proxy, relative resolved', () => {
    const policy: Policy = {
      ...withLinks,
      urls: {
        relative: 'resolve',
        base: 'https://forum.example/t/1',
        rewrite: (url, c) => {
          const host = new URL(url).host;
          if (host === 'forum.example') return url;
          return (c.kind === 'image' ? 'https://img.forum.example/?u=' : 'https://forum.example/out?to=') + encodeURIComponent(url);
        },
      },
      elements: { a: { force: { rel: 'nofollow ugc' } } },
    };
    const out = sanitize(
      '<p><a href="https://other.example/x?y=1" onclick="steal()">ext</a> <a href="/t/2">int</a> <a href="javascript:alert(1)">js</a>' +
        '<img src="http://pics.example/a.png" srcset="/s.png 1x, http://pics.example/b.png 2x" onerror="x()"></p>',
      { policy },
    );
    expect(out).toBe(
      '<p><a href="https://forum.example/out?to=https%3A%2F%2Fother.example%2Fx%3Fy%3D1" rel="nofollow ugc">ext</a> ' +
        '<a href="https://forum.example/t/2" rel="nofollow ugc">int</a> <a rel="nofollow ugc">js</a>' +
        '<img src="https://img.forum.example/?u=http%3A%2F%2Fpics.example%2Fa.png" srcset="https://forum.example/s.png 1x, https://img.forum.example/?u=http%3A%2F%2Fpics.example%2Fb.png 2x"></p>',
    );
  });

  test('b → strong and font → span are checked by the Sanitizer API afterwards', () => {
    // The policy's sanitizer allows strong: b becomes strong and is kept.
    const policy: Policy = { sanitizer: { elements: ['p', 'strong'] }, elements: { b: { rename: 'strong' } } };
    expect(sanitize('<p><b>bold</b><i>gone</i></p>', { policy })).toBe('<p><strong>bold</strong></p>');
    // A rename into something the policy's own sanitizer removes is a contradiction, refused up front.
    expect(() => sanitize('<font>x</font>', { policy: { ...policy, elements: { font: { rename: 'span' } } } })).toThrow(
      new TypeError('policy.elements["font"].rename: the target "span" is removed by the policy\'s sanitizer'),
    );
    // The call's own sanitizer still decides for that call: here it drops the renamed element.
    expect(sanitize('<p><b>bold</b></p>', { policy, sanitizer: { elements: ['p'] } })).toBe('<p></p>');
    // With the default configuration b would stay b; the rename is what makes it strong.
    expect(sanitize('<p><b>bold</b></p>')).toBe('<p><b>bold</b></p>');
  });

  test('align → style needs the sanitizer to keep style; the style is then filtered', () => {
    const policy: Policy = { ...withLinks, attributes: { align: { toStyle: 'text-align' } }, style: { properties: ['text-align', 'color'] } };
    expect(sanitize('<p align="right" style="color:red;position:fixed">x</p><div align="bogus">y</div>', { policy })).toBe(
      '<p style="text-align:right;color:red">x</p><div>y</div>',
    );
    // A sanitizer that would remove every style attribute makes toStyle a contradiction, refused up front.
    const noStyle: Policy = { ...policy, sanitizer: { elements: ['p'], attributes: [] } };
    expect(() => sanitize('<p align="right">x</p>', { policy: noStyle })).toThrow(
      new TypeError('policy.attributes["align"].toStyle: the policy\'s sanitizer never keeps the style attribute'),
    );
    // Kept on one element only: allowed (the declaration survives where the sanitizer keeps style).
    const pOnly: Policy = { ...policy, sanitizer: { elements: [{ name: 'p', attributes: ['style'] }, 'div'], attributes: [] } };
    expect(sanitize('<p align="right">x</p><div align="right">y</div>', { policy: pOnly })).toBe('<p style="text-align:right">x</p><div>y</div>');
  });

  test('id prefixing with working anchors', () => {
    const policy: Policy = { ...withLinks, ids: { prefix: 'user-content-' } };
    expect(sanitize('<h2 id="install">Install</h2><p><a href="#install">see</a></p>', { policy })).toBe(
      '<h2 id="user-content-install">Install</h2><p><a href="#user-content-install">see</a></p>',
    );
  });

  test('hooks run before the Sanitizer API: what they add is still filtered', () => {
    const policy: Policy = {
      ...withLinks,
      hooks: {
        onElement: (el) => {
          if (el.localName === 'div') return 'unwrap';
          if (el.localName === 'img' && !el.hasAttribute('alt')) return 'drop';
          el.setAttribute('onclick', 'evil()'); // removed by the safe Sanitizer API step
          el.setAttribute('title', 'seen');
          return undefined;
        },
      },
    };
    expect(sanitize('<div><p>a<img src="https://x/i.png"><img src="https://x/j.png" alt="j"></p></div>', { policy })).toBe(
      '<p title="seen">a<img src="https://x/j.png" alt="j" title="seen"></p>',
    );
  });

  test('nodes a hook or a report saw are whole after sanitize returns (the tree is let go of only when none did)', () => {
    const seen: Element[] = [];
    const policy: Policy = { hooks: { onElement: (el) => void seen.push(el) } };
    expect(sanitize('<div><p>a<b>b</b></p></div>', { policy })).toBe('<div><p>a<b>b</b></p></div>');
    expect(seen.map((el) => serializeOuter(el))).toEqual(['<div><p>a<b>b</b></p></div>', '<p>a<b>b</b></p>', '<b>b</b>']);
    // A report: the tbody reparse safety puts back around a row once the configuration has unwrapped the parsed one.
    const reported: ChildNode[] = [];
    const onReport = (r: SanitizeReportEntry): void => void (r.stage === 'reparse-safety' && reported.push(r.node));
    const sanitizer = { replaceWithChildrenElements: ['tbody'] };
    expect(sanitize('<table><tr><td>x</td></tr></table>', { sanitizer, onReport })).toBe('<table><tbody><tr><td>x</td></tr></tbody></table>');
    expect(reported.map((n) => serializeOuter(n))).toEqual(['<tbody><tr><td>x</td></tr></tbody>']);
  });

  test('a throwing hook makes sanitize throw: no output at all', () => {
    const policy: Policy = { hooks: { onElement: () => { throw new Error('oops'); } } };
    expect(() => sanitize('<p>x</p>', { policy })).toThrow(PolicyHookError);
  });

  test('the depth limit on a 100,000-deep input', () => {
    const N = 100_000;
    const html = '<div>'.repeat(N) + 'bottom' + '</div>'.repeat(N);
    const report: SanitizeReportEntry[] = [];
    const policy: Policy = { maxDepth: 64 };
    const out = sanitize(html, { policy, onReport: (e) => report.push(e) });
    const reparsed = parseFragment(out);
    expect(maxElementDepth(reparsed)).toBe(64);
    expect(reparsed.textContent).toBe('bottom');
    // Every element below depth 64 was reported, by the policy, once.
    const policyEntries = report.filter((e) => e.stage === 'policy');
    expect(policyEntries).toHaveLength(maxElementDepth(parseFragment(html)) - 64);
    expect(policyEntries.every((e) => (e as PolicyReportEntry).rule === 'maxDepth' && (e as PolicyReportEntry).action === 'unwrap-element')).toBe(true);
  });

  test('the depth is counted from the context', () => {
    const html = '<tr><td><p><b>x</b></p></td></tr>';
    // In a tbody context, tr is at depth 1: td 2, p 3, b 4.
    const out = sanitize(html, { context: 'tbody', policy: { sanitizer: { elements: ['tr', 'td', 'p', 'b'] }, maxDepth: 3 } });
    expect(out).toBe('<tr><td><p>x</p></td></tr>');
  });

  test('report contents: policy entries with stage, action, rule, names and path', () => {
    const report: SanitizeReportEntry[] = [];
    const policy: Policy = {
      ...withLinks,
      elements: { b: { rename: 'strong' }, marquee: { drop: true } },
      urls: { schemes: ['https'] },
    };
    sanitize('<div><p>x</p><p><b>y</b><a href="http://insecure/">z</a><marquee>m</marquee></p></div>', { policy, onReport: (e) => report.push(e) });
    expect(report).toEqual([
      { stage: 'policy', action: 'rename-element', rule: 'elements["b"].rename', element: 'b', path: 'div > p:nth-child(2) > strong', from: 'b', to: 'strong' },
      { stage: 'policy', action: 'drop-element', rule: 'elements["marquee"].drop', element: 'marquee', path: 'div > p:nth-child(2) > marquee:nth-child(3)' },
      { stage: 'policy', action: 'drop-attribute', rule: 'urls', element: 'a', attribute: 'href', path: 'div > p:nth-child(2) > a:nth-child(2)', from: 'http://insecure/', reason: 'scheme not allowed: http' },
    ]);
  });

  test('comments on or off, mapped onto the sanitizer configuration', () => {
    expect(sanitize('<p>a<!--c-->b</p>')).toBe('<p>ab</p>');
    expect(sanitize('<p>a<!--c-->b</p>', { policy: { comments: true } })).toBe('<p>a<!--c-->b</p>');
    expect(sanitize('<p>a<!--c-->b</p>', { policy: { sanitizer: { elements: ['p'], comments: true }, comments: true } })).toBe('<p>a<!--c-->b</p>');
    // A Sanitizer given in the policy is not modified.
    const s = new Sanitizer({ elements: ['p'], comments: false });
    expect(sanitize('<p>a<!--c-->b</p>', { policy: { sanitizer: s, comments: true } })).toBe('<p>a<!--c-->b</p>');
    expect(s.get().comments).toBe(false);
  });

  test('processing instructions on or off', () => {
    const run = (policy: Policy): string => {
      const f = createDocumentFragment();
      f.appendChild(createProcessingInstruction('xml-stylesheet', 'href="x"'));
      f.appendChild(createElement('p')).appendChild(createText('t'));
      sanitizeWith(f, getSanitizerInstanceFromOptions({ sanitizer: compilePolicy(policy).sanitizer }, true), true);
      return f.childNodes.map((n) => n.nodeName).join(',');
    };
    expect(run({})).toBe('P');
    expect(run({ processingInstructions: true })).toBe('xml-stylesheet,P');
    expect(run({ sanitizer: { elements: ['p'], removeProcessingInstructions: [] }, processingInstructions: false })).toBe('P');
  });

  test('a compiled policy can be passed and reused', () => {
    const compiled = compilePolicy({ ...withLinks, elements: { b: { rename: 'strong' } } });
    expect(sanitize('<b>1</b>', { policy: compiled })).toBe('<strong>1</strong>');
    expect(sanitize('<b>2</b>', { policy: compiled })).toBe('<strong>2</strong>');
  });

  test('an invalid policy fails before parsing', () => {
    expect(() => sanitize('<p>x</p>', { policy: { elements: { 'svg:circle': { rename: 5 } } } as unknown as Policy })).toThrow(
      new TypeError('policy.elements["svg:circle"].rename: expected a string'),
    );
  });

  test('a policy without a sanitizer uses the default configuration even with safe: false', () => {
    // Without a policy, setHTMLUnsafe-like sanitizing keeps everything; the policy brings its own default.
    expect(sanitize('<p><u>x</u><blink>y</blink></p>', { safe: false })).toBe('<p><u>x</u><blink>y</blink></p>');
    expect(sanitize('<p><u>x</u><blink>y</blink></p>', { safe: false, policy: {} })).toBe('<p><u>x</u></p>');
  });

  test('the options sanitizer overrides the policy sanitizer, the policy rules still apply', () => {
    const out = sanitize('<b>x</b><i>y</i>', { sanitizer: { elements: ['strong'] }, policy: { sanitizer: { elements: ['i', 'strong'] }, elements: { b: { rename: 'strong' } } } });
    expect(out).toBe('<strong>x</strong>');
  });

  test('sanitizeFragment and sanitizeDocument take the policy too', () => {
    const f = sanitizeFragment('<p><b>x</b></p>', { policy: { elements: { b: { unwrap: true } } } });
    expect(serialize(f)).toBe('<p>x</p>');
    expect(parentLinksConsistent(f)).toBe(true);
    const doc = sanitizeDocument('<!doctype html><title>t</title><p id="a">x</p>', {
      policy: { sanitizer: { elements: ['html', 'head', 'body', 'title', 'p'], attributes: ['id'] }, ids: { prefix: 'm-' } },
    });
    expect(serialize(doc)).toBe('<!DOCTYPE html><html><head><title>t</title></head><body><p id="m-a">x</p></body></html>');
  });

  test('an extended built-in style policy end to end', () => {
    const comment: Policy = { ...withLinks, elements: { a: { force: { rel: 'noopener noreferrer', target: '_blank' } } }, urls: { schemes: ['https'] } };
    const mine = extendPolicy(comment, { urls: { schemes: { add: ['mailto'] } }, elements: { a: { force: { target: null } } } });
    expect(sanitize('<a href="mailto:a@b">m</a>', { policy: mine })).toBe('<a href="mailto:a@b" rel="noopener noreferrer">m</a>');
    expect(sanitize('<a href="mailto:a@b">m</a>', { policy: comment })).toBe('<a rel="noopener noreferrer" target="_blank">m</a>');
  });

  test('bad input never crashes: odd markup and every stage together', () => {
    const policy: Policy = {
      ...withLinks,
      elements: { b: { rename: 'strong' }, span: { unwrap: true } },
      attributes: { align: { toStyle: 'text-align' } },
      style: { properties: ['text-align'] },
      classes: { allow: ['x'] },
      ids: { prefix: 'u-' },
      maxDepth: 5,
    };
    const inputs = [
      '',
      '<',
      '<svg><a xlink:href="javascript:x" href=" java\nscript:y"><span>s</span></a></svg>',
      '<math><mi href="javascript:x">m</mi></math>',
      '<template><template><b>t</b></template></template>',
      '<p style="">x</p><p style="}">y</p><p style="{">z</p>',
      '<a href="#">a</a><a href="#\u0000">b</a><img srcset=",,,">',
      '<table><span><b align=center>x</b></span></table>',
      '<select><span>o</span></select>',
      '<b>'.repeat(50) + '<span>'.repeat(50),
    ];
    for (const input of inputs) {
      const out = sanitize(input, { policy });
      expect(typeof out).toBe('string');
      expect(sanitize(out, { policy })).toBe(out);
      expect(out).not.toMatch(/javascript/i);
    }
  });
});
