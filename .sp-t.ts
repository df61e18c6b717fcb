import { parseFragment } from './src/parser.js';
const t = performance.now();
const m = process.argv[2]!;
const f = parseFragment(m, { context: 'div', scripting: process.argv[3] === '1' });
console.log('ok', (performance.now() - t).toFixed(0));
