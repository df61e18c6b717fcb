/**
 * The internal property names the published build shortens (esbuild's `mangleProps`), and what each becomes.
 *
 * A minifier shortens variables but not property names: `this.activeFormattingElements` stays as long as it is
 * written, in every copy of the package a browser downloads. The classes' `private` and `protected` members are
 * not part of the API (TypeScript refuses them outside their class), so the package's build renames them, as
 * Preact's and other libraries' builds do; so are all the members of a class whose doc comment has the `@internal`
 * tag (TypeScript's convention for declarations outside the API): classes the package does not export, whose public
 * members serve the library's other classes (the tokenizer, the tree builder). A rename is global: every `.name` in the build becomes the new name,
 * so a name is renamed only when nothing else can spell it. It is left alone when it is also:
 *  - a public member of one of our classes, a member of an interface or type literal, a key of an object literal,
 *    a destructured property or a string literal anywhere in `src/` or `policies/` (objects users see or give,
 *    `'name' in x`, `x['name']`);
 *  - a property or method of anything TypeScript's libraries and `@types/node` declare (built-ins, the DOM).
 * The short names are chosen from those nothing in the sources or the language's declarations uses as a property
 * (see `host` for the DOM's and Node's), the shortest for the names the sources read and write most often, and the
 * mapping is fixed by the sources alone (ties in name order), so every build (ESM, CJS, the CLI) renames the same way.
 *
 * `test/published-build.test.ts` runs the build and compares it with the sources on many inputs.
 */
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface InternalNames {
  /** esbuild's `mangleCache`: internal name → short name. */
  mangleCache: Record<string, string>;
  /** esbuild's `mangleProps`: exactly the names of `mangleCache`. */
  mangleProps: RegExp;
}

const isOurs = (file: string): boolean => {
  const rel = relative(root, file).split('\\').join('/');
  return (rel.startsWith('src/') || rel.startsWith('policies/')) && !rel.endsWith('.d.ts');
};

const propertyNameText = (name: ts.Node | undefined): string | undefined =>
  name !== undefined && (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isPrivateIdentifier(name))
    ? name.text
    : undefined;

