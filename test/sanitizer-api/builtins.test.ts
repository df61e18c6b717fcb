import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { generateBuiltinsSource, OUTPUT_PATH } from '../../scripts/generate-sanitizer-builtins.js';
import { ANIMATING_URL_ATTRIBUTES, EVENT_HANDLER_ATTRIBUTES } from '../../src/sanitizer-api/builtins.js';
import { Sanitizer, configForGet, type SanitizerName } from '../../src/sanitizer-api/index.js';
import { repoRoot, sharedPath } from '../support/shared.js';

const dir = sharedPath('sanitizer-api', 'sanitizer-api builtins');

interface JsonName {
  name: string;
  namespace: string | null;
}

describe.skipIf(dir === null)('built-ins generated from ../shared/sanitizer-api', () => {
  const read = (f: string) => readFileSync(join(dir!, f), 'utf8');

  test('the committed builtins.generated.ts is current (regenerate: npx tsx scripts/generate-sanitizer-builtins.ts)', () => {
    const committed = readFileSync(join(repoRoot, OUTPUT_PATH), 'utf8');
    expect(committed).toBe(generateBuiltinsSource(dir!));
  });

  test('new Sanitizer() holds exactly the safe default configuration of the JSON file', () => {
    const json = JSON.parse(read('safe-default-configuration.json')) as {
      elements: Array<JsonName & { attributes: JsonName[] }>;
      attributes: JsonName[];
      processingInstructions: Array<{ target: string }>;
      comments: boolean;
      dataAttributes: boolean;
    };
    // get() sorts; sorting the file's configuration the same way must give the same dictionary.
    expect(new Sanitizer().get()).toEqual(configForGet(json));
    expect(new Sanitizer().get().elements!.length).toBe(json.elements.length);
  });

  test('remove unsafe covers the baseline and every event handler content attribute of the list', () => {
    const baseline = JSON.parse(read('safe-baseline-configuration.json')) as { removeElements: JsonName[]; removeAttributes: string[] };
    const events = read('event-handler-content-attributes.txt')
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('//'));
    expect(events.length).toBeGreaterThan(80);
    const s = new Sanitizer({});
    s.removeUnsafe();
    const got = s.get();
    const has = (list: SanitizerName[] | undefined, n: JsonName) =>
      list!.some((x) => x.name === n.name && x.namespace === n.namespace);
    for (const e of baseline.removeElements) expect(has(got.removeElements, e), e.name).toBe(true);
    for (const a of [...baseline.removeAttributes, ...events]) expect(has(got.removeAttributes, { name: a, namespace: null }), a).toBe(true);
    // Only those (plus the user agent's extra handlers, all on*).
    // The HTML Standard's baseline also removes <base> (whatwg/html#12664), which the WICG file predates.
    expect(has(got.removeElements, { name: 'base', namespace: 'http://www.w3.org/1999/xhtml' })).toBe(true);
    expect(got.removeElements!.length).toBe(baseline.removeElements.length + 1);
    expect(got.removeAttributes!.every((a) => a.name.startsWith('on') && a.namespace === null)).toBe(true);
    expect(EVENT_HANDLER_ATTRIBUTES.length).toBe(new Set(EVENT_HANDLER_ATTRIBUTES.map((a) => a.name)).size);
  });

  test('the materialized baseline agrees with baseline + event handler list', () => {
    const m = JSON.parse(read('safe-baseline-configuration-materialized.json')) as { removeAttributes: string[] };
    const names = new Set(EVENT_HANDLER_ATTRIBUTES.map((a) => a.name));
    for (const a of m.removeAttributes) expect(names.has(a), a).toBe(true);
  });
});

test('every built-in animating URL attribute pair names the no-namespace attributeName (sanitize.ts keeps only the elements)', () => {
  expect(ANIMATING_URL_ATTRIBUTES.length).toBeGreaterThan(0);
  for (const [, attr] of ANIMATING_URL_ATTRIBUTES) expect(attr).toEqual({ name: 'attributeName', namespace: null });
});
