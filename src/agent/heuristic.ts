// The offline planner: a task read as its steps, each step's target ranked among the page's
// elements with the same ranker as observe(), the next undone step acted on with a verifiable
// outcome. When the best candidates are too close to call it asks for context (the skeleton for
// duplicated labels, the screenshot for visual words and look-alikes) and uses what it gets:
// the structure around each candidate, the pixels in their boxes, their positions.
import { rankCandidates, AMBIGUITY_MARGIN, MIN_CANDIDATE_SCORE, type Ranked } from '../model/retrieval/chooser.js';
import { parseIntent, type Intent } from '../model/tasks/intent.js';
import { terms } from '../model/tasks/lexical.js';
import type { InteractRequest, InteractResponse } from '../model/negotiation/interact.js';
import { negotiate } from '../model/negotiation/negotiation.js';
import type { ExpectedOutcome } from '../model/contracts/outcome.js';
import { filterDom, type RagNode } from '../model/retrieval/rag.js';
import { isSecretNode } from '../model/safety/secrets.js';
import { commitEntry, planConstrained } from './constrained.js';
import { lookedBehind, revealNext } from './reveal.js';
import { constraintOf, taskSteps } from './taskSteps.js';
import { colourFit, decodeScreenshot, nodesFromTree, skeletonAttributes, skeletonContext } from './pageState.js';
import type { Planner, SessionView } from './planner.js';

/** Every answer's thought starts with this, so that the session tells which steps are done. */
const STEP = /^Step (\d+)\/(\d+)\b/;

/** A candidate, and how much of where the task places the target its surroundings carry (0–1). */
type Placed = Ranked & { fit: number };

export class HeuristicPlanner implements Planner {
  readonly name = 'heuristic';

