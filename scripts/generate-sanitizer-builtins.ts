/**
 * Generates `src/sanitizer-api/builtins.generated.ts` from the Sanitizer API's built-ins in the shared material
 * (`../shared/sanitizer-api/`, a copy of WICG sanitizer-api `builtins/`):
 *
 * - `safe-default-configuration.json`   the built-in safe default configuration
 * - `safe-baseline-configuration.json`  the built-in safe baseline configuration
 * - `event-handler-content-attributes.txt`  HTML's event handler content attributes (used by "remove unsafe")
 *
 * Run: `npx tsx scripts/generate-sanitizer-builtins.ts` (reads `$HTMLSIFT_SHARED` or `../shared`).
 * `test/sanitizer-api/builtins.test.ts` regenerates in memory and fails when the committed module is stale.
 *
 * The output is compact because it ships in the browser bundle: names are grouped by namespace into
 * space-separated strings, and per-element attribute allow-lists are written `element=attr,attr`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HTML_NS, MATHML_NS, SVG_NS } from '../src/dom.js';
import { sharedDir } from '../test/support/shared.js';

export const OUTPUT_PATH = 'src/sanitizer-api/builtins.generated.ts';

interface JsonName {
  name: string;
  namespace: string | null;
}
interface JsonElement extends JsonName {
  attributes?: JsonName[];
  removeAttributes?: JsonName[];
}

function fail(file: string, what: string): never {
  throw new Error(`generate-sanitizer-builtins: ${file}: ${what}`);
}

/** A name that can sit in a space-separated list and in an `element=attr,attr` entry. */
function checkToken(file: string, name: unknown): string {
  if (typeof name !== 'string' || name === '' || /[\s=,|]/.test(name)) fail(file, `unsupported name ${JSON.stringify(name)}`);
  return name;
}

function checkNamespace(file: string, ns: unknown): string | null {
  if (ns === null || typeof ns === 'string') return ns;
  fail(file, `unsupported namespace ${JSON.stringify(ns)}`);
}

function readJson(dir: string, file: string): Record<string, unknown> {
  const value: unknown = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(file, 'not a JSON object');
  return value as Record<string, unknown>;
}

function list(file: string, config: Record<string, unknown>, key: string): unknown[] {
  const v = config[key];
  if (!Array.isArray(v)) fail(file, `"${key}" is not a list`);
  return v;
}

/** Groups names by namespace, keeping first-seen namespace order and the source order within each group. */
function groupByNamespace(entries: Array<[string | null, string]>): Array<[string | null, string[]]> {
  const groups = new Map<string | null, string[]>();
  for (const [ns, token] of entries) {
    let g = groups.get(ns);
    if (g === undefined) groups.set(ns, (g = []));
    g.push(token);
  }
  return [...groups];
}

/** A string literal wrapped at spaces so that no line grows past ~110 columns. */
function wrapped(tokens: string[], indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const t of tokens) {
    if (line !== '' && line.length + 1 + t.length > 100) {
      lines.push(line + ' ');
      line = t;
    } else {
      line = line === '' ? t : line + ' ' + t;
    }
  }
  lines.push(line);
  return lines.map((l) => JSON.stringify(l)).join(' +\n' + indent);
}

/**
 * The three namespaces as the DOM module's constants (each URL once in the bundle, which is held to a size budget),
 * any other as a string.
 */
const NAMESPACE_CONSTANTS = new Map<string, string>([
  [HTML_NS, 'HTML_NS'],
  [SVG_NS, 'SVG_NS'],
  [MATHML_NS, 'MATHML_NS'],
]);

/** The list literal of `groups`; the names of the constants it writes are added to `used`. */
function groupsLiteral(groups: Array<[string | null, string[]]>, used: Set<string>): string {
  if (groups.length === 0) return '[]';
  const parts = groups.map(([ns, tokens]) => {
    const constant = ns === null ? undefined : NAMESPACE_CONSTANTS.get(ns);
    if (constant !== undefined) used.add(constant);
    return `  [\n    ${constant ?? JSON.stringify(ns)},\n    ${wrapped(tokens, '      ')},\n  ],`;
  });
  return '[\n' + parts.join('\n') + '\n]';
}

