/**
 * Delta debugging for differential failures: repeatedly removes chunks (then single characters) of the input while
 * the failure persists. Candidates of one granularity are tested as one batch (one page.evaluate), so a minimization
 * costs tens of round trips, not thousands.
 */

export interface MinimizeResult {
  input: string;
  /** Candidate inputs tested. */
  tested: number;
  rounds: number;
}

/**
 * `fails(candidates)` answers either, per candidate, whether it still shows the failure (boolean[]), or the index
 * of the first candidate that does, or -1 (a number: it may then stop testing at the first hit). `budget` caps the
 * number of candidates offered. The result always fails (it is the input itself when nothing smaller does).
 */
export async function minimize(
  input: string,
  fails: (candidates: string[]) => Promise<boolean[] | number>,
  budget = 4000,
  /** Optional `performance.now()` value after which no new round starts. */
  deadline = Infinity,
): Promise<MinimizeResult> {
  let cur = input;
  let n = 2;
  let tested = 0;
  let rounds = 0;
  while (cur.length > 0 && tested < budget && performance.now() < deadline) {
    const chunk = Math.max(1, Math.ceil(cur.length / n));
    const candidates: string[] = [];
    for (let start = 0; start < cur.length; start += chunk) {
      candidates.push(cur.slice(0, start) + cur.slice(start + chunk));
    }
    const take = candidates.slice(0, Math.max(1, budget - tested));
    const answer = await fails(take);
    const hit = typeof answer === 'number' ? answer : answer.indexOf(true);
    tested += hit >= 0 ? hit + 1 : take.length;
    rounds++;
    if (hit >= 0) {
      cur = take[hit]!;
      n = Math.max(2, n - 1);
    } else if (chunk === 1) {
      break;
    } else {
      n = Math.min(cur.length, n * 2);
    }
  }
  return { input: cur, tested, rounds };
}

/** A readable, unambiguous rendering of an input: JSON string syntax (shows CR, NUL, lone surrogates as escapes). */
export function showInput(s: string): string {
  return JSON.stringify(s);
}
