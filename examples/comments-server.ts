/**
 * A comments server: `npx tsx examples/comments-server.ts` then open http://127.0.0.1:8787/ (PORT to change).
 *
 * Comments are sanitized once, when posted, with the `comment` policy, and stored (in memory) as safe HTML;
 * rendering just concatenates them. Listens on 127.0.0.1 only. Bodies over 64 KiB are refused (413).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { sanitize } from '../src/index.js';
import { comment } from '../policies/index.js';

const PORT = Number(process.env.PORT ?? 8787);
const MAX_BODY = 64 * 1024;
const comments: { at: string; html: string }[] = [];

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(): string {
  const list = comments.map((c) => `<article><time>${escapeHtml(c.at)}</time><div class="body">${c.html}</div></article>`).join('\n');
  return `<!doctype html><meta charset="utf-8"><title>htmlsift comments</title>
<style>body{font:16px system-ui;max-width:40em;margin:2em auto}article{border-top:1px solid #ccc;padding:.5em 0}time{color:#666;font-size:.8em}textarea{width:100%;height:8em}</style>
<h1>Comments</h1>
<form method="post" action="/comments"><textarea name="html" placeholder="HTML allowed: &lt;b&gt;, &lt;a href&gt;, lists, quotes, code..."></textarea><button>Post</button></form>
${list || '<p>No comments yet.</p>'}`;
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        resolve(null);
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: string, type = 'text/html; charset=utf-8'): void {
  res.writeHead(status, {
    'content-type': type,
    // Defense in depth: even if something slipped through, no script runs.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src https:; form-action 'self'",
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
}

const server = createServer((req, res) => {
  void (async () => {
    if (req.method === 'GET' && req.url === '/') return send(res, 200, page());
    if (req.method === 'POST' && req.url === '/comments') {
      const body = await readBody(req);
      if (body === null) return send(res, 413, 'Comment too large', 'text/plain; charset=utf-8');
      const html = new URLSearchParams(body).get('html') ?? '';
      const safe = sanitize(html, { policy: comment }).trim();
      if (safe !== '') comments.push({ at: new Date().toISOString(), html: safe });
      res.writeHead(303, { location: '/' });
      return res.end();
    }
    send(res, 404, 'Not found', 'text/plain; charset=utf-8');
  })().catch((e: unknown) => send(res, 500, 'Error: ' + escapeHtml(String(e)), 'text/plain; charset=utf-8'));
});

server.listen(PORT, '127.0.0.1', () => console.log(`comments server on http://127.0.0.1:${PORT}/`));
