#!/usr/bin/env node
/**
 * `htmlsift`: the command-line sanitizer.
 *
 *   htmlsift [options] < in.html > out.html
 *   htmlsift [options] FILE [--out OUT]
 *   htmlsift [options] FILE|DIR... --out DIR
 *
 * Options:
 *   --policy NAME|FILE  comment, paste, email, default (the Sanitizer API's safe default), or a JSON policy file
 *   --context TAG       the element the fragment is parsed in (default body); not with --document
 *   --document          sanitize whole documents (with --policy email: the body, its <style> scoped, in a
 *                       <div class="htmlsift-email"> container)
 *   --charset LABEL     decode input bytes with this encoding (default: UTF-8, or the document's own sniffing)
 *   --report            removals and changes as JSON lines on stderr (with "file" in batch mode)
 *   --check             write nothing; exit 1 when some input would change
 *   --out PATH          output file (one input) or directory (several inputs, or a directory input)
 *   --jobs N            worker threads for batch mode (default: CPUs, at most 8)
 *   -h, --help / --version
 *
 * Exit status: 0 done, 1 `--check` found input that would change, 2 usage or input error (one line on stderr).
 * Outputs are written to a temporary file in the target directory and renamed into place, so a failed run
 * never leaves a half-written file. Batch mode (several files) runs on worker threads and shows progress on
 * stderr when stderr is a terminal.
 */
import { mkdirSync, readFileSync, readSync, readdirSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { sanitize, sanitizeDocument, type SanitizeReportEntry } from '../sanitize.js';
import { serialize } from '../serializer.js';
import { compilePolicy, type CompiledPolicy } from '../policy/index.js';
import { comment, email, paste, sanitizeEmail } from '../../policies/index.js';
import { decodeHTMLBytes } from '../encoding/encoding-sniffing.js';
import { getEncoding } from '../encoding/labels.js';
import { installMultiByteDecoders } from '../encoding/multi-byte.js';

installMultiByteDecoders();

const VERSION = '0.1.0';
const EMAIL_CONTAINER = 'htmlsift-email';

/** A usage or input problem: one line on stderr, exit 2. */
class CliError extends Error {}

export interface CliOptions {
  policy: string;
  context: string | null;
  document: boolean;
  charset: string | null;
  report: boolean;
  check: boolean;
  out: string | null;
  jobs: number;
  inputs: string[];
}

const HELP = `Usage: htmlsift [options] [FILE|DIR...]
Sanitize HTML from stdin (to stdout) or from files (to stdout, or --out).

  --policy NAME|FILE  comment | paste | email | default | policy.json (default: default)
  --context TAG       fragment context element (default: body)
  --document          sanitize whole documents
  --charset LABEL     input encoding
  --report            removals as JSON lines on stderr
  --check             write nothing; exit 1 when an input would change
  --out PATH          output file, or directory for several inputs
  --jobs N            worker threads in batch mode
  -h, --help          this help
  --version           the version
Exit status: 0 ok, 1 --check found changes, 2 error.`;

export function parseArgs(argv: readonly string[]): CliOptions | 'help' | 'version' {
  const o: CliOptions = { policy: 'default', context: null, document: false, charset: null, report: false, check: false, out: null, jobs: 0, inputs: [] };
  const withValue = new Set(['--policy', '--context', '--charset', '--out', '--jobs']);
  let rest = false;
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i]!;
    if (rest || arg === '-' || !arg.startsWith('-')) {
      o.inputs.push(arg);
      continue;
    }
    if (arg === '--') {
      rest = true;
      continue;
    }
    let value: string | undefined;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    if (withValue.has(arg)) {
      if (value === undefined) {
        value = argv[++i];
        if (value === undefined) throw new CliError(`option ${arg} needs a value`);
      }
      if (arg === '--policy') o.policy = value;
      else if (arg === '--context') o.context = value;
      else if (arg === '--charset') o.charset = value;
      else if (arg === '--out') o.out = value;
      else {
        if (!/^[1-9][0-9]{0,2}$/.test(value)) throw new CliError(`option --jobs needs a number from 1 to 999, got '${value}'`);
        o.jobs = parseInt(value, 10);
      }
      continue;
    }
    if (value !== undefined) throw new CliError(`option ${arg} takes no value`);
    switch (arg) {
      case '--document':
        o.document = true;
        break;
      case '--report':
        o.report = true;
        break;
      case '--check':
        o.check = true;
        break;
      case '-h':
      case '--help':
        return 'help';
      case '--version':
        return 'version';
      default:
        throw new CliError(`unknown option '${arg}' (see --help)`);
    }
  }
  if (o.context !== null && o.document) throw new CliError('--context and --document cannot be used together');
  if (o.context !== null && !/^[A-Za-z][A-Za-z0-9-]*$/.test(o.context)) throw new CliError(`--context: not an element name: '${o.context}'`);
  if (o.charset !== null && getEncoding(o.charset) === null) throw new CliError(`--charset: unknown encoding '${o.charset}'`);
  if (o.check && o.out !== null) throw new CliError('--check writes nothing: do not combine it with --out');
  return o;
}

