/**
 * An email viewer: HTML email in, a safe HTML page out, with remote images proxied and `cid:` images resolved.
 *
 *   npx tsx examples/email-viewer.ts message.html [--charset windows-1252] [--base-url URL] > safe.html
 *
 * `--base-url` is the MIME part's `Content-Location` (or `Content-Base`), when it has one: relative URLs in the
 * message resolve against it (or against the message's own `<base href>`); without either they are dropped.
 * Remote images become `https://images.example/proxy?url=...` (put your image proxy there); `cid:` parts become
 * `attachments/<content-id>` (where a real viewer serves the MIME parts). The message's style sheets are scoped
 * to its container, so the page around it keeps its own look; the container takes the message body's own look
 * (background, colors, margins), so the page's spacing goes on an element around it.
 */
import { readFileSync } from 'node:fs';
// The Node entry point of the policies (what `htmlsift/policies` resolves to in Node): byte input in any of the
// standard's encodings, Shift_JIS or EUC-KR mail included, decodes as the Encoding Standard says.
import { sanitizeEmail } from '../policies/node.js';

const args = process.argv.slice(2);
let charset: string | undefined;
let baseUrl: string | undefined;
const files: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--charset') charset = args[++i];
  else if (args[i] === '--base-url') baseUrl = args[++i];
  else files.push(args[i]!);
}
if (files.length !== 1) {
  console.error('usage: email-viewer.ts MESSAGE.html [--charset LABEL] [--base-url URL]');
  process.exit(2);
}
let bytes: Uint8Array;
try {
  bytes = readFileSync(files[0]!);
} catch (e) {
  console.error(`email-viewer: cannot read '${files[0]}': ${(e as Error).message}`);
  process.exit(2);
}

const blocked: string[] = [];
let mail: ReturnType<typeof sanitizeEmail>;
try {
  mail = sanitizeEmail(bytes, {
    ...(charset !== undefined ? { charset } : {}),
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    proxyImage: (url) => 'https://images.example/proxy?url=' + encodeURIComponent(url),
    resolveCid: (id) => (/^[\w.@-]+$/.test(id) ? 'attachments/' + encodeURIComponent(id) : (blocked.push(id), null)),
  });
} catch (e) {
  // A bad --charset or --base-url: the option's name and what was wrong.
  console.error(`email-viewer: ${(e as Error).message}`);
  process.exit(2);
}

process.stdout.write(`<!doctype html><meta charset="utf-8"><title>Message</title>
<meta http-equiv="content-security-policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src https://images.example 'self'">
<style>body{font:14px system-ui;margin:0}header{padding:8px 16px;background:#eee}main{padding:16px;overflow:auto}</style>
<header>Sanitized with htmlsift (${mail.cssRemoved.length} CSS removals${blocked.length ? `, ${blocked.length} cid: blocked` : ''})</header>
<main><div class="${mail.container}"${mail.lang !== '' ? ` lang="${mail.lang}"` : ''}>${mail.html}</div></main>
`);
