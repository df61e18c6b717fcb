/**
 * Worker thread that runs OUR parser for the differential test, so that a hang or a runaway allocation in a young
 * parser kills a worker (which the host replaces) instead of the test process. Loaded through tsx by ours.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Document, DocumentFragment } from '../../src/dom.js';
import { dumpTree } from '../support/dump.js';
import { parseSimulated } from './chromium-sim.js';

interface Parser {
  parseDocument(input: string, options: { scripting?: boolean }): Document;
  parseFragment(
    input: string,
    options: { context?: string | { name: string; namespace?: string }; scripting?: boolean },
  ): DocumentFragment;
}

export interface WorkerCase {
  kind: 'document' | 'fragment';
  input: string;
  context: { name: string; namespace?: string } | null;
  scripting: boolean;
  /** Parse with Chromium's known departures reproduced (chromium-sim.ts), except the ids listed. */
  simulate?: { without: string[] };
}

export interface WorkerOutcome {
  dump: string;
  mode: string | null;
  /** With `simulate`: Chromium's input and dump fix-ups, and the departures that fired. */
  sim?: { chromiumInput: string; chromiumRenames: [string, string][]; fired: string[] };
}

const HTML_NS = 'http://www.w3.org/1999/xhtml';

async function load(specs: string[]): Promise<Parser | string> {
  const reasons: string[] = [];
  for (const spec of specs) {
    try {
      const m = (await import(spec)) as Partial<Parser>;
      if (typeof m.parseDocument === 'function' && typeof m.parseFragment === 'function') return m as Parser;
      reasons.push(`${spec}: no parseDocument/parseFragment export`);
    } catch (e) {
      reasons.push(`${spec}: ${String(e).split('\n')[0]}`);
    }
  }
  return reasons.join('; ');
}

function parseOne(p: Parser, c: WorkerCase): WorkerOutcome {
  try {
    if (c.simulate !== undefined) {
      // Always our own parser (its internals), whatever HTMLSIFT_DIFF_PARSER loaded.
      const r = parseSimulated(c, c.simulate.without);
      return { dump: r.dump, mode: r.mode, sim: { chromiumInput: r.chromiumInput, chromiumRenames: r.chromiumRenames, fired: r.fired } };
    }
    if (c.kind === 'document') {
      const doc = p.parseDocument(c.input, { scripting: c.scripting });
      return { dump: dumpTree(doc), mode: doc.mode };
    }
    const ctx = c.context!;
    const context = (ctx.namespace ?? HTML_NS) === HTML_NS ? ctx.name : { name: ctx.name, namespace: ctx.namespace! };
    return { dump: dumpTree(p.parseFragment(c.input, { context, scripting: c.scripting })), mode: null };
  } catch (e) {
    return { dump: '#threw ' + (e instanceof Error ? (e.stack ?? e.message) : String(e)), mode: null };
  }
}

const parser = await load((workerData as { specs: string[] }).specs);
if (typeof parser === 'string') {
  parentPort!.postMessage({ type: 'load-error', error: parser });
} else {
  parentPort!.postMessage({ type: 'ready' });
  parentPort!.on('message', (msg: { id: number; cases: WorkerCase[] }) => {
    parentPort!.postMessage({ type: 'result', id: msg.id, results: msg.cases.map((c) => parseOne(parser, c)) });
  });
}