  async plan(request: InteractRequest, session: SessionView): Promise<InteractResponse> {
    const steps = taskSteps(request.query);
    const acted = actedSteps(session, steps.length);
    // A step is done when it was carried out as often as it says ("into both fields": twice).
    const done = new Set([...acted].filter(([i, ids]) => ids.length >= timesOf(steps[i])).map(([i]) => i));
    const nodes = request.skeletonDom !== undefined
      ? nodesFromTree(request.interactiveTree ?? [], skeletonContext(request.skeletonDom), skeletonAttributes(request.skeletonDom))
      : nodesFromTree(request.interactiveTree ?? []);
    // A step whose effect is already on the page is done too (a value typed, a box checked).
    steps.forEach((s, i) => { if (!done.has(i) && !constraintOf(s) && alreadyTrue(parseIntent(s), nodes)) done.add(i); });
    const index = steps.findIndex((_, i) => !done.has(i));
    // A last step that chose an entry by a constraint hands it in (its form's one commit button).
    const last = steps.length - 1;
    const lastConstraint = constraintOf(steps[last]);
    const handIn = index < 0 && lastConstraint ? commitEntry(steps[last], lastConstraint, nodes, last, steps.length, session) : undefined;
    if (handIn) return handIn;
    // The task is not repeated in the answer: it may carry a value typed into a password field.
    if (index < 0) return { thought: `All ${steps.length} step${steps.length > 1 ? 's are' : ' is'} done.`, action: `done(${JSON.stringify(`Done: ${steps.length} step${steps.length > 1 ? 's' : ''} carried out`)})` };
    const stepText = steps[index];
    const intent = parseIntent(stepText);
    const label = `Step ${index + 1}/${steps.length}`;

    if (intent.verb === 'done') return { thought: `${label}: the task says it is over.`, action: 'done("Done")' };
    if (intent.verb === 'scroll') return { thought: `${label}: scroll ${intent.direction ?? 'down'}.`, action: `scroll(${intent.direction ?? 'down'})` };
    if (intent.verb === 'navigate' && intent.value && /^(https?:\/\/|www\.)/i.test(intent.value)) {
      return { thought: `${label}: open ${intent.value}.`, action: `navigate(${JSON.stringify(intent.value)})`, expected_outcome: { type: 'navigation' } };
    }
    const constraint = constraintOf(stepText);
    if (constraint) return planConstrained(stepText, constraint, nodes, index, steps.length, session);
    const ranked = this.rank(stepText, intent, nodes, request);
    // A value meant for a secret field (the step names one, or the best fit is one) goes into a
    // secret field or nowhere: when that field refuses it, the next-best field (a Username) would
    // receive the password in clear, and the form would send it.
    const forSecret = intent.value !== undefined && (terms(intent.target.join(' ')).includes('password') || (ranked[0] !== undefined && holdsSecrets(ranked[0].node)));
    // A step carried out on several targets ("both fields") takes each of them once.
    const already = new Set(acted.get(index) ?? []);
    let usable = byKeyboardWhenCovered(ranked, session)
      .filter((r) => !session.failures.has(r.candidate.suggestedAction) && (!forSecret || holdsSecrets(r.node)) && !already.has(r.node.gid));
    // A name quoted in a click step is meant verbatim ("tortor." is not "tortor"): exact names first.
    const verbatim = intent.value === undefined ? intent.exactName ?? '' : '';
    const exact = (r: Placed) => verbatim !== '' && r.node.name.trim() === verbatim;
    if (verbatim) usable = [...usable.filter(exact), ...usable.filter((r) => !exact(r))];
    const best = usable[0];
    const refusedSecret = forSecret && !best ? ranked.find((r) => holdsSecrets(r.node) && session.failures.has(r.candidate.suggestedAction)) : undefined;
    if (refusedSecret) {
      const why = request.lastActionError?.message ? `: ${request.lastActionError.message}` : '';
      const said = intent.value ? stepText.split(intent.value).join('…') : stepText;
      return {
        thought: `${label}: the secret field ${refusedSecret.node.gid} ("${refusedSecret.node.name}") refused the value${why}; a value meant for a secret field is typed into no other field.`,
        action: `done(${JSON.stringify(`Could not ${said}: the secret field refused it${why}; it was not typed anywhere else`)})`,
        success: false,
      };
    }
    if (!best || best.score < MIN_CANDIDATE_SCORE) {
      const tried = ranked.length > usable.length ? ` (already failed: ${ranked.filter((r) => !usable.includes(r)).map((r) => r.candidate.suggestedAction).join(', ')})` : '';
      // Not a step done: the marker says "looking", so that a successful scroll does not count as the step.
      // Once closed elements are being opened for this step, the look is inside them: no scroll between two.
      const revealing = lookedBehind(session, index, steps.length).opened.length > 0;
      if (request.scrollPosition && !/^100%$/.test(request.scrollPosition) && !revealing && !session.steps.slice(-3).some((s) => s.action?.startsWith('scroll'))) {
        return { thought: `Looking for step ${index + 1}/${steps.length}: nothing in view fits "${stepText}"${tried}; look further down.`, action: 'scroll(down)' };
      }
      // semantic_v3 carries names only; the skeleton adds each field's type, name and placeholder
      // (a password field named by its title). Asked for once before giving up.
      if (request.skeletonDom === undefined && session.lastRequested !== 'skeleton' && !askedBefore(session, 'skeleton')) {
        return { status: 'needs_context', requestedDomMode: 'skeleton', needsSkeletonDom: true, reason: `nothing in the semantic tree fits "${stepText}"; the skeleton shows each element's type, name and placeholder` };
      }
      // No field took the value, so nothing says it is not a password: the message leaves it out.
      const said = intent.value ? stepText.split(intent.value).join('…') : stepText;
      // The target may sit behind a closed tab or a collapsed folder: open them one by one first.
      const scrolled = request.scrollPosition !== undefined && !/^0%$/.test(request.scrollPosition);
      const look = revealNext(nodes, index, steps.length, `nothing in view fits "${said}"${tried}`, session, scrolled);
      if ('action' in look) return look;
      const behind = look.opened.length ? `, nor behind the ${look.opened.length} closed element${look.opened.length > 1 ? 's' : ''} opened (${look.opened.map((n) => JSON.stringify(n)).join(', ')})` : '';
      return { thought: `${label}: nothing on the page fits "${said}"${tried}${behind}.`, action: `done(${JSON.stringify(`Could not ${said}: nothing on the page fits it${behind}`)})`, success: false };
    }
    if (verbatim && !exact(best)) {
      // Only a near name is in view: what is closed may hold the exact one.
      const look = revealNext(nodes, index, steps.length, `nothing in view is named exactly "${verbatim}" (closest: ${best.node.gid} "${best.node.name}")`, session);
      if ('action' in look) return look;
    }
    // Alike: close in score, or the same name whatever the score (a link and a button both "Log ind").
    let close = usable.filter((r) => r.score >= best.score * (1 - AMBIGUITY_MARGIN) || sameName(r, best));
    if (exact(best)) close = close.filter(exact);
    // Look-alikes by their words, but one sits where the task says ("in the Shipping address
    // section"): that one, whatever the margins of the other scores.
    const bestFit = Math.max(0, ...close.map((r) => r.fit));
    if (bestFit > 0) close = close.filter((r) => r.fit === bestFit);
    // Same-named look-alikes ("Log ind" the navigation link, "Log ind" the form's button): the one
    // in the form the task's other steps fill in.
    close = inTaskForm(close, steps.filter((_, i) => i !== index).map((s) => this.rank(s, parseIntent(s), nodes, request)[0]?.node));
    // A region the step names ("in Shipping") that none of the candidates sits in: the structure
    // is asked for once; with it, a region that is not there is a refusal, not another region's button.
    const { phrase: region, place } = placeWords(stepText, intent);
    if (place.length && !close.some((r) => sitsIn(r, place))) {
      if (!request.skeletonDom && session.lastRequested !== 'skeleton' && !askedBefore(session, 'skeleton')) {
        return { status: 'needs_context', requestedDomMode: 'skeleton', needsSkeletonDom: true, reason: `no candidate for "${stepText}" is known to sit in "${region}"; the skeleton shows the sections around each` };
      }
      const there = nodes.some((n) => n.path.some((p) => terms(p.name).some((t) => place.includes(t))));
      const said = intent.value ? stepText.split(intent.value).join('…') : stepText;
      const why = there ? `nothing that fits it sits in "${region}"` : `there is no "${region}" section on the page`;
      return { thought: `${label}: ${said}: ${why}.`, action: `done(${JSON.stringify(`Could not ${said}: ${why}`)})`, success: false };
    }
    const ask = negotiate({
      request,
      candidates: (close.length > 1 ? close : usable.slice(0, 1)).map((r) => ({ id: r.node.gid, role: r.node.role, name: r.node.name, score: r.score })),
      ...(session.lastRequested && { lastRequested: session.lastRequested }),
    });
    if (ask) return ask;
    if (close.length > 1 && !intent.ordinal && !intent.position && !intent.colors.length) {
      // Everything was asked for and they are still alike: the first in reading order, said so.
      close.sort((a, b) => a.node.order - b.node.order);
    }
    const pick = close[0] ?? best;
    const why = close.length > 1 ? ` (${close.length} alike; took ${pick.node.gid} by ${this.tieBreak(intent, request)})` : '';
    return {
      // A value meant for a secret field is not repeated in the thought (sessions keep thoughts).
      thought: `${label}: ${forSecret && intent.value ? stepText.split(intent.value).join('…') : stepText} → ${pick.candidate.description}${why}.`,
      // Suggestions never repeat a value meant for a password field; the action must type it.
      action: intent.value !== undefined ? pick.candidate.suggestedAction.split('"***"').join(JSON.stringify(intent.value)) : pick.candidate.suggestedAction,
      ...expectation(intent, pick.node),
    };
  }

