/**
 * `srcset` (HTML Standard, "parse a srcset attribute") and a serializer whose output re-parses to the same
 * candidates, plus filtering of every candidate URL through a URL policy.
 */
import { isAsciiWhitespace as isWs } from '../dom.js';
import { type UrlContext, type UrlPolicy, checkUrl } from './url-policy.js';

export interface SrcsetCandidate {
  url: string;
  /** Width descriptor (`100w`), if any. */
  width?: number;
  /** Pixel density descriptor (`1.5x`), if any. */
  density?: number;
  /** Future-compat height descriptor (`100h`), only together with a width. */
  height?: number;
  /** The descriptors as written (validated), in order, for faithful re-serialization. */
  descriptors: string[];
}

export interface SrcsetParseResult {
  candidates: SrcsetCandidate[];
  /** Number of parse errors (dropped candidates and stray commas). */
  errors: number;
}

const NON_NEGATIVE_INTEGER = /^[0-9]+$/;
// "valid floating-point number": optional "-", digits and/or a fraction, optional exponent.
const FLOATING_POINT = /^-?(?:[0-9]+|[0-9]*\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** "Parse a srcset attribute". */
export function parseSrcset(input: string): SrcsetParseResult {
  const candidates: SrcsetCandidate[] = [];
  let errors = 0;
  const n = input.length;
  let pos = 0;
  for (;;) {
    // 1. Splitting loop: skip whitespace and commas (commas are a parse error).
    while (pos < n) {
      const c = input.charCodeAt(pos);
      if (c === 0x2c) errors++;
      else if (!isWs(c)) break;
      pos++;
    }
    if (pos >= n) return { candidates, errors };
    // 2. Collect the URL: a run of non-whitespace.
    const urlStart = pos;
    while (pos < n && !isWs(input.charCodeAt(pos))) pos++;
    let url = input.slice(urlStart, pos);
    const descriptors: string[] = [];
    if (url.charCodeAt(url.length - 1) === 0x2c) {
      // 3. A URL ending in commas: remove them (parse error); no descriptors.
      let e = url.length;
      while (e > 0 && url.charCodeAt(e - 1) === 0x2c) e--;
      url = url.slice(0, e);
      errors++;
    } else {
      // 4. Descriptor tokenizer.
      while (pos < n && isWs(input.charCodeAt(pos))) pos++;
      let current = '';
      let state: 'in descriptor' | 'in parens' | 'after descriptor' = 'in descriptor';
      tokenize: for (;;) {
        const c = pos < n ? input.charCodeAt(pos) : -1;
        switch (state) {
          case 'in descriptor':
            if (c !== -1 && isWs(c)) {
              if (current !== '') {
                descriptors.push(current);
                current = '';
                state = 'after descriptor';
              }
            } else if (c === 0x2c) {
              pos++;
              if (current !== '') descriptors.push(current);
              break tokenize;
            } else if (c === 0x28) {
              current += '(';
              state = 'in parens';
            } else if (c === -1) {
              if (current !== '') descriptors.push(current);
              break tokenize;
            } else current += input[pos]!;
            break;
          case 'in parens':
            if (c === 0x29) {
              current += ')';
              state = 'in descriptor';
            } else if (c === -1) {
              descriptors.push(current);
              break tokenize;
            } else current += input[pos]!;
            break;
          case 'after descriptor':
            if (c !== -1 && isWs(c)) {
              // stay
            } else if (c === -1) {
              break tokenize;
            } else {
              state = 'in descriptor';
              continue; // reconsume
            }
            break;
        }
        pos++;
      }
    }
    // 5. Descriptor parser.
    let error = false;
    let width: number | undefined;
    let density: number | undefined;
    let height: number | undefined;
    for (const d of descriptors) {
      const last = d[d.length - 1];
      const num = d.slice(0, -1);
      if (last === 'w') {
        if (width !== undefined || density !== undefined || !NON_NEGATIVE_INTEGER.test(num)) error = true;
        else {
          width = parseInt(num, 10);
          if (width === 0) error = true;
        }
      } else if (last === 'x') {
        if (width !== undefined || density !== undefined || height !== undefined || !FLOATING_POINT.test(num)) {
          error = true;
        } else {
          density = parseFloat(num);
          if (density < 0) error = true;
        }
      } else if (last === 'h') {
        if (height !== undefined || density !== undefined || !NON_NEGATIVE_INTEGER.test(num)) error = true;
        else {
          height = parseInt(num, 10);
          if (height === 0) error = true;
        }
      } else error = true;
    }
    if (height !== undefined && width === undefined) error = true;
    if (error) {
      errors++;
      continue;
    }
    const cand: SrcsetCandidate = { url, descriptors };
    if (width !== undefined) cand.width = width;
    if (density !== undefined) cand.density = density;
    if (height !== undefined) cand.height = height;
    candidates.push(cand);
  }
}

/** Make a URL safe to stand in a srcset: no whitespace anywhere, no comma at either end. */
export function srcsetSafeUrl(url: string): string {
  let out = '';
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (isWs(c) || (c === 0x2c && (i === 0 || i === url.length - 1))) {
      out += '%' + c.toString(16).toUpperCase().padStart(2, '0');
    } else out += url[i]!;
  }
  return out;
}

/** Serialize candidates: `url descriptors, url descriptors`. */
export function serializeSrcset(candidates: readonly SrcsetCandidate[]): string {
  return candidates
    .map((c) => {
      const url = srcsetSafeUrl(c.url);
      return c.descriptors.length > 0 ? url + ' ' + c.descriptors.join(' ') : url;
    })
    .join(', ');
}

export interface SrcsetFilterResult {
  /** The filtered attribute value, or null when no candidate survived. */
  value: string | null;
  candidates: SrcsetCandidate[];
  removed: { url: string; reason: string }[];
}

/** Parse a srcset, pass each candidate URL through the policy, and serialize what is left. */
export function filterSrcset(value: string, policy: UrlPolicy, context: UrlContext): SrcsetFilterResult {
  const { candidates } = parseSrcset(value);
  const kept: SrcsetCandidate[] = [];
  const removed: { url: string; reason: string }[] = [];
  for (const c of candidates) {
    const d = checkUrl(c.url, policy, context);
    if (d.value === null || d.value === '') {
      removed.push({ url: c.url, reason: d.value === '' ? 'empty URL' : d.reason });
      continue;
    }
    kept.push({ ...c, url: srcsetSafeUrl(d.value) }); // as serialized, so re-parsing gives these candidates
  }
  return { value: kept.length > 0 ? serializeSrcset(kept) : null, candidates: kept, removed };
}
