import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sanitize } from '../../src/sanitize.js';
import { comment, paste } from '../../policies/index.js';
import { repoRoot } from '../support/shared.js';
import { sharedPath } from '../support/shared.js';

const TSX = join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const CLI = join(repoRoot, 'src', 'cli', 'htmlsift.ts');
const tmp = mkdtempSync(join(tmpdir(), 'htmlsift-cli-'));
/** The CLI bundled once into one ESM file (as the published `bin` is): spawning it is much faster than tsx. */
const BUNDLE = join(tmp, 'htmlsift.mjs');
beforeAll(async () => {
  await build({ entryPoints: [CLI], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: BUNDLE, logLevel: 'silent' });
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function run(args: string[], input?: string | Uint8Array, viaTsx = false, nodeArgs: string[] = []) {
  const argv = viaTsx ? [...nodeArgs, TSX, CLI, ...args] : [...nodeArgs, BUNDLE, ...args];
  const r = spawnSync(process.execPath, argv, { input: input ?? '', cwd: tmp, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8') };
}

/** Files below a directory (relative paths), iteratively. */
function listFiles(dir: string): string[] {
  const out: string[] = [];
  const stack = [''];
  while (stack.length > 0) {
    const rel = stack.pop()!;
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const r = rel === '' ? e.name : join(rel, e.name);
      if (e.isDirectory()) stack.push(r);
      else out.push(r);
    }
  }
  return out.sort();
}

function expectUsageError(r: ReturnType<typeof run>, pattern: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^htmlsift: /);
  expect(lines[0]).toMatch(pattern);
}

const DIRTY = '<p onclick="x()">Hi <b>there</b><script>alert(1)</script><a href="javascript:x">l</a><h1>T</h1></p>';

describe('htmlsift CLI', () => {
  it('runs from the TypeScript source through tsx, single input and worker threads', () => {
    expect(run(['--policy', 'comment'], DIRTY, true).stdout).toBe(sanitize(DIRTY, { policy: comment }));
    const dir = join(tmp, 'tsx-in');
    mkdirSync(dir, { recursive: true });
    for (const n of ['a', 'b', 'c']) writeFileSync(join(dir, n + '.html'), DIRTY + n);
    const r = run(['--jobs', '2', dir, '--out', join(tmp, 'tsx-out')], undefined, true);
    expect([r.code, r.stderr]).toEqual([0, '']);
    for (const n of ['a', 'b', 'c']) expect(readFileSync(join(tmp, 'tsx-out', n + '.html'), 'utf8')).toBe(sanitize(DIRTY + n));
  });

  it('stdin to stdout with each built-in policy, as the library does', () => {
    expect(run([], DIRTY).stdout).toBe(sanitize(DIRTY));
    expect(run(['--policy', 'default'], DIRTY).stdout).toBe(sanitize(DIRTY));
    expect(run(['--policy', 'comment'], DIRTY).stdout).toBe(sanitize(DIRTY, { policy: comment }));
    expect(run(['--policy=paste'], DIRTY).stdout).toBe(sanitize(DIRTY, { policy: paste }));
    const email = run(['--policy', 'email'], '<img src="https://t.test/x.png"><p>x</p>');
    expect(email.code).toBe(0);
    expect(email.stdout).not.toContain('t.test');
  });

  it('--policy FILE.json: a JSON policy; invalid ones fail naming the field', () => {
    writeFileSync(join(tmp, 'p.json'), JSON.stringify({ elements: { b: { rename: 'strong' } }, style: false }));
    expect(run(['--policy', 'p.json'], '<b style="color:red">x</b>').stdout).toBe('<strong>x</strong>');
    writeFileSync(join(tmp, 'bad.json'), JSON.stringify({ elements: { b: { rename: 42 } } }));
    expectUsageError(run(['--policy', 'bad.json'], 'x'), /bad\.json.*elements\["b"\]\.rename/);
    writeFileSync(join(tmp, 'broken.json'), '{ nope');
    expectUsageError(run(['--policy', 'broken.json'], 'x'), /not valid JSON/);
    expectUsageError(run(['--policy', 'missing.json'], 'x'), /cannot read policy file 'missing\.json'/);
    expectUsageError(run(['--policy', 'nonsense'], 'x'), /unknown policy 'nonsense'/);
  });

  it('--context parses the fragment in that element', () => {
    expect(run(['--context', 'tr'], '<td>a</td>').stdout).toBe('<td>a</td>');
    expect(run([], '<td>a</td>').stdout).toBe('a');
    expectUsageError(run(['--context', '1x'], 'x'), /--context/);
    expectUsageError(run(['--context', 'div', '--document'], 'x'), /--context and --document/);
  });

  it('--document sanitizes whole documents; with email, scoped styles in a container', () => {
    const doc = run(['--document'], '<!doctype html><title>t</title><p onclick=x>a');
    expect(doc.code).toBe(0);
    expect(doc.stdout).toMatch(/^<!DOCTYPE html><html><head>.*<\/head><body><p>a<\/p><\/body><\/html>$/s);
    const mail = run(['--document', '--policy', 'email'], '<style>p{color:red}</style><p>a</p>');
    expect(mail.stdout).toBe('<div class="htmlsift-email"><style>.htmlsift-email p{color:red;}</style><p>a</p></div>');
    // The body's look and language go to the container.
    const body = run(['--document', '--policy', 'email'], '<html lang="de"><body bgcolor="#fff">a');
    expect(body.stdout).toBe('<div class="htmlsift-email" lang="de"><style>.htmlsift-email{background-color:#ffffff}\n</style>a</div>');
    const rep = run(['--document', '--policy', 'email', '--report'], '<p>a<script>x</script></p>');
    expect(rep.stderr.trimEnd().split('\n').map((l) => (JSON.parse(l) as { element: string }).element)).toContain('script');
  });

  it('--charset decodes the input bytes; unknown labels are refused', () => {
    const bytes = Uint8Array.from([...Buffer.from('<p>caf'), 0xe9, ...Buffer.from('</p>')]);
    expect(run(['--charset', 'windows-1252'], bytes).stdout).toBe('<p>café</p>');
    expect(run(['--charset', 'windows-1252', '--document'], bytes).stdout).toContain('<p>café</p>');
    expect(run([], bytes).stdout).toBe('<p>caf\ufffd</p>');
    expectUsageError(run(['--charset', 'klingon'], 'x'), /--charset: unknown encoding 'klingon'/);
  });

  it('--report writes one JSON object per removal on stderr', () => {
    const r = run(['--report', '--policy', 'comment'], DIRTY);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(sanitize(DIRTY, { policy: comment }));
    const entries = r.stderr.trimEnd().split('\n').map((l) => JSON.parse(l) as { stage: string; action: string; element: string });
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.some((e) => e.action === 'rename-element' && e.element === 'h1')).toBe(true);
    expect(run([], DIRTY).stderr).toBe('');
  });

  it('--check exits 1 when the input would change, 0 when not, and writes nothing', () => {
    const changed = run(['--check'], DIRTY);
    expect([changed.code, changed.stdout]).toEqual([1, '']);
    const clean = sanitize(DIRTY);
    expect(run(['--check'], clean)).toEqual({ code: 0, stdout: '', stderr: '' });
    writeFileSync(join(tmp, 'dirty.html'), DIRTY);
    const f = run(['--check', 'dirty.html']);
    expect(f.code).toBe(1);
    expect(f.stderr).toContain('dirty.html: would change');
    expectUsageError(run(['--check', '--out', 'x.html', 'dirty.html']), /--check/);
  });

  it('files: to stdout, or to --out atomically (no temporary file left)', () => {
    writeFileSync(join(tmp, 'in.html'), DIRTY);
    expect(run(['in.html']).stdout).toBe(sanitize(DIRTY));
    mkdirSync(join(tmp, 'o1'), { recursive: true });
    const r = run(['in.html', '--out', 'o1/out.html']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(tmp, 'o1', 'out.html'), 'utf8')).toBe(sanitize(DIRTY));
    expect(readdirSync(join(tmp, 'o1'))).toEqual(['out.html']);
    // --out naming an existing directory puts the file in it.
    expect(run(['in.html', '--out', 'o1']).code).toBe(0);
    expect(readdirSync(join(tmp, 'o1')).sort()).toEqual(['in.html', 'out.html']);
    expectUsageError(run(['in.html', '--out', 'in.html']), /overwrite its input/);
    // stdin to a file, and '-' for stdin.
    expect(run(['--out', 'o1/stdin.html'], DIRTY).code).toBe(0);
    expect(readFileSync(join(tmp, 'o1', 'stdin.html'), 'utf8')).toBe(sanitize(DIRTY));
    expect(run(['-'], DIRTY).stdout).toBe(sanitize(DIRTY));
    expectUsageError(run(['-', 'in.html']), /stdin/);
  });

  it('errors: unknown flags, missing values, unreadable inputs, unwritable outputs: one line, exit 2', () => {
    expectUsageError(run(['--bogus'], 'x'), /unknown option '--bogus'/);
    expectUsageError(run(['--policy'], 'x'), /--policy needs a value/);
    expectUsageError(run(['--jobs', 'many'], 'x'), /--jobs/);
    expectUsageError(run(['--document=yes'], 'x'), /takes no value/);
    expectUsageError(run(['nope.html']), /cannot read 'nope\.html': no such file/);
    writeFileSync(join(tmp, 'a.html'), 'a');
    writeFileSync(join(tmp, 'b.html'), 'b');
    expectUsageError(run(['a.html', 'b.html']), /several inputs: give --out DIR/);
    mkdirSync(join(tmp, 'd0'), { recursive: true });
    expectUsageError(run(['d0']), /is a directory: give --out/);
    expectUsageError(run(['d0', '--out', 'o0']), /no \.html files/);
    // The output's parent is a file: nothing may be left behind.
    writeFileSync(join(tmp, 'blocker'), '');
    expectUsageError(run(['a.html', '--out', 'blocker/x.html']), /^htmlsift: cannot write 'blocker\/x\.html': /);
    expectUsageError(run(['--out', 'blocker/y.html'], 'a'), /^htmlsift: cannot write 'blocker\/y\.html': /);
    expect(existsSync(join(tmp, 'blocker', 'x.html'))).toBe(false);
    // An unreadable file (permissions do not bind root: then it is a directory where a file is expected).
    writeFileSync(join(tmp, 'locked.html'), 'x');
    chmodSync(join(tmp, 'locked.html'), 0o000);
    const locked = run(['locked.html']);
    if (process.getuid?.() !== 0) expectUsageError(locked, /cannot read 'locked\.html': permission denied/);
    chmodSync(join(tmp, 'locked.html'), 0o644);
    expect(run(['--help']).stdout).toMatch(/^Usage: htmlsift/);
    expect(run(['--help']).code).toBe(0);
    expect(run(['--version']).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('unreadable inputs and policy files, also as root (Node\'s permission model denies the read): one line, exit 2', () => {
    // Only the CLI itself may be read.
    const flag = spawnSync(process.execPath, ['--permission', '-e', '0']).status === 0 ? '--permission' : '--experimental-permission';
    const denied = ['--no-warnings', flag, `--allow-fs-read=${BUNDLE}`];
    writeFileSync(join(tmp, 'secret.html'), '<p>x</p>');
    writeFileSync(join(tmp, 'secret.json'), '{}');
    expectUsageError(run(['secret.html'], undefined, false, denied), /^htmlsift: cannot read 'secret\.html': permission denied$/);
    expectUsageError(run(['--policy', 'secret.json'], 'x', false, denied), /^htmlsift: cannot read policy file 'secret\.json': permission denied$/);
    // The same files are fine when readable: the error is the permission, nothing else.
    expect(run(['secret.html']).stdout).toBe('<p>x</p>');
  });

  it('outputs: two inputs with one output path are refused before anything is written', () => {
    mkdirSync(join(tmp, 'x1'), { recursive: true });
    mkdirSync(join(tmp, 'x2'), { recursive: true });
    writeFileSync(join(tmp, 'x1', 'same.html'), '<p>1</p>');
    writeFileSync(join(tmp, 'x2', 'same.html'), '<p>2</p>');
    expectUsageError(run(['x1/same.html', 'x2/same.html', '--out', 'collide']), /two inputs would be written to 'collide\/same\.html'/);
    expect(existsSync(join(tmp, 'collide'))).toBe(false);
  });

  it('outputs: a failing run leaves existing outputs as they were (never half-written)', () => {
    mkdirSync(join(tmp, 'keep'), { recursive: true });
    writeFileSync(join(tmp, 'keep', 'out.html'), 'previous');
    writeFileSync(join(tmp, 'keep-in.html'), DIRTY);
    // The policy is refused: nothing is written.
    expectUsageError(run(['keep-in.html', '--out', 'keep/out.html', '--policy', 'nonsense']), /unknown policy/);
    expect(readFileSync(join(tmp, 'keep', 'out.html'), 'utf8')).toBe('previous');
    // The input cannot be read: nothing is written.
    expectUsageError(run(['missing-in.html', '--out', 'keep/out.html']), /cannot read 'missing-in\.html'/);
    expect(readFileSync(join(tmp, 'keep', 'out.html'), 'utf8')).toBe('previous');
    // stdin to --out with a bad charset: refused before reading.
    expectUsageError(run(['--out', 'keep/out.html', '--charset', 'nope'], DIRTY), /--charset/);
    expect(readFileSync(join(tmp, 'keep', 'out.html'), 'utf8')).toBe('previous');
    // A batch with a missing input is refused before anything is written.
    mkdirSync(join(tmp, 'kb'), { recursive: true });
    writeFileSync(join(tmp, 'kb', 'ok1.html'), DIRTY + '1');
    writeFileSync(join(tmp, 'kb', 'ok2.html'), DIRTY + '2');
    writeFileSync(join(tmp, 'kb', 'ok3.html'), DIRTY + '3');
    expectUsageError(run(['--jobs', '2', 'kb/ok1.html', 'kb/missing.html', 'kb/ok2.html', '--out', 'kb-out']), /cannot read 'kb\/missing\.html'/);
    expect(existsSync(join(tmp, 'kb-out'))).toBe(false);
    // A batch where one output cannot be put in place (a directory holds its name), on worker threads: the run
    // fails with one line naming it, the others are written whole, and no temporary file is left.
    mkdirSync(join(tmp, 'kb-out', 'ok2.html'), { recursive: true });
    writeFileSync(join(tmp, 'kb-out', 'ok2.html', 'mine.txt'), 'untouched');
    const r = run(['--jobs', '2', 'kb', '--out', 'kb-out']);
    expectUsageError(r, /^htmlsift: cannot write '.*kb-out\/ok2\.html': is a directory$/);
    expect(listFiles(join(tmp, 'kb-out'))).toEqual(['ok1.html', join('ok2.html', 'mine.txt'), 'ok3.html']);
    expect(readFileSync(join(tmp, 'kb-out', 'ok1.html'), 'utf8')).toBe(sanitize(DIRTY + '1'));
    expect(readFileSync(join(tmp, 'kb-out', 'ok3.html'), 'utf8')).toBe(sanitize(DIRTY + '3'));
    expect(readFileSync(join(tmp, 'kb-out', 'ok2.html', 'mine.txt'), 'utf8')).toBe('untouched');
  });

  it('batch: --jobs N runs N worker threads; --jobs 1 runs none', () => {
    // A preload that announces every worker thread (it runs in each thread the CLI starts).
    writeFileSync(join(tmp, 'announce.cjs'), "const w = require('node:worker_threads'); if (!w.isMainThread) process.stderr.write('worker-thread ' + w.threadId + '\\n');\n");
    const dir = join(tmp, 'jobs-in');
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 5; i++) writeFileSync(join(dir, `f${i}.html`), DIRTY + i);
    const two = run(['--jobs', '2', dir, '--out', join(tmp, 'jobs-out2')], undefined, false, ['--require', join(tmp, 'announce.cjs')]);
    expect(two.code).toBe(0);
    expect(two.stderr.trimEnd().split('\n').sort()).toEqual(['worker-thread 1', 'worker-thread 2']);
    const one = run(['--jobs', '1', dir, '--out', join(tmp, 'jobs-out1')], undefined, false, ['--require', join(tmp, 'announce.cjs')]);
    expect([one.code, one.stderr]).toEqual([0, '']);
    for (let i = 0; i < 5; i++) {
      expect(readFileSync(join(tmp, 'jobs-out2', `f${i}.html`), 'utf8')).toBe(sanitize(DIRTY + i));
      expect(readFileSync(join(tmp, 'jobs-out1', `f${i}.html`), 'utf8')).toBe(sanitize(DIRTY + i));
    }
  });

  const corpus = sharedPath('corpus/paste', 'cli batch');
  it.runIf(corpus !== null)('batch: a directory on worker threads, same output as one by one, no progress off a terminal', () => {
    const out = join(tmp, 'batch');
    const r = run(['--policy', 'paste', '--jobs', '2', corpus!, '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const inputs = readdirSync(corpus!).filter((f) => f.endsWith('.html')).sort();
    expect(listFiles(out)).toEqual(inputs);
    for (const f of inputs.slice(0, 20)) {
      expect(readFileSync(join(out, f), 'utf8')).toBe(sanitize(readFileSync(join(corpus!, f), 'utf8'), { policy: paste }));
    }
    // --check over the batch output: already sanitized, so nothing would change.
    const check = run(['--policy', 'paste', '--check', '--jobs', '2', out]);
    expect([check.code, check.stderr]).toEqual([0, '']);
    // --report in batch mode names the file.
    const rep = run(['--policy', 'paste', '--report', '--jobs', '2', join(corpus!, inputs[0]!), join(corpus!, inputs[1]!), '--out', join(tmp, 'batch2')]);
    expect(rep.code).toBe(0);
    const files = new Set(rep.stderr.trimEnd().split('\n').map((l) => (JSON.parse(l) as { file: string }).file));
    expect([...files].sort()).toEqual([join(corpus!, inputs[0]!), join(corpus!, inputs[1]!)].sort());
  });

  const hasScript = spawnSync('script', ['--version']).status === 0;
  it.runIf(hasScript)('batch: progress on a terminal only', () => {
    const dir = join(tmp, 'tty-in');
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 6; i++) writeFileSync(join(dir, `f${i}.html`), DIRTY);
    const cmd = [process.execPath, BUNDLE, '--jobs', '2', dir, '--out', join(tmp, 'tty-out')].map((a) => `'${a}'`).join(' ');
    const r = spawnSync('script', ['-qec', cmd, '/dev/null'], { cwd: tmp, timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout.toString('utf8')).toMatch(/\[6\/6\]/);
    expect(listFiles(join(tmp, 'tty-out'))).toHaveLength(6);
  });

  it('batch: a failing file fails the run with one line and exit 2', () => {
    const dir = join(tmp, 'mixed');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'ok.html'), '<p>x</p>');
    writeFileSync(join(dir, 'ok2.html'), '<p>y</p>');
    const r = run([join(dir, 'ok.html'), join(dir, 'ok2.html'), join(dir, 'gone.html'), '--out', join(tmp, 'mixed-out')]);
    expectUsageError(r, /cannot read '.*gone\.html'/);
  });
});
