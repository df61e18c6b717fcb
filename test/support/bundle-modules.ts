/**
 * What a browser bundle of `sanitize(html)` alone must not carry, by module: the policy engine (but the link check
 * `sanitize` makes for a literal policy), the CSS toolkit, the encoding tables, the quirks-mode tables and the URL
 * toolkit. `modules` are paths from the repository's layout (`src/…`), with their extension (`.ts` from the sources,
 * `.js` from the published build); returns those it must not carry.
 */
export function modulesSanitizeMustNotCarry(modules: readonly string[]): string[] {
  return modules.filter((f) => {
    const m = f.replace(/\.(ts|js)$/, '');
    return (
      (m.startsWith('src/policy/') && m !== 'src/policy/link') ||
      m.startsWith('src/css/') ||
      m.startsWith('src/encoding/') ||
      m === 'src/tree-builder/quirks-mode' ||
      m === 'src/url/index'
    );
  });
}
