// Secret values in a trace: learnt as a run goes (the same signal every transcript uses: the host
// reported the action with "***" where the caller's action had the value) and taken out of every
// string of every entry, wherever it went: a thought, an observation, a later message, the task.
import { parseAction } from '../contracts/actions.js';
import { REDACTED, redactSecrets } from '../safety/secrets.js';

export class TraceSecrets {
  private readonly values = new Set<string>();
  /** What was masked, in order, never the value. */
  readonly masked: string[] = [];

  get size(): number {
    return this.values.size;
  }

  /** The values themselves, for a recording this class cannot walk (a Playwright trace's bytes): never to be written. */
  secretValues(): string[] {
    return [...this.values];
  }

  /**
   * The planner's action against the action the host performed: when the host hid the value
   * ("***"), the planner's value is a secret from now on. Returns what was masked, or undefined.
   */
  learnAction(asked: string, performed: string | undefined): string | undefined {
    if (performed === undefined || performed === asked || !performed.includes(REDACTED)) return undefined;
    let value: string | undefined;
    try {
      const a = parseAction(asked);
      if ('value' in a && typeof a.value === 'string') value = a.value;
      const id = 'id' in a && typeof a.id === 'string' ? a.id : undefined;
      if (value) return this.add(value, `the value typed into ${id ?? 'a field'} (a secret field)`);
    } catch {
      // The action could not be read: nothing to learn from it (its thought is withheld upstream).
    }
    return undefined;
  }

  /**
   * A tool call whose answer shows "***" where a value went: every string argument that is not
   * an ID and that the answer does not repeat is the value the page's secret field took.
   */
  learnToolCall(args: Record<string, unknown>, answer: string): string[] {
    if (!answer.includes(REDACTED)) return [];
    const out: string[] = [];
    // Nested too: a form filled in one call carries its values in a list of fields.
    const walk = (v: unknown, key: string, target: string | undefined) => {
      if (typeof v === 'string') {
        if (key === 'id' || key === 'ref' || !v || answer.includes(v)) return;
        const said = this.add(v, `the ${key} of ${target ? `the call on ${target}` : 'a call'} (a secret field)`);
        if (said) out.push(said);
      } else if (Array.isArray(v)) v.forEach((x) => walk(x, key, target));
      else if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        const t = typeof o.id === 'string' ? o.id : typeof o.ref === 'string' ? o.ref : target;
        for (const [k, x] of Object.entries(o)) walk(x, k, t);
      }
    };
    walk(args, 'args', undefined);
    return out;
  }

  /** A value known to be secret some other way (the page showed its field as "***"); returns what was masked, or undefined. */
  learnValue(value: string, description: string): string | undefined {
    return value ? this.add(value, description) : undefined;
  }

  private add(value: string, description: string): string | undefined {
    if (value === REDACTED || this.values.has(value)) return undefined;
    this.values.add(value);
    this.masked.push(description);
    return description;
  }

  /** `text` without any secret learnt so far. */
  text(text: string): string {
    return this.values.size ? redactSecrets(text, this.values) : text;
  }

  /** A deep copy of `value` with every string (keys too) masked. */
  deep<T>(value: T): T {
    if (!this.values.size) return value;
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') return this.text(v);
      if (Array.isArray(v)) return v.map(walk);
      if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [this.text(k), walk(x)]));
      return v;
    };
    return walk(value) as T;
  }
}