// ---------------------------------------------------------------------------------------------
// Policies and the sanitizing of one input

const BUILTIN: Record<string, () => CompiledPolicy | undefined> = {
  default: () => undefined,
  comment: () => compilePolicy(comment),
  paste: () => compilePolicy(paste),
  email: () => compilePolicy(email),
};

export function loadPolicy(spec: string): CompiledPolicy | undefined {
  const builtin = BUILTIN[spec];
  if (builtin !== undefined) return builtin();
  if (!/\.json$/i.test(spec)) throw new CliError(`unknown policy '${spec}' (expected comment, paste, email, default or a .json file)`);
  let text: string;
  try {
    text = readFileSync(spec, 'utf8');
  } catch (e) {
    throw new CliError(`cannot read policy file '${spec}': ${reason(e)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new CliError(`policy file '${spec}' is not valid JSON: ${reason(e)}`);
  }
  try {
    return compilePolicy(json as never);
  } catch (e) {
    throw new CliError(`invalid policy in '${spec}': ${reason(e)}`);
  }
}

/** The Encoding Standard's "decode": a byte order mark wins over the label (and is not content). */
function decode(bytes: Uint8Array, charset: string | null): string {
  return decodeHTMLBytes(bytes, { transportEncoding: charset ?? 'utf-8' }).text;
}

export interface Job {
  policy: string;
  context: string | null;
  document: boolean;
  charset: string | null;
  report: boolean;
}

export interface Result {
  output: string;
  changed: boolean;
  reports: SanitizeReportEntry[];
}

const policyCache = new Map<string, CompiledPolicy | undefined>();

export function sanitizeInput(bytes: Uint8Array, job: Job): Result {
  if (!policyCache.has(job.policy)) policyCache.set(job.policy, loadPolicy(job.policy));
  const policy = policyCache.get(job.policy);
  const reports: SanitizeReportEntry[] = [];
  const onReport = job.report ? (e: SanitizeReportEntry) => void reports.push(e) : undefined;
  let output: string;
  let input: string;
  if (job.document) {
    input = job.charset !== null ? decode(bytes, job.charset) : decode(bytes, null);
    if (job.policy === 'email') {
      const r = sanitizeEmail(bytes, { container: EMAIL_CONTAINER, ...(job.charset !== null ? { charset: job.charset } : {}), ...(onReport ? { onReport } : {}) });
      output = `<div class="${EMAIL_CONTAINER}"${r.lang !== '' ? ` lang="${r.lang}"` : ''}>${r.html}</div>`;
    } else {
      const doc = sanitizeDocument(bytes, {
        ...(policy !== undefined ? { policy } : {}),
        ...(job.charset !== null ? { transportEncoding: job.charset } : {}),
        reparseSafe: true,
        ...(onReport ? { onReport } : {}),
      });
      output = serialize(doc, { roundTrip: true });
    }
  } else {
    input = decode(bytes, job.charset);
    output = sanitize(input, {
      ...(policy !== undefined ? { policy } : {}),
      ...(job.context !== null ? { context: job.context } : {}),
      ...(onReport ? { onReport } : {}),
    });
  }
  return { output, changed: output !== input, reports };
}

// ---------------------------------------------------------------------------------------------
// Files

/** Writes `data` to `path` atomically: a temporary file in the same directory, then a rename. */
export function writeAtomic(path: string, data: string): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing to clean
    }
    throw e;
  }
}

/** `writeAtomic`, a failure reported as a usage error naming the output. */
function writeOutput(path: string, data: string): void {
  try {
    writeAtomic(path, data);
  } catch (e) {
    throw new CliError(`cannot write '${path}': ${reason(e)}`);
  }
}

interface Task {
  input: string;
  /** Output path, or null for stdout / --check. */
  output: string | null;
  /** Name used in reports and progress. */
  name: string;
}

function isHtmlFile(name: string): boolean {
  return /\.(?:html?|xhtml)$/i.test(name);
}

/** The files to process, each with its output path. Directories are walked without recursion. */
function plan(o: CliOptions): Task[] {
  const tasks: Task[] = [];
  const many = o.inputs.length > 1;
  for (const inp of o.inputs) {
    let st;
    try {
      st = statSync(inp);
    } catch (e) {
      throw new CliError(`cannot read '${inp}': ${reason(e)}`);
    }
    if (st.isDirectory()) {
      if (o.out === null && !o.check) throw new CliError(`'${inp}' is a directory: give --out DIR`);
      const base = resolve(inp);
      const stack = [base];
      const found: string[] = [];
      while (stack.length > 0) {
        const dir = stack.pop()!;
        let entries;
        try {
          entries = readdirSync(dir, { withFileTypes: true });
        } catch (e) {
          throw new CliError(`cannot read directory '${dir}': ${reason(e)}`);
        }
        for (const ent of entries) {
          const p = join(dir, ent.name);
          if (ent.isDirectory()) stack.push(p);
          else if (ent.isFile() && isHtmlFile(ent.name)) found.push(p);
        }
      }
      found.sort();
      for (const f of found) {
        const rel = relative(base, f);
        const out = o.out === null ? null : many ? join(o.out, basename(base), rel) : join(o.out, rel);
        tasks.push({ input: f, output: out, name: f });
      }
    } else {
      let out: string | null = null;
      if (o.out !== null) {
        let outIsDir = many || o.inputs.some((x) => x !== inp);
        try {
          if (statSync(o.out).isDirectory()) outIsDir = true;
        } catch {
          // does not exist yet
        }
        out = outIsDir ? join(o.out, basename(inp)) : o.out;
      } else if (many && !o.check) {
        throw new CliError('several inputs: give --out DIR');
      }
      tasks.push({ input: inp, output: out, name: inp });
    }
  }
  const outs = new Set<string>();
  for (const t of tasks) {
    if (t.output === null) continue;
    const r = resolve(t.output);
    if (r === resolve(t.input)) throw new CliError(`output '${t.output}' would overwrite its input`);
    if (outs.has(r)) throw new CliError(`two inputs would be written to '${t.output}'`);
    outs.add(r);
  }
  return tasks;
}

function reason(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as { code?: string }).code;
    if (code === 'ENOENT') return 'no such file or directory';
    if (code === 'EACCES' || code === 'EPERM' || code === 'ERR_ACCESS_DENIED') return 'permission denied';
    if (code === 'EISDIR') return 'is a directory';
    return e.message.split('\n')[0]!;
  }
  return String(e);
}

function readInput(path: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch (e) {
    throw new CliError(`cannot read '${path}': ${reason(e)}`);
  }
}

function readStdin(): Uint8Array {
  const chunks: Buffer[] = [];
  const buf = Buffer.alloc(65536);
  for (;;) {
    let n: number;
    try {
      n = readSyncFd(0, buf);
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'EAGAIN') continue;
      if (code === 'EOF') break;
      throw new CliError(`cannot read stdin: ${reason(e)}`);
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks);
}

function readSyncFd(fd: number, buf: Buffer): number {
  return readSync(fd, buf, 0, buf.length, null);
}

// ---------------------------------------------------------------------------------------------
// Running

interface TaskOutcome {
  index: number;
  changed?: boolean;
  error?: string;
  reports?: SanitizeReportEntry[];
}

function runTask(task: Task, job: Job, check: boolean): Omit<TaskOutcome, 'index'> {
  try {
    const r = sanitizeInput(readInput(task.input), job);
    if (!check && task.output !== null) writeOutput(task.output, r.output);
    else if (!check) process.stdout.write(r.output);
    return { changed: r.changed, reports: r.reports };
  } catch (e) {
    return { error: e instanceof CliError ? e.message : `${task.name}: ${reason(e)}` };
  }
}

function emitReports(reports: readonly SanitizeReportEntry[] | undefined, file: string | null): void {
  if (reports === undefined) return;
  for (const r of reports) process.stderr.write(JSON.stringify(file === null ? r : { file, ...r }) + '\n');
}

async function runBatch(tasks: Task[], job: Job, o: CliOptions): Promise<number> {
  const tty = process.stderr.isTTY === true;
  const outcomes: TaskOutcome[] = [];
  let done = 0;
  const progress = (name: string): void => {
    if (tty) process.stderr.write(`\r\x1b[K[${done}/${tasks.length}] ${name.length > 60 ? '…' + name.slice(-59) : name}`);
  };
  const handle = (t: TaskOutcome): void => {
    outcomes.push(t);
    done++;
    if (tty) process.stderr.write('\r\x1b[K');
    emitReports(t.reports, tasks[t.index]!.name);
    if (o.check && t.changed) process.stderr.write(`${tasks[t.index]!.name}: would change\n`);
    progress(tasks[t.index]!.name);
  };
  const jobs = Math.min(o.jobs > 0 ? o.jobs : Math.min(8, availableParallelism()), tasks.length);
  if (jobs <= 1) {
    for (let i = 0; i < tasks.length; i++) handle({ index: i, ...runTask(tasks[i]!, job, o.check) });
  } else {
    await new Promise<void>((resolveAll, rejectAll) => {
      let next = 0;
      let live = 0;
      const self = fileURLToPath(import.meta.url);
      // Run from the TypeScript source (through tsx), a worker registers tsx's loader before loading this module.
      const fromSource = self.endsWith('.ts');
      const entry = fromSource
        ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(import.meta.url)}); })`
        : self;
      const workers: Worker[] = [];
      let failed = false;
      const start = (): void => {
        const w = new Worker(entry, { eval: fromSource, workerData: { job, check: o.check } });
        workers.push(w);
        live++;
        const feed = (): void => {
          if (next < tasks.length) {
            const index = next++;
            w.postMessage({ index, task: tasks[index] });
          } else void w.terminate();
        };
        w.on('message', (m: TaskOutcome) => {
          handle(m);
          feed();
        });
        w.on('error', (e) => {
          if (failed) return;
          failed = true;
          for (const x of workers) void x.terminate();
          rejectAll(e);
        });
        w.on('exit', () => {
          if (--live === 0) resolveAll();
        });
        feed();
      };
      for (let k = 0; k < jobs; k++) start();
    });
  }
  if (tty) process.stderr.write('\r\x1b[K');
  const errors = outcomes.filter((t) => t.error !== undefined).sort((a, b) => a.index - b.index);
  if (errors.length > 0) {
    process.stderr.write(`htmlsift: ${errors[0]!.error}${errors.length > 1 ? ` (and ${errors.length - 1} more failed)` : ''}\n`);
    return 2;
  }
  return o.check && outcomes.some((t) => t.changed) ? 1 : 0;
}

