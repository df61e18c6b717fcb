/**
 * A systematic sweep for the parse differential: the input up to (or into) every tokenizer state, each followed by
 * every short run of the characters that states treat specially. The random generator reaches a state with a rare
 * next character only now and then (Chromium's LF dropped after a CR in a DOCTYPE's whitespace took 300,000 random
 * documents to show, seed 2026114801); the sweep tries each pair in each state, every run.
 *
 * Two sets:
 * - `pairs`: each state prefix, then two characters of `PAIR_ALPHABET` (NUL, CR, LF, the delimiters, a letter,
 *   U+00A0), then `z>w` to close most tags;
 * - `whitespace`: each state prefix, then three of `RUN_ALPHABET` (whitespace and CR LF among delimiters), then an LF,
 *   `y>`, and text after an LF: what a CR's "skip the next LF" flag can reach.
 */

/** Inputs that leave the tokenizer in each of its states (and the tree builder in a few modes that change them). */
export const STATE_PREFIXES: readonly string[] = [
  // Tags: name, attribute name and value states, self-closing, end tags.
  '<x', '<x a', '<x a=', '<x a=b', '<x a="b', "<x a='b", '<x a="b"', '<x/', '</x', '</x a', '</p', '<p>a</p',
  // DOCTYPE: name, keywords, identifiers.
  '<!DOCTYPE', '<!DOCTYPE h', '<!DOCTYPE h PUBLIC', '<!DOCTYPE h PUBLIC "a', '<!DOCTYPE h PUBLIC "a"', '<!DOCTYPE h SYSTEM',
  "<!DOCTYPE h SYSTEM 'a", '<!DOCTYPE h SYSTEM "a"',
  // Processing instructions, comments, markup declarations, CDATA (in foreign content).
  '<?', '<?x', '<?x y', '<?x y?', '<!--', '<!--a', '<!--a-', '<!--a--', '<!--a--!', '<!-', '<!', '<!a', '<svg><![CDATA[a',
  '<svg><![CDATA[a]',
  // Script data and its escaped states, RCDATA and RAWTEXT end tags, PLAINTEXT.
  '<script><!--', '<script><!--<script>', '<script><!--<script></', '<script><!--a-', '<script></', '<textarea>a</', '<title>a</t',
  '<style>a</s', '<plaintext>a',
  // Character references, in text and in attribute values.
  '&', '&#', '&#x', '&#x4', '&am', '&amp', '&not', '<x a="&', '<x a=&not',
  // Text, and foreign content.
  'a', '<svg><x a="b"', '<math><mi>a',
];

export const PAIR_ALPHABET: readonly string[] = [
  '\u0000', '\r', '\n', '&', '<', '>', '"', "'", '-', ']', '?', '/', '!', '=', 'a', '#', ';', 'x', ' ', '\u00a0',
];

export const RUN_ALPHABET: readonly string[] = ['\r', ' ', '\n', 'x', '>', '"', "'", '/', '=', '?', '-', '\r\n'];

/** The `pairs` set (see the file comment). */
export function sweepPairs(): string[] {
  const out: string[] = [];
  for (const p of STATE_PREFIXES) for (const a of PAIR_ALPHABET) for (const b of PAIR_ALPHABET) out.push(p + a + b + 'z>w');
  return out;
}

/** The `whitespace` set (see the file comment). */
export function sweepWhitespace(): string[] {
  const out: string[] = [];
  for (const p of STATE_PREFIXES) {
    for (const a of RUN_ALPHABET) for (const b of RUN_ALPHABET) for (const c of RUN_ALPHABET) out.push(p + a + b + c + '\ny>\nw');
  }
  return out;
}
