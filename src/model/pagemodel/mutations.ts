// Mutation events: the changes a person would notice, as the in-page mutation log records them.
// Plain types and functions, no zod: the in-page engine bundles this file.

export type MutationCategory = 'text' | 'element' | 'error' | 'success' | 'warning' | 'loading' | 'form';

/** One meaningful change the in-page mutation log kept. */
export interface MutationEvent {
  /** Epoch milliseconds. */
  timestamp: number;
  type: 'added' | 'removed' | 'changed';
  category: MutationCategory;
  /** "'Saved'", "button: 'Submit'", "'Saving…' → 'Saved'", "field Email: 'Please include an @'" */
  description: string;
  /** Position in its frame's log; with the log's document token it says "new since". */
  seq: number;
  /** Global frame ID the event came from, filled in on the Node side. */
  frame?: number;
}

export interface MutationSummary {
  has_errors: boolean;
  has_success: boolean;
  has_loading: boolean;
  errors: string[];
  successes: string[];
}

const VERB: Record<MutationEvent['type'], string> = { added: 'Added', removed: 'Removed', changed: 'Changed' };

/** "[2s ago] Added: 'Saved Successfully'" */
export function formatMutation(e: Pick<MutationEvent, 'timestamp' | 'type' | 'description'>, now: number): string {
  const s = Math.max(0, Math.round((now - e.timestamp) / 1000));
  const ago = s < 60 ? `${s}s` : s < 3600 ? `${Math.round(s / 60)}m` : `${Math.round(s / 3600)}h`;
  // "button: 'Submit'" reads as "Removed button: 'Submit'"; plain text as "Added: 'Saved'".
  const sep = /^[a-z]+: '/.test(e.description) ? ' ' : ': ';
  return `[${ago} ago] ${VERB[e.type]}${sep}${e.description}`;
}

/** Events as the agent reads them, each with the frame it came from. */
export function renderEvents(events: MutationEvent[], now = Date.now()): string[] {
  return events.map((e) => formatMutation(e, now) + (e.frame ? ` (frame ${e.frame})` : ''));
}

/** The quoted text of an event's description, for reporting errors as the page showed them. */
export function eventText(e: Pick<MutationEvent, 'description'>): string {
  const d = e.description;
  const arrow = d.lastIndexOf(" → '");
  const start = arrow >= 0 ? arrow + 3 : d.indexOf("'");
  if (start < 0) return d;
  const quoted = d.slice(start).trim();
  return quoted.startsWith("'") && quoted.endsWith("'") && quoted.length >= 2 ? quoted.slice(1, -1) : quoted;
}

export function isErrorEvent(e: MutationEvent): boolean {
  return (e.category === 'error' || e.category === 'form') && e.type !== 'removed';
}

export function summarize(events: MutationEvent[]): MutationSummary {
  const errors = events.filter(isErrorEvent).map(eventText);
  const successes = events.filter((e) => e.category === 'success' && e.type !== 'removed').map(eventText);
  return {
    has_errors: errors.length > 0,
    has_success: successes.length > 0,
    has_loading: events.some((e) => e.category === 'loading' && e.type !== 'removed'),
    errors: [...new Set(errors)],
    successes: [...new Set(successes)],
  };
}