export function internalNames(): InternalNames {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error('tsconfig.json: ' + ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  })!;
  const options = { ...config.options, noEmit: true };
  // A host that sets parent pointers: a member's modifiers and its class are read through them.
  const program = ts.createProgram(config.fileNames.filter(isOurs), options, ts.createCompilerHost(options, true));
  const checker = program.getTypeChecker();
  const internal = new Set<string>();
  const spelled = new Set<string>(); // every other way a name occurs
  // Every name used as a property or spelled in our sources, but for the DOM's and Node's declarations (see `host`):
  // the names a short name must not be.
  const used = new Set<string>();
  const uses = new Map<string, number>(); // how often our sources read or write each name (the most frequent get the shortest)
  for (const sf of program.getSourceFiles()) {
    const ours = isOurs(sf.fileName);
    // The DOM's and Node's declarations name properties of browser and Node objects (a JSON web key's `d`, a
    // certificate's `C`, the inspector's `parentId`), which the library's objects never are and never inherit from:
    // those names may serve as short names, and may be renamed, unless the sources read them from such an object
    // (checked at each property access below). Node's include `undici-types` (its fetch, which `@types/node` takes
    // from that package: a retry handler's `state`, a dispatcher's `dispatch`). The language's declarations do count
    // (`Array.prototype.at`).
    const host = /[\\/](lib\.(dom|webworker)[.a-z]*\.d\.ts|@types[\\/]node[\\/].*|undici-types[\\/].*)$/.test(sf.fileName);
    // An explicit stack, as everywhere in this project (declaration files are deep enough).
    const stack: ts.Node[] = [sf];
    while (stack.length > 0) {
      const node = stack.pop()!;
      const name = 'name' in node ? propertyNameText((node as { name?: ts.Node }).name) : undefined;
      if (name !== undefined) {
        if (ours && ts.isPropertyAccessExpression(node)) {
          uses.set(name, (uses.get(name) ?? 0) + 1);
          // A name read from a DOM or Node object (or from a value whose type is unknown) keeps its spelling.
          const decls = checker.getSymbolAtLocation(node.name)?.declarations;
          if (decls === undefined || decls.length === 0 || decls.some((d) => !isOurs(d.getSourceFile().fileName))) spelled.add(name);
        }
        if (
          ts.isPropertyDeclaration(node) ||
          ts.isMethodDeclaration(node) ||
          ts.isGetAccessorDeclaration(node) ||
          ts.isSetAccessorDeclaration(node) ||
          (ts.isParameter(node) && ts.isConstructorDeclaration(node.parent) && ts.getModifiers(node) !== undefined)
        ) {
          if (!host) used.add(name);
          const flags = ts.getCombinedModifierFlags(node as ts.Declaration);
          // A method of an object literal is a key users can see, whatever its modifiers (it has none).
          const inClass = ts.isClassLike(node.parent) || ts.isConstructorDeclaration(node.parent);
          // Private and protected members, and every member of a class tagged `@internal` (one the package does not
          // export, whose public members are for the library's other classes: the tree builder's stack of open
          // elements, the tokenizer).
          const hidden =
            (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0 ||
            (inClass && ts.getJSDocTags(ts.isClassLike(node.parent) ? node.parent : node.parent.parent).some((t) => t.tagName.text === 'internal'));
          if (ours && hidden && inClass) internal.add(name);
          else if (!host) spelled.add(name);
        } else if (
          ts.isPropertySignature(node) ||
          ts.isMethodSignature(node) ||
          ts.isPropertyAssignment(node) ||
          ts.isShorthandPropertyAssignment(node) ||
          ts.isEnumMember(node) ||
          ts.isPropertyAccessExpression(node)
        ) {
          if (!host) used.add(name);
          if (!ts.isPropertyAccessExpression(node) && !host) spelled.add(name);
        }
      }
      if (ours) {
        if (ts.isBindingElement(node)) {
          const key = propertyNameText(node.propertyName ?? node.name);
          if (key !== undefined && ts.isObjectBindingPattern(node.parent)) spelled.add(key), used.add(key);
        } else if (ts.isStringLiteralLike(node)) spelled.add(node.text), used.add(node.text);
        else if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) {
          spelled.add(node.argumentExpression.text);
          used.add(node.argumentExpression.text);
        }
      }
      ts.forEachChild(node, (child) => {
        stack.push(child);
      });
    }
  }
  const names = [...internal].filter((n) => !spelled.has(n) && n !== 'constructor').sort();
  const mangleCache: Record<string, string> = {};
  let k = 0;
  // Shortest names to the most frequent; ties in name order, so every build renames the same way.
  for (const n of [...names].sort((a, b) => (uses.get(b) ?? 0) - (uses.get(a) ?? 0) || (a < b ? -1 : a > b ? 1 : 0))) {
    let short: string;
    do short = shortName(k++);
    while (used.has(short) || internal.has(short));
    mangleCache[n] = short;
  }
  return { mangleCache, mangleProps: new RegExp('^(?:' + names.join('|') + ')$') };
}

/** The k-th name of a, b, …, z, A, …, Z, a0, a1, …: identifiers, shortest first. */
function shortName(k: number): string {
  const first = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const rest = first + '0123456789_$';
  if (k < first.length) return first[k]!;
  k -= first.length;
  return first[Math.floor(k / rest.length) % first.length]! + rest[k % rest.length]!;
}

// Run as a script (not when imported, nor when bundled into a benchmark, whose own path import.meta.url then is).
if (/(^|[\\/])scripts[\\/]internal\-names\.ts$/.test(process.argv[1] ?? '')) {
  const { mangleCache } = internalNames();
  for (const [from, to] of Object.entries(mangleCache)) console.log(from.padEnd(36), to);
  console.log(Object.keys(mangleCache).length + ' names');
}
