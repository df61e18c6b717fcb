/**
 * `comment`: user comments (blog comments, forum posts, reviews).
 *
 * Kept: formatting (b, strong, i, em, u, s, del, ins, sub, sup, small, mark, abbr, code, kbd, samp, var, q, cite),
 * paragraphs and line breaks, lists, quotes, `pre`, headings demoted: a comment's headings are
 * clamped to h3..h6 (h1 and h2 become h3; h3..h6 stay), so a comment never outranks the page's own h1/h2. A
 * clamp rather than a shift (h1→h3, h3→h5) because a shift is not idempotent: sanitizing the output again
 * would demote again, and every built-in policy is a fixed point of itself, links limited to http, https and mailto
 * (relative links lose their `href`) with `rel="nofollow ugc noopener noreferrer"` forced.
 * Removed: styles, classes, ids, form controls, media, frames, SVG/MathML; unknown or layout elements (div, span,
 * table...) and `form` are unwrapped, their text kept (a comment or page wrapped in a `<form>` keeps its words).
 * Elements nested deeper than 32 are unwrapped.
 *
 * Images are off. Turn them on with `commentPolicy({ images: true })`: `<img src alt width height>` with https
 * `src` only (an http, data: or relative `src` is removed; the `img` stays, showing its `alt`). The other
 * documented way to adapt a built-in policy is `extendPolicy(comment, changes)`.
 */
import type { Element } from '../src/dom.js';
import type { Policy, PolicyContext } from '../src/policy/index.js';
import { ALWAYS_DROP, deepFreeze, optionsObject, unknownElementAction } from './shared.js';

export interface CommentPolicyOptions {
  /** Allow `<img>` with https sources (default false). */
  images?: boolean;
  /** Depth cap (default 32). */
  maxDepth?: number;
}

const TEXT_ELEMENTS = [
  'p', 'br', 'hr', 'b', 'strong', 'i', 'em', 'u', 's', 'del', 'ins', 'sub', 'sup', 'small', 'mark', 'abbr',
  'code', 'kbd', 'samp', 'var', 'q', 'cite', 'pre', 'blockquote', 'ul', 'ol', 'li', 'dl', 'dt', 'dd',
  'h3', 'h4', 'h5', 'h6',
];

/** The comment policy, optionally with images. Each call returns a new, deeply frozen policy object (extend it with `extendPolicy`). */
export function commentPolicy(options?: CommentPolicyOptions | null): Policy {
  options = optionsObject(options, 'commentPolicy');
  const images = options.images ?? false;
  if (typeof images !== 'boolean') throw new TypeError('commentPolicy: options.images: expected a boolean');
  const maxDepth = options.maxDepth ?? 32;
  if (!Number.isInteger(maxDepth) || maxDepth < 1) throw new TypeError('commentPolicy: options.maxDepth: expected a positive integer');
  const WITH_ATTRIBUTES = new Set(['ol', 'abbr', 'q', 'blockquote']);
  const allowed = new Set([...TEXT_ELEMENTS, 'a', 'h1', 'h2', ...(images ? ['img'] : [])]);
  const dropped = new Set([...ALWAYS_DROP, ...(images ? [] : ['img'])]);
  const policy: Policy = {
    sanitizer: {
      elements: [
        ...TEXT_ELEMENTS.filter((n) => !WITH_ATTRIBUTES.has(n)),
        { name: 'a', attributes: ['href', 'title'] },
        { name: 'ol', attributes: ['start', 'reversed'] },
        { name: 'abbr', attributes: ['title'] },
        { name: 'q', attributes: ['cite'] },
        { name: 'blockquote', attributes: ['cite'] },
        ...(images ? [{ name: 'img', attributes: ['src', 'alt', 'width', 'height'] }] : []),
      ],
      attributes: ['lang', 'dir'],
      comments: false,
      dataAttributes: false,
    },
    urls: {
      schemes: ['http', 'https', 'mailto'],
      relative: 'drop',
      kinds: { image: { schemes: ['https'], relative: 'drop' } },
    },
    attributes: {
      width: { value: { pattern: '[0-9]{1,4}' } },
      height: { value: { pattern: '[0-9]{1,4}' } },
      start: { value: { pattern: '-?[0-9]{1,9}' } },
    },
    style: false,
    classes: false,
    elements: {
      a: { force: { rel: 'nofollow ugc noopener noreferrer' } },
      h1: { rename: 'h3' },
      h2: { rename: 'h3' },
    },
    hooks: {
      onElement(el: Element, _ctx: PolicyContext) {
        return unknownElementAction(el, allowed, dropped);
      },
    },
    maxDepth,
  };
  return deepFreeze(policy);
}

/** The comment policy without images. */
export const comment: Policy = commentPolicy();