export async function main(argv: readonly string[]): Promise<number> {
  let o: CliOptions | 'help' | 'version';
  try {
    o = parseArgs(argv);
    if (o === 'help') {
      process.stdout.write(HELP + '\n');
      return 0;
    }
    if (o === 'version') {
      process.stdout.write(VERSION + '\n');
      return 0;
    }
    const job: Job = { policy: o.policy, context: o.context, document: o.document, charset: o.charset, report: o.report };
    policyCache.set(o.policy, loadPolicy(o.policy)); // fail early on a bad policy
    if (o.inputs.length === 0 || (o.inputs.length === 1 && o.inputs[0] === '-')) {
      const r = sanitizeInput(readStdin(), job);
      emitReports(r.reports, null);
      if (o.check) return r.changed ? 1 : 0;
      if (o.out !== null) writeOutput(o.out, r.output);
      else process.stdout.write(r.output);
      return 0;
    }
    if (o.inputs.includes('-')) throw new CliError("'-' (stdin) cannot be combined with other inputs");
    const tasks = plan(o);
    if (tasks.length === 0) throw new CliError('no .html files found in the inputs');
    if (tasks.length === 1) {
      const t = tasks[0]!;
      const r = sanitizeInput(readInput(t.input), job);
      emitReports(r.reports, null);
      if (o.check) {
        if (r.changed) process.stderr.write(`${t.name}: would change\n`);
        return r.changed ? 1 : 0;
      }
      if (t.output !== null) writeOutput(t.output, r.output);
      else process.stdout.write(r.output);
      return 0;
    }
    return await runBatch(tasks, job, o);
  } catch (e) {
    process.stderr.write(`htmlsift: ${e instanceof CliError ? e.message : reason(e)}\n`);
    return 2;
  }
}

/** Whether this module is the program being run (also through a symlinked `bin`), not an import. */
function isEntryPoint(): boolean {
  const arg = process.argv[1];
  if (arg === undefined) return false;
  try {
    return realpathSync(arg) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (!isMainThread && parentPort !== null) {
  const { job, check } = workerData as { job: Job; check: boolean };
  const port = parentPort;
  port.on('message', (m: { index: number; task: Task }) => {
    port.postMessage({ index: m.index, ...runTask(m.task, job, check) });
  });
} else if (isMainThread && isEntryPoint()) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`htmlsift: ${reason(e)}\n`);
      process.exitCode = 2;
    },
  );
}
