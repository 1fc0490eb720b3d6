// A value given by a constraint ("Enter an item that starts with "Ba" and ends with "os""): the
// field's suggestions are the items. Type the given start, read the list the page offers, pick the
// entry that meets the constraint; refuse, saying why, when the page offers none. The typed start
// alone is never taken as the item: it meets "starts with" but the task asks for an entry.
import type { InteractResponse } from '../model/negotiation/interact.js';
import type { RagNode } from '../model/retrieval/rag.js';
import { terms } from '../model/tasks/lexical.js';
import { isSecretNode } from '../model/safety/secrets.js';
import type { SessionView } from './planner.js';
import { meets, type Constraint } from './taskSteps.js';

const FIELDS = new Set(['textbox', 'searchbox', 'combobox']);
/** What a suggestion list's entries are: ARIA options and menu items, or plain list items. */
const ENTRIES = new Set(['option', 'menuitem', 'listitem', 'treeitem', 'gridcell']);
const NARROWING = /^Narrowing step (\d+)\/(\d+)\b/;
/** Buttons that hand a field's entry to the page. */
const COMMIT = /^(?:submit|ok|go|send|enter|done|save|apply|search|confirm)$/i;

function said(c: Constraint): string {
  return [c.prefix !== undefined && `starts with "${c.prefix}"`, c.suffix !== undefined && `ends with "${c.suffix}"`].filter(Boolean).join(' and ');
}

/** The field the step fills: the one text field, or the one its words name among several. */
export function constrainedField(step: string, c: Constraint, nodes: RagNode[]): RagNode | undefined {
  const fields = nodes.filter((n) => n.kind === 'control' && FIELDS.has(n.role) && !isSecretNode(n) && !n.states.includes('disabled') && !n.states.includes('readonly'));
  if (fields.length <= 1) return fields[0];
  const words = terms(step.replace(c.phrase, ''));
  const named = fields.filter((f) => terms(`${f.name} ${f.placeholder ?? ''}`).some((t) => words.includes(t)));
  return named.length === 1 ? named[0] : undefined;
}

export function planConstrained(step: string, c: Constraint, nodes: RagNode[], index: number, total: number, session: SessionView): InteractResponse {
  const label = `Step ${index + 1}/${total}`;
  const refuse = (why: string): InteractResponse => ({ thought: `${label}: ${step}: ${why}.`, action: `done(${JSON.stringify(`Could not ${step}: ${why}`)})`, success: false });
  const field = constrainedField(step, c, nodes);
  if (!field) return refuse('there is no single text field it names');
  const narrowed = session.steps.filter((s) => { const m = NARROWING.exec(s.thought ?? ''); return m && Number(m[1]) === index + 1 && Number(m[2]) === total; });
  const typed = (field.value ?? '').trim();
  // Entries listed after the field (a suggestion list opens below or after it), once something is typed.
  const after = (n: RagNode) => n.order > field.order && n.name.trim() !== '';
  const items = typed ? nodes.filter((n) => ENTRIES.has(n.role) && after(n)) : [];
  // A list of one entry is read as the list itself, named by that entry; a list with entries is never one.
  const entries = items.length ? items : typed ? nodes.filter((n) => n.role === 'list' && after(n)) : [];
  const fit = entries.find((n) => meets(n.name, c));
  if (fit) {
    return {
      thought: `${label}: ${step} → "${fit.name}" (${fit.gid}), the first of ${entries.length} suggestion${entries.length > 1 ? 's' : ''} that ${said(c)}.`,
      action: `click(${fit.gid})`,
      // A list that previews the entry in the field (keyboard focus on it) already shows the value.
      expected_outcome: fit.name.trim() === typed ? { type: 'any_change' } : { type: 'value_changes', id: field.gid },
    };
  }
  if (c.prefix !== undefined && typed === c.prefix && !entries.length && narrowed.length === 1) {
    // Typed, and no list yet (a widget that waits for a pause in typing, or one that opens on a
    // key): ArrowDown asks a combobox for its list without changing the value.
    return {
      thought: `Narrowing step ${index + 1}/${total}: "${c.prefix}" is typed and no list is shown; ArrowDown in ${field.gid} asks for it.`,
      action: `press(${field.gid}, "ArrowDown")`,
      expected_outcome: { type: 'any_change' },
    };
  }
  if (c.prefix !== undefined && typed !== c.prefix && narrowed.length < 2) {
    return {
      // "Narrowing", not "Step": typing the start does not carry the step out.
      thought: `Narrowing step ${index + 1}/${total}: type the start "${c.prefix}" into ${field.gid} ("${field.name}") to list the entries that ${said(c)}.`,
      action: `type(${field.gid}, ${JSON.stringify(c.prefix)})`,
      expected_outcome: { type: 'value_changes', id: field.gid },
    };
  }
  if (c.prefix === undefined) return refuse('the task gives no start to type, and the page lists no entry that meets it');
  return refuse(entries.length ? `none of the ${entries.length} suggestions ${said(c)}` : `typing "${c.prefix}" listed no suggestions to choose from`);
}

/**
 * A constrained entry is handed in (its form's one commit button): a chosen item the page never
 * receives is not entered. Undefined when there is no single such button.
 */
export function commitEntry(step: string, c: Constraint, nodes: RagNode[], index: number, total: number, session: SessionView): InteractResponse | undefined {
  if (session.steps.some((s) => (s.thought ?? '').startsWith(`Handing in step ${index + 1}/${total}`))) return undefined;
  const field = constrainedField(step, c, nodes);
  if (!field || !meets(field.value ?? '', c)) return undefined;
  const formOf = (n: RagNode) => n.path.find((p) => p.kind === 'form')?.gid;
  const buttons = nodes.filter((n) => n.kind === 'control' && n.role === 'button' && COMMIT.test(n.name.trim()) && !n.states.includes('disabled')
    && (!formOf(field) || formOf(n) === formOf(field)));
  if (buttons.length !== 1) return undefined;
  return {
    thought: `Handing in step ${index + 1}/${total}: "${field.value}" ${said(c)}; ${buttons[0].gid} ("${buttons[0].name}") hands it in.`,
    action: `click(${buttons[0].gid})`,
    expected_outcome: { type: 'any_change' },
  };
}
