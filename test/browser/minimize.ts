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
 * `fails(candidates)` answers, for each candidate, whether it still shows the failure. `budget` caps the number of
 * candidates tested. The result always fails (it is the input itself when nothing smaller does).
 */
export async function minimize(
  input: string,
  fails: (candidates: string[]) => Promise<boolean[]>,
  budget = 4000,
): Promise<MinimizeResult> {
  let cur = input;
  let n = 2;
  let tested = 0;
  let rounds = 0;
  while (cur.length > 0 && tested < budget) {
    const chunk = Math.max(1, Math.ceil(cur.length / n));
    const candidates: string[] = [];
    for (let start = 0; start < cur.length; start += chunk) {
      candidates.push(cur.slice(0, start) + cur.slice(start + chunk));
    }
    const take = candidates.slice(0, Math.max(1, budget - tested));
    const results = await fails(take);
    tested += take.length;
    rounds++;
    const hit = results.indexOf(true);
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