/** The generated module's text, from the files in `dir` (the shared `sanitizer-api` folder). */
export function generateBuiltinsSource(dir: string): string {
  // Built-in safe default configuration.
  const defaultFile = 'safe-default-configuration.json';
  const def = readJson(dir, defaultFile);
  const known = new Set(['elements', 'attributes', 'processingInstructions', 'comments', 'dataAttributes']);
  for (const k of Object.keys(def)) if (!known.has(k)) fail(defaultFile, `unexpected member "${k}" (extend the generator)`);

  const elementEntries: Array<[string | null, string]> = [];
  for (const raw of list(defaultFile, def, 'elements')) {
    const e = raw as JsonElement;
    const name = checkToken(defaultFile, e.name);
    const ns = checkNamespace(defaultFile, e.namespace);
    if (ns === null) fail(defaultFile, `element ${name} has a null namespace`);
    if (e.removeAttributes !== undefined) fail(defaultFile, `element ${name} has removeAttributes (extend the generator)`);
    const attrs = (e.attributes ?? []).map((a) => {
      if (checkNamespace(defaultFile, a.namespace) !== null) fail(defaultFile, `namespaced attribute on ${name} (extend the generator)`);
      return checkToken(defaultFile, a.name);
    });
    // Every element in the default carries an explicit (possibly empty) `attributes` list.
    if (e.attributes === undefined) fail(defaultFile, `element ${name} has no attributes list (extend the generator)`);
    elementEntries.push([ns, attrs.length > 0 ? `${name}=${attrs.join(',')}` : name]);
  }
  const attributeEntries: Array<[string | null, string]> = list(defaultFile, def, 'attributes').map((raw) => {
    const a = raw as JsonName;
    return [checkNamespace(defaultFile, a.namespace), checkToken(defaultFile, a.name)];
  });
  const pis = list(defaultFile, def, 'processingInstructions').map((raw) => {
    const t = typeof raw === 'string' ? raw : (raw as { target?: unknown }).target;
    return checkToken(defaultFile, t);
  });
  if (typeof def.comments !== 'boolean' || typeof def.dataAttributes !== 'boolean') {
    fail(defaultFile, '"comments" and "dataAttributes" must be booleans');
  }

  // Built-in safe baseline configuration: removeElements and removeAttributes only.
  const baselineFile = 'safe-baseline-configuration.json';
  const base = readJson(dir, baselineFile);
  for (const k of Object.keys(base)) {
    if (k !== 'removeElements' && k !== 'removeAttributes') fail(baselineFile, `unexpected member "${k}"`);
  }
  const baselineElements: Array<[string | null, string]> = list(baselineFile, base, 'removeElements').map((raw) => {
    const e = raw as JsonName;
    const ns = checkNamespace(baselineFile, e.namespace);
    if (ns === null) fail(baselineFile, 'element with a null namespace');
    return [ns, checkToken(baselineFile, e.name)];
  });
  const baselineAttributes: Array<[string | null, string]> = list(baselineFile, base, 'removeAttributes').map((raw) =>
    typeof raw === 'string'
      ? [null, checkToken(baselineFile, raw)]
      : [checkNamespace(baselineFile, (raw as JsonName).namespace), checkToken(baselineFile, (raw as JsonName).name)],
  );

  // HTML's event handler content attributes: one per line, `//` lines are comments.
  const eventFile = 'event-handler-content-attributes.txt';
  const events = readFileSync(join(dir, eventFile), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('//'))
    .map((l) => checkToken(eventFile, l));

  // The DOM module's constants the lists name (groupsLiteral adds them), imported in place of IMPORTS.
  const used = new Set<string>();
  const source = `/**
 * GENERATED FILE, do not edit. Regenerate with \`npx tsx scripts/generate-sanitizer-builtins.ts\`.
 *
 * Source: the Sanitizer API's built-ins (WICG sanitizer-api \`builtins/\`, 2026-04), read from the project's shared
 * material \`sanitizer-api/\`:
 *   ${defaultFile}, ${baselineFile}, ${eventFile}.
 * Those files are under the W3C Software and Document License (see LICENSE.md beside them).
 *
 * Encoding: names are grouped by namespace into space-separated strings; in the element allow-list an entry
 * \`element=attr,attr\` carries that element's own allow-list of no-namespace attributes, and a bare \`element\`
 * an empty one. \`src/sanitizer-api/builtins.ts\` expands these into canonical configurations.
 */

IMPORTS

/** Built-in safe default configuration, "elements": [namespace, entries]. */
export const DEFAULT_ELEMENTS: ReadonlyArray<readonly [string, string]> = ${groupsLiteral(
    groupByNamespace(elementEntries) as Array<[string, string[]]>,
    used,
  )};

/** Built-in safe default configuration, "attributes": [namespace, names]. */
export const DEFAULT_ATTRIBUTES: ReadonlyArray<readonly [string | null, string]> = ${groupsLiteral(
    groupByNamespace(attributeEntries),
    used,
  )};

/** Built-in safe default configuration, "processingInstructions" (targets). */
export const DEFAULT_PROCESSING_INSTRUCTIONS = ${JSON.stringify(pis.join(' '))};

/** Built-in safe default configuration, "comments". */
export const DEFAULT_COMMENTS = ${def.comments};

/** Built-in safe default configuration, "dataAttributes". */
export const DEFAULT_DATA_ATTRIBUTES = ${def.dataAttributes};

/** Built-in safe baseline configuration, "removeElements": [namespace, names]. */
export const BASELINE_REMOVE_ELEMENTS: ReadonlyArray<readonly [string, string]> = ${groupsLiteral(
    groupByNamespace(baselineElements) as Array<[string, string[]]>,
    used,
  )};

/** Built-in safe baseline configuration, "removeAttributes": [namespace, names]. */
export const BASELINE_REMOVE_ATTRIBUTES: ReadonlyArray<readonly [string | null, string]> = ${groupsLiteral(
    groupByNamespace(baselineAttributes),
    used,
  )};

/** HTML's event handler content attributes (no namespace), in the source's order. */
export const EVENT_HANDLER_CONTENT_ATTRIBUTES =
  ${wrapped(events, '  ')};
`;
  // Only the constants the lists use (an unused import fails the type check).
  return source.replace('\nIMPORTS\n', used.size === 0 ? '' : `\nimport { ${[...used].sort().join(', ')} } from '../dom.js';\n`);
}

function main(): void {
  const shared = sharedDir();
  if (shared === null) {
    console.error('generate-sanitizer-builtins: shared material not found (put it at ../shared or set HTMLSIFT_SHARED)');
    process.exit(1);
  }
  const root = resolve(fileURLToPath(import.meta.url), '..', '..');
  const out = join(root, OUTPUT_PATH);
  writeFileSync(out, generateBuiltinsSource(join(shared, 'sanitizer-api')));
  console.log(`wrote ${OUTPUT_PATH}`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
