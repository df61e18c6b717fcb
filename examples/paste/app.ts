/**
 * The paste page's script: takes the clipboard's text/html, cleans it with the `paste` policy and inserts the
 * result as DOM nodes built by `toDOM` (no innerHTML). Served bundled (the browser ESM build) by:
 *
 *   npx esbuild examples/paste/app.ts --bundle --format=esm --outdir=examples/paste/build --servedir=examples/paste --serve=127.0.0.1:8788
 *
 * then open http://127.0.0.1:8788/.
 */
import { sanitizeFragment, serialize } from '../../src/index.js';
import { paste } from '../../policies/index.js';
import { toDOM } from '../../src/browser/to-dom.js';

const editor = document.getElementById('editor')!;
const result = document.getElementById('result')!;
const markup = document.getElementById('markup')!;

editor.addEventListener('paste', (event: ClipboardEvent) => {
  const data = event.clipboardData;
  if (data === null) return;
  event.preventDefault();
  const html = data.getData('text/html');
  const source = html !== '' ? html : data.getData('text/plain').replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`).replace(/\n/g, '<br>');
  const tree = sanitizeFragment(source, { policy: paste, context: 'div', reparseSafe: true });
  result.replaceChildren(toDOM(tree, document));
  markup.textContent = serialize(tree);
  editor.textContent = 'Paste again to replace.';
});
