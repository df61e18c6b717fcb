/**
 * The paste page's script: a contenteditable editor whose paste handler takes the clipboard's text/html, cleans
 * it with the `paste` policy and inserts the result at the caret as DOM nodes built by `toDOM` (no innerHTML, no
 * re-parse). Clipboard data without HTML is left to the browser, which pastes it as plain text. Served bundled
 * (the browser ESM build) by:
 *
 *   npx esbuild examples/paste/app.ts --bundle --format=esm --outdir=examples/paste/build --servedir=examples/paste --serve=127.0.0.1:8788
 *
 * then open http://127.0.0.1:8788/. test/browser/paste-example.test.ts pastes Word and Google Docs captures into it.
 */
import { sanitizeFragment } from '../../src/index.js';
import { paste } from '../../policies/index.js';
import { toDOM } from '../../src/browser/to-dom.js';

const editor = document.getElementById('editor')!;
const markup = document.getElementById('markup')!;

/** The editor's selection, or a caret at the end of the editor when the selection is elsewhere. */
function editorRange(): Range {
  const selection = document.getSelection();
  if (selection !== null && selection.rangeCount > 0) {
    const range = selection.getRangeAt(0);
    if (editor.contains(range.commonAncestorContainer)) return range;
  }
  const range = document.createRange();
  range.selectNodeContents(editor);
  range.collapse(false);
  return range;
}

editor.addEventListener('paste', (event: ClipboardEvent) => {
  const html = event.clipboardData?.getData('text/html') ?? '';
  if (html === '') return;
  event.preventDefault();
  const tree = sanitizeFragment(html, { policy: paste, context: 'div' });
  const nodes = toDOM(tree, document);
  const last = nodes.lastChild;
  const range = editorRange();
  range.deleteContents();
  range.insertNode(nodes);
  if (last !== null) {
    // The caret goes after what was pasted.
    range.setStartAfter(last);
    range.collapse(true);
    const selection = document.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  }
  markup.textContent = editor.innerHTML;
});