  /** The page's candidates for one step, best first, with the screenshot's colours applied when there is one. */
  private rank(stepText: string, intent: Intent, nodes: RagNode[], request: InteractRequest): Placed[] {
    const filtered = filterDom(nodes, { query: stepText, maxNodes: 400, maxTokens: 1e9, minRelevance: 0 });
    let ranked: Placed[] = rankCandidates(filtered, 15).map((r) => ({ ...r, fit: 0 }));
    // Words of the target that are not its own name say where it is ("Delete in Shipping
    // address", "the Pro Choose button"): a candidate whose surroundings carry them is the one
    // meant. Surroundings: the structure the skeleton shows, and the row's item just before it.
    const rowItem = new Map<string, string>();
    let lastItem = '';
    for (const n of nodes) { if (n.kind === 'item') lastItem = n.name; else if (lastItem) rowItem.set(n.gid, lastItem); }
    const query = filtered.query;
    ranked = ranked.map((r) => {
      const own = new Set(terms(r.node.name));
      const where = [...new Set([...query.within.keys(), ...[...query.own.keys()].filter((t) => !own.has(t))])];
      const around = new Set(terms([...r.node.path.map((p) => p.name), rowItem.get(r.node.gid) ?? ''].join(' ')));
      if (!where.length || !around.size) return { ...r, fit: 0 };
      const fit = where.filter((t) => around.has(t)).length / where.length;
      return { ...r, score: r.score + 0.25 * fit, fit };
    }).sort((a, b) => b.score - a.score);
    if (intent.colors.length && request.screenshot) {
      const px = decodeScreenshot(request.screenshot);
      if (px) {
        ranked = ranked.map((r) => ({ ...r, score: r.score + 0.3 * Math.max(...intent.colors.map((c) => colourFit(px, r.node.box, c))) }))
          .sort((a, b) => b.score - a.score);
      }
    }
    return ranked;
  }

  private tieBreak(intent: Intent, request: InteractRequest): string {
    if (intent.ordinal !== undefined) return 'its position in the list';
    if (intent.position) return 'where it is on the page';
    if (intent.colors.length) return request.screenshot ? 'its colour in the screenshot' : 'its classes (no screenshot)';
    return 'reading order';
  }
}

// Words that say what kind of region, not which one ("the Shipping address section").
const REGION_KIND_WORDS = new Set(['section', 'area', 'part', 'panel', 'box', 'block', 'form', 'page', 'tab', 'dialog', 'window', 'menu', 'list', 'table', 'column', 'row', 'card']);

/** The words a step names its target's region with ("in Shipping", "in the Billing address section"), kind words left out; and the phrase as written. */
function placeWords(stepText: string, intent: Intent): { phrase: string; place: string[] } {
  // "Click Delete in Shipping": with no article, "in" still names a region (after a value to type or
  // an option to select it names the field instead, which the intent reader has read as the target).
  const clicks = intent.verb === 'click' || intent.verb === 'hover' || intent.verb === 'check' || intent.verb === 'uncheck';
  const phrase = (/\s(?:in|inside|within|under|of|for)\s+(?:the\s+)?(?!to\b)([^"]+?)\s*[.!]?$/i.exec(stepText)?.[1] ?? '').trim();
  const said = intent.within.length ? intent.within.join(' ') : clicks ? phrase : '';
  const place = terms(said).filter((t) => !REGION_KIND_WORDS.has(t));
  return { phrase: phrase || said, place };
}

/**
 * A button or link whose click was refused because another element covers it (one button on top of
 * another) is pressed with the keyboard instead: focus and Enter reach the element itself, which
 * the pointer cannot, as they do for a person using the keyboard. Once: a refused press is not retried.
 * (The refusal may name a control of the cover that "may dismiss it": here that control can be the
 * other button itself, which the task presses later.)
 */
function byKeyboardWhenCovered(ranked: Placed[], session: SessionView): Placed[] {
  const covered = new Set(session.steps.filter((s) => s.outcome?.code === 'COVERED')
    .map((s) => /^click\(\s*([^,)\s]+)\s*\)$/.exec(s.action ?? '')?.[1]).filter((id): id is string => id !== undefined));
  return ranked.map((r) => {
    if (!covered.has(r.node.gid) || !KEY_ACTIVATED.has(r.node.role)) return r;
    const press = `press(${r.node.gid}, "Enter")`;
    return { ...r, candidate: { ...r.candidate, suggestedAction: press, description: `${r.candidate.description}, covered: pressed with Enter` } };
  });
}

/** Roles that Enter activates once focused. */
const KEY_ACTIVATED = new Set(['button', 'link']);

/** Same name, as a reader compares them. */
function sameName(a: Placed, b: Placed): boolean {
  return a.node.name.trim().toLowerCase() === b.node.name.trim().toLowerCase() && a.node.name.trim() !== '';
}

/** Whether a candidate sits in the region named by `place`: its own name, the structure around it or its row carries a word of it. */
function sitsIn(r: Placed, place: string[]): boolean {
  return r.fit > 0 || terms(r.node.name).some((t) => place.includes(t));
}

/**
 * Among candidates alike by name, those in a form that the task's other targets belong to (the
 * login form whose fields the task fills, not the navigation's link of the same name); all of
 * them when none is, or when they are all in it.
 */
function inTaskForm(close: Placed[], others: Array<RagNode | undefined>): Placed[] {
  if (close.length < 2) return close;
  const formOf = (n: RagNode) => n.path.find((p) => p.kind === 'form')?.gid;
  const forms = new Set(others.flatMap((n) => (n && formOf(n) ? [formOf(n)] : [])));
  if (!forms.size) return close;
  const inside = close.filter((r) => forms.has(formOf(r.node)));
  return inside.length ? inside : close;
}

/**
 * A field that may receive a secret: secret by the one rule (type, autofill tokens, a value shown
 * redacted: src/model/safety/secrets.ts), or a text field named as a password (semantic_v3 does not
 * carry types; "Passwort", "passcode" fold into "password").
 */
function holdsSecrets(n: RagNode): boolean {
  if (isSecretNode(n)) return true;
  const field = n.kind === 'control' && (n.role === 'textbox' || n.role === 'searchbox' || n.role === 'combobox');
  return field && terms(`${n.name} ${n.placeholder ?? ''}`).includes('password');
}

/** Whether this session already asked for `mode` since its last action. */
function askedBefore(session: SessionView, mode: string): boolean {
  for (let i = session.steps.length - 1; i >= 0; i--) {
    const s = session.steps[i];
    if (s.action) return false;
    if (s.requested === mode) return true;
  }
  return false;
}

/**
 * The targets of each step whose action the client reported as successful (by the step number each
 * answer's thought carries, and the ID the action took).
 */
function actedSteps(session: SessionView, total: number): Map<number, string[]> {
  const acted = new Map<number, string[]>();
  for (const s of session.steps) {
    const m = STEP.exec(s.thought ?? '');
    if (!m || Number(m[2]) !== total || s.outcome?.status !== 'success') continue;
    const id = /^\w+\(\s*([^,)\s]+)/.exec(s.action ?? '')?.[1] ?? '';
    acted.set(Number(m[1]) - 1, [...(acted.get(Number(m[1]) - 1) ?? []), id]);
  }
  return acted;
}

/** How many targets a step names by number: "into both fields" is two; anything else one. */
function timesOf(step: string): number {
  // Quoted words are a value, not a count ("type "both" into Notes").
  return /\bboth\b/i.test(step.replace(/"[^"]*"/g, '')) ? 2 : 1;
}

/** A typed value already in its field, an option already chosen, a box already in the asked state. */
function alreadyTrue(intent: Intent, nodes: RagNode[]): boolean {
  // A target named only by its kind ("from the list") is known only when the page has one of that kind.
  const ofKind = (n: RagNode) => n.kind === 'control' && intent.roles.includes(n.role);
  const byKind = !intent.target.length && intent.roles.length > 0 && nodes.filter(ofKind).length === 1;
  if (!intent.target.length && !byKind) return false;
  const named = (n: RagNode) => byKind ? ofKind(n) : intent.target.every((w) => n.name.toLowerCase().includes(w));
  if ((intent.verb === 'type' || intent.verb === 'select') && intent.value !== undefined) {
    return nodes.some((n) => n.kind === 'control' && named(n) && n.value !== undefined && n.value.trim().toLowerCase() === intent.value!.trim().toLowerCase());
  }
  if (intent.verb === 'check' || intent.verb === 'uncheck') {
    const want = intent.verb === 'check';
    return nodes.some((n) => (n.role === 'checkbox' || n.role === 'switch') && named(n) && n.states.includes('checked') === want);
  }
  return false;
}

/** Roles whose click changes their own checked state. */
const TOGGLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

/** What the step should visibly do, so that the client verifies it. */
function expectation(intent: Intent, node: RagNode): { expected_outcome?: ExpectedOutcome } {
  switch (intent.verb) {
    case 'type': case 'select': return { expected_outcome: { type: 'value_changes', id: node.gid } };
    case 'check': case 'uncheck': return { expected_outcome: { type: 'state_changes', id: node.gid } };
    case 'navigate': return { expected_outcome: { type: 'navigation' } };
    // A click that ticks a box changes its state, which no DOM mutation need show ("Select Apples" on a checkbox).
    case 'click': return { expected_outcome: node.role === 'link' ? { type: 'navigation', orOutcome: { type: 'any_change' } } : TOGGLES.has(node.role) ? { type: 'state_changes', id: node.gid } : { type: 'any_change' } };
    default: return {};
  }
}
