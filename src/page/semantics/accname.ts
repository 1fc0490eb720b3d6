// The accessible name as Chrome computes it (W3C accname 1.2 with Blink's choices), so that what
// an agent reads is what a screen reader hears and what Chrome's accessibility tree shows.
// dom-accessibility-api follows the spec text but parts ways with Chrome where pages notice:
// CSS generated content, text split over nested inline elements, a hidden node that
// aria-labelledby points at, controls inside a label, two labels for one field. Here the steps are
// computed directly; where Chrome differs from the spec text, Chrome is followed (said inline).
import { REDACTED } from '../../model/safety/secrets.js';
import { mayHavePseudoRule } from './pseudoRules.js';
import { isSecretField } from './secretFields.js';
import { generatedContent, transformText } from './pseudo.js';
import { shadowRootOf } from '../identity/shadow.js';
import { styleOf } from '../walk/styleOf.js';

/** Roles named by their content when nothing else names them. */
export const NAME_FROM_CONTENT = new Set([
  'button', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'option', 'treeitem', 'checkbox', 'radio',
  'switch', 'heading', 'cell', 'gridcell', 'columnheader', 'rowheader', 'tooltip', 'legend', 'term',
]);

/** ARIA roles; an unknown token in a role attribute is skipped, as Chrome does. */
export const ARIA_ROLES: ReadonlySet<string> = new Set(('alert alertdialog application article banner blockquote button caption cell checkbox code columnheader combobox '
  + 'comment complementary contentinfo definition deletion dialog directory document emphasis feed figure form generic grid gridcell '
  + 'group heading img image insertion link list listbox listitem log main mark marquee math menu menubar menuitem menuitemcheckbox '
  + 'menuitemradio meter navigation none note option paragraph presentation progressbar radio radiogroup region row rowgroup '
  + 'rowheader scrollbar search searchbox separator slider spinbutton status strong subscript superscript suggestion switch tab '
  + 'table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid treeitem').split(' '));

/** Roles that name nothing but through aria-label(ledby) (pagelens calls a generic target `clickable`). */
const GENERIC = new Set(['clickable', 'generic', 'none', 'presentation', '']);
/** Elements whose role is generic: a title alone does not name them. */
const GENERIC_TAGS = new Set(['DIV', 'SPAN', 'B', 'I', 'U', 'S', 'SMALL', 'BDI', 'BDO', 'FONT', 'CENTER', 'NOBR', 'SECTION', 'HEADER', 'FOOTER', 'BODY']);

/** Reading stops after this many non-space characters: names are cut far shorter anyway. */
const BUDGET = 600;
/** Nesting beyond this is not read (pages nest thousands deep; the computation recurses). */
const MAX_DEPTH = 400;

/** Never rendered as text. */
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'HEAD', 'TITLE', 'script', 'style', 'title', 'math', 'MATH', 'desc', 'metadata', 'defs', 'symbol', 'clipPath', 'mask', 'marker', 'linearGradient', 'radialGradient', 'pattern', 'filter']);
/** Elements that stand apart from the text around them even when inline (replaced and embedded content). */
const APART = new Set(['IMG', 'INPUT', 'SELECT', 'TEXTAREA', 'BUTTON', 'IFRAME', 'CANVAS', 'VIDEO', 'AUDIO', 'OBJECT', 'EMBED', 'svg', 'math', 'MATH', 'METER', 'PROGRESS', 'OUTPUT', 'BR']);
const TEXT_INPUTS = new Set(['text', 'search', 'email', 'tel', 'url', 'password', 'number']);
/** Roles with a value that names them when they sit inside another control's label. */
const RANGES = new Set(['slider', 'spinbutton', 'scrollbar', 'progressbar', 'meter']);
/**
 * Containers a name from content does not read into (Chrome): landmarks, groups, composite widgets,
 * live regions, figures, dialogs. A link wrapped around a whole <article> card is named by the
 * rest of its content, or by nothing.
 */
const CONTAINERS = new Set(['alert', 'alertdialog', 'application', 'article', 'banner', 'blockquote', 'complementary', 'contentinfo',
  'dialog', 'document', 'feed', 'figure', 'grid', 'group', 'log', 'main', 'marquee', 'menu', 'menubar', 'navigation', 'note',
  'radiogroup', 'row', 'search', 'separator', 'status', 'tabpanel', 'table', 'tablist', 'timer', 'toolbar', 'tree', 'treegrid']);
/** The same for elements (a <form>, unlike an unnamed role="form"). */
const CONTAINER_TAGS = new Set(['FORM']);
/** Embedded content whose children are fallback, not shown: only a title names it. */
const FALLBACK_CONTENT = new Set(['IFRAME', 'OBJECT', 'EMBED', 'VIDEO', 'AUDIO', 'CANVAS']);
/** A descendant's title counts only when it is something in its own right, not a generic wrapper. */
const TITLED_TAGS = new Set(['A', 'AREA', 'BUTTON', 'IMG', 'INPUT', 'SELECT', 'TEXTAREA', 'IFRAME', 'svg']);

interface Walk {
  /** Inside a hidden node that aria-labelledby points at: all of it counts, hidden or not. */
  all: boolean;
  /** Inside an aria-labelledby traversal: aria-labelledby is not followed again. */
  referenced: boolean;
}

const NORMAL: Walk = { all: false, referenced: false };

/** The accessible name of `el`, whose role (as pagelens computed it) is `role`. Whitespace is not yet collapsed. */
export function accessibleName(el: Element, role: string): string {
  return resolveSpaces(new Computation(el).name(role));
}

/**
 * The name, and whether it was put together from outside `el`'s subtree (aria-labelledby,
 * aria-owns, <label>s, a slot's assigned nodes): such a name can change when anything in the
 * document does, not only when `el` or what is inside it changes.
 */
export function accessibleNameWithReach(el: Element, role: string): { name: string; reach: Reach; live: boolean } {
  const c = new Computation(el);
  const name = resolveSpaces(c.name(role));
  return { name, reach: c.reach, live: c.live };
}

/**
 * What a name can depend on beyond the element's own subtree: nothing ('own'), the document's
 * <label>s ('labels'), or any node at all ('anywhere': aria-labelledby, aria-owns, slots).
 */
export type Reach = 'own' | 'labels' | 'anywhere';
const REACH_ORDER: Record<Reach, number> = { own: 0, labels: 1, anywhere: 2 };

export function widerReach(a: Reach, b: Reach): Reach {
  return REACH_ORDER[a] >= REACH_ORDER[b] ? a : b;
}

// While a name is put together, two marks stand for spaces that only the whole can settle:
// APART where the computation itself parts two pieces (a block, an image, text from an attribute),
// always a space; DROPPED for a whitespace-only text node that Chrome leaves out of its tree. Layout
// gives the one space between two words to the first whitespace after the first word: when that is
// a dropped node, the words run together ("Account & Lists<i></i>⏎</span>⏎<span>⏎Account").
const APART_MARK = '\u0001';
const DROPPED_MARK = '\u0002';

function resolveSpaces(text: string): string {
  return text.replace(/[ \t\n\r\f\u0001\u0002]+/g, (run) => (run.includes(APART_MARK) ? ' ' : run[0] === DROPPED_MARK ? '' : ' '));
}

const apart = (s: string) => APART_MARK + s + APART_MARK;
const hasText = (s: string) => /[^\s\u0001\u0002]/.test(s);
const COLLAPSIBLE = /[ \t\n\r\f]/;
/** Leading space and punctuation, then the first letter or digit. */
const FIRST_LETTER = /^([\s\p{P}]*)([\p{L}\p{N}])/u;

class Computation {
  private readonly visited = new Set<Node>();
  private readonly styles = new Map<Element, CSSStyleDeclaration>();
  private left = BUDGET;
  private depth = 0;
  /** Blocks whose first letter the name has already passed. */
  private readonly lettered = new Set<Element>();
  /** What outside the root's subtree was (or, once added, could be) part of the name. */
  reach: Reach = 'own';
  /** A control's current value is part of the name: a script can change it without any trace in the DOM. */
  live = false;

  constructor(private readonly root: Element) {}

  name(given: string): string {
    const el = this.root;
    const role = rootRole(el, given);
    this.visited.add(el);
    const labelled = this.labelledBy(el);
    if (hasText(labelled)) return labelled;
    const label = ariaLabel(el);
    if (label) return label;
    // A <label for> added anywhere names a labelable element.
    if (isLabelable(el)) this.reach = widerReach(this.reach, 'labels');
    const fromLabels = isLabelable(el) ? this.labels(el) : null;
    if (fromLabels !== null) return fromLabels;
    const native = this.hostLanguage(el, true);
    if (native !== null) return native;
    if (NAME_FROM_CONTENT.has(role)) {
      const content = this.content(el, NORMAL);
      if (hasText(content)) return content;
    }
    if (GENERIC.has(role) && GENERIC_TAGS.has(el.tagName)) return '';
    return title(el) || (role === 'textbox' || role === 'searchbox' ? attr(el, 'aria-placeholder') : '');
  }

  /** aria-labelledby (or Chrome's non-standard aria-labeledby, when it stands alone): the referenced nodes' text. */
  private labelledBy(el: Element): string {
    const ids = (el.getAttribute('aria-labelledby') ?? el.getAttribute('aria-labeledby'))?.trim();
    if (!ids) return '';
    this.reach = 'anywhere';
    const scope = el.getRootNode() as Document | ShadowRoot;
    const parts: string[] = [];
    for (const id of ids.split(/\s+/)) {
      const ref = scope.getElementById?.(id);
      if (!ref) continue;
      // A hidden node pointed at counts with everything in it; a shown one without its hidden parts.
      parts.push(this.node(ref, { all: !isRendered(ref), referenced: true }, true));
    }
    return parts.join(APART_MARK);
  }

  /**
   * Every shown <label> of the control, joined (Chrome leaves hidden labels out); null when it has
   * none. A control with labels is named by them alone, even when they say nothing (Chrome).
   */
  private labels(el: Element): string | null {
    const labels = (el as HTMLInputElement).labels;
    if (!labels?.length) return null;
    const parts: string[] = [];
    for (const label of Array.from(labels)) {
      if (!isRendered(label)) continue;
      const text = this.node(label, NORMAL, true);
      if (hasText(text)) parts.push(text);
    }
    return parts.join(APART_MARK);
  }

  /**
   * What HTML itself names an element with: a button's value, an image's alt, a field's title or
   * placeholder, a fieldset's legend. null when HTML has nothing to say and the next steps go on.
   */
  private hostLanguage(el: Element, atRoot: boolean): string | null {
    switch (el.tagName) {
      case 'INPUT': {
        const input = el as HTMLInputElement;
        const type = input.type;
        if (type === 'button' || type === 'submit' || type === 'reset') {
          const value = el.getAttribute('value');
          if (value !== null) return hasText(value) ? value : null;
          return type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : null;
        }
        if (type === 'image') return attr(el, 'alt') || title(el) || 'Submit';
        if (TEXT_INPUTS.has(type)) return title(el) || attr(el, 'placeholder') || attr(el, 'aria-placeholder') || null;
        return null;
      }
      case 'TEXTAREA':
        return title(el) || attr(el, 'placeholder') || attr(el, 'aria-placeholder') || null;
      case 'IMG': case 'AREA':
        // alt="" names it nothing, and its title is not used either.
        return el.hasAttribute('alt') ? el.getAttribute('alt') ?? '' : title(el) || null;
      case 'svg': return svgTitle(el);
      case 'OPTGROUP': case 'OPTION':
        return attr(el, 'label') || null;
    }
    if (!atRoot) return null;
    if (el.namespaceURI === SVG_NS) return svgTitle(el);
    const caption = el.tagName === 'FIELDSET' ? 'LEGEND' : el.tagName === 'TABLE' ? 'CAPTION' : el.tagName === 'FIGURE' ? 'FIGCAPTION' : null;
    if (caption) {
      const child = Array.from(el.children).find((c) => c.tagName === caption);
      if (child) { const text = this.node(child, NORMAL, false); if (hasText(text)) return text; }
    }
    return null;
  }

  /** A node met inside a label, an aria-labelledby target or another element's content. `direct`: the label or target itself. */
  private node(el: Element, walk: Walk, direct: boolean): string {
    if (!direct && !walk.referenced && this.visited.has(el)) return '';
    if (SKIPPED.has(el.tagName) || this.depth > MAX_DEPTH) return '';
    this.visited.add(el);
    this.depth++;
    try {
      return this.nodeText(el, walk, direct);
    } finally {
      this.depth--;
    }
  }

  /** Text from anything but content (aria-label, alt, a value, a title) stands apart from the text around it. */
  private nodeText(el: Element, walk: Walk, direct: boolean): string {
    if (!walk.referenced) {
      const labelled = this.labelledBy(el);
      if (hasText(labelled)) return apart(labelled);
    }
    const role = roleFor(el);
    if (el !== this.root) {
      // A control inside the label of another one is named by its value ("Flash the screen [3] times").
      const value = this.controlValue(el, role);
      if (value !== null) return apart(hasText(value) ? value : ariaLabel(el) || this.hostLanguage(el, false) || title(el));
    }
    const label = ariaLabel(el);
    if (label) return apart(label);
    const native = this.hostLanguage(el, false);
    if (native !== null) return apart(native);
    const titled = direct || hasTitle(el, role);
    // An image's parts are not part of the name, nor a container's content met inside another name.
    const container = !direct && (CONTAINERS.has(role) || CONTAINER_TAGS.has(el.tagName));
    if (role === 'img' || FALLBACK_CONTENT.has(el.tagName) || container) return titled ? apart(title(el)) : '';
    const content = this.content(el, walk);
    if (hasText(content)) return content;
    // Only spaces: they still part the words around ("button<span> </span>label").
    const tip = titled ? title(el) : '';
    return tip ? apart(tip) : content;
  }

  /** The value of an embedded control (a field, a choice, a range); null when `el` is not one. */
  private controlValue(el: Element, role: string): string | null {
    const tag = el.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') this.live = true;
    if (role === 'textbox' || role === 'searchbox' || (role === 'combobox' && tag === 'INPUT')) {
      // Never a secret field's value (the one rule, src/model/safety/secrets.ts), not even in another
      // control's name: it is named by the redaction mark, as the field itself is shown.
      if (tag === 'INPUT' || tag === 'TEXTAREA') {
        const field = el as HTMLInputElement | HTMLTextAreaElement;
        if (!field.value) return '';
        return isSecretField(el) ? REDACTED : field.value;
      }
      return this.content(el, NORMAL);
    }
    if (role === 'combobox' || role === 'listbox') {
      if (tag === 'SELECT') return Array.from((el as HTMLSelectElement).selectedOptions, (o) => o.label).join(APART_MARK);
      const selected: string[] = [];
      for (const scope of [el, ...owned(el)]) {
        for (const option of Array.from(scope.querySelectorAll('[aria-selected="true"]'))) {
          const text = this.node(option, NORMAL, false);
          if (hasText(text)) selected.push(text);
        }
      }
      if (selected.length) return selected.join(APART_MARK);
      // Chrome reads a custom combobox's shown text only when it can take focus.
      return role === 'combobox' && isFocusable(el) ? this.content(el, NORMAL) : '';
    }
    if (RANGES.has(role)) {
      const aria = rangeValue(el);
      if (aria !== undefined) return aria;
      if (tag === 'INPUT') return (el as HTMLInputElement).value;
      return tag === 'PROGRESS' || tag === 'METER' ? el.getAttribute('value') ?? '' : '';
    }
    return null;
  }

  /** Name from content: ::before, the children in the flattened tree (and aria-owns), ::after. */
  private content(el: Element, walk: Walk): string {
    let out = '';
    // Pseudo-elements of a hidden subtree are not generated.
    const before = walk.all ? null : generatedContent(el, '::before');
    if (before) out += this.spend(before.apart ? apart(before.text) : before.text);
    // Adjacent text nodes are one run of text (capitalize sees their words whole).
    let run = '';
    let runParent: Element = el;
    const flush = () => {
      if (run) out += this.spend(this.firstLetter(transformText(run, this.style(runParent).textTransform), runParent));
      run = '';
    };
    const { nodes, owned } = this.children(el);
    for (const child of nodes) {
      if (this.left <= 0) break;
      if (child.nodeType === Node.TEXT_NODE) {
        const data = child.nodeValue ?? '';
        if (data && !/[^ \t\n\r\f]/.test(data) && this.spaceDropped(child)) { flush(); out += DROPPED_MARK; continue; }
        const parent = child.parentElement ?? el;
        if (parent !== runParent) { flush(); runParent = parent; }
        run += data;
      } else if (child.nodeType === Node.ELEMENT_NODE) {
        flush();
        // An owned element is moved in the accessibility tree: it never runs into the owner's text.
        const text = this.child(child as Element, walk);
        out += owned.length && owned.includes(child as Element) ? apart(text) : text;
      }
    }
    flush();
    const after = walk.all ? null : generatedContent(el, '::after');
    if (after && this.left > 0) out += this.spend(after.apart ? apart(after.text) : after.text);
    return out;
  }

  /** One element of some content: nothing when hidden, set apart by spaces unless it flows inline. */
  private child(el: Element, walk: Walk): string {
    const style = this.style(el);
    // Each read of a computed value builds it anew: display is read once.
    const display = style.display;
    let text: string;
    if (walk.all) {
      text = this.node(el, walk, false);
    } else {
      if (el.getAttribute('aria-hidden') === 'true' || display === 'none') return '';
      // visibility is inherited and can be undone below: a hidden element's own text is out, a shown child is in.
      const visibility = style.visibility;
      text = visibility === 'hidden' || visibility === 'collapse' ? this.shownChildren(el, walk) : this.node(el, walk, false);
    }
    // Slots lay their nodes out where they stand.
    if (el.tagName === 'SLOT') return text;
    return display !== 'inline' || APART.has(el.tagName) ? apart(text) : text;
  }

  /**
   * ::first-letter { text-transform } of the blocks a run of text opens ("login" shown as "Login").
   * Only blocks inside the named element are looked at, and only for a lower-case first letter.
   */
  private firstLetter(text: string, parent: Element): string {
    const m = FIRST_LETTER.exec(text);
    if (!m || !this.firstLetterRuleUp(parent)) return text;
    let transform = 'none';
    for (let el: Element | null = parent; el; el = el === this.root ? null : el.parentElement) {
      if (this.style(el).display === 'inline') continue;
      if (this.lettered.has(el)) break;
      this.lettered.add(el);
      if (transform === 'none' && /\p{Ll}/u.test(m[2]) && mayHavePseudoRule(el, 'first-letter')) transform = getComputedStyle(el, '::first-letter').textTransform;
    }
    return transform === 'none' ? text : m[1] + transformText(m[2], transform) + text.slice(m[0].length);
  }

  /**
   * Whether a block the loop of firstLetter() would reach may have a ::first-letter rule. Asked
   * before that loop reads every ancestor's display (a label far from the named control climbs to
   * the document): when none may, no transform applies, and leaving the blocks unmarked changes no
   * later answer either, since every block above one the next loop meets is on this chain too.
   */
  private firstLetterRuleUp(parent: Element): boolean {
    for (let el: Element | null = parent; el; el = el === this.root ? null : el.parentElement) {
      if (this.lettered.has(el)) return false;
      if (mayHavePseudoRule(el, 'first-letter')) return true;
    }
    return false;
  }

  /**
   * Chrome leaves a whitespace-only text node out of its tree when the space is not needed to keep
   * what is next to it apart: next to a block, a line break, a node that is not rendered (a
   * comment, display: none), or other whitespace; an empty inline element is looked through.
   */
  private spaceDropped(text: Node): boolean {
    return this.spaceNotNeeded(this.neighbour(text, false), false, 0) || this.spaceNotNeeded(this.neighbour(text, true), true, 0);
  }

  /** The node next to `node` on one side, climbing out of its parents (never past the element named). */
  private neighbour(node: Node, after: boolean): Node | null {
    for (let n: Node | null = node; n && n !== this.root; n = n.parentNode) {
      const next = after ? n.nextSibling : n.previousSibling;
      if (next) return next;
    }
    return null;
  }

  private spaceNotNeeded(node: Node | null, after: boolean, depth: number): boolean {
    if (!node || depth > 3) return false;
    if (node.nodeType === Node.TEXT_NODE) {
      const data = node.nodeValue ?? '';
      // Text after the space loses its leading spaces to it: only whitespace-only text makes this one redundant.
      if (after) return !!data && !/[^ \t\n\r\f]/.test(data);
      return !!data && COLLAPSIBLE.test(data[data.length - 1]);
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return true;
    const el = node as Element;
    if (el.tagName === 'BR' || SKIPPED.has(el.tagName)) return true;
    if (el.tagName === 'IMG') return false;
    const display = this.style(el).display;
    if (display !== 'inline') return true;
    const inner = after ? el.firstChild : el.lastChild;
    return this.spaceNotNeeded(inner ?? this.neighbour(el, after), after, depth + 1);
  }

  private shownChildren(el: Element, walk: Walk): string {
    let out = '';
    for (const child of this.children(el).nodes) if (child.nodeType === Node.ELEMENT_NODE) out += this.child(child as Element, walk);
    return out;
  }

  /** Children as rendered: a shadow root's instead of the light ones, a slot's assigned nodes, then aria-owns. */
  private children(el: Element): { nodes: Node[]; owned: Element[] } {
    let nodes: Node[];
    const shadow = shadowRootOf(el);
    if (shadow) {
      nodes = childList(shadow);
    } else if (el.tagName === 'SLOT') {
      this.reach = 'anywhere';
      const assigned = (el as HTMLSlotElement).assignedNodes();
      nodes = assigned.length ? assigned : childList(el);
    } else {
      nodes = childList(el);
    }
    // Almost no element owns others: the common case makes no further arrays (this runs for every
    // node of every name computed from content, the largest part of a first read's names).
    if (!el.hasAttribute('aria-owns')) return { nodes, owned: NONE };
    this.reach = 'anywhere';
    const moved = owned(el).filter((target) => !nodes.includes(target));
    return { nodes: moved.length ? nodes.concat(moved) : nodes, owned: moved };
  }

  private style(el: Element): CSSStyleDeclaration {
    let style = this.styles.get(el);
    if (!style) { style = styleOf(el); this.styles.set(el, style); }
    return style;
  }

  /** Counts text against the budget; past it, nothing more is read. */
  private spend(text: string): string {
    if (this.left <= 0) return '';
    this.left -= text.replace(/[\s\u0001\u0002]+/g, '').length;
    return text;
  }
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element's <title> child names it. */
function svgTitle(el: Element): string | null {
  const t = Array.from(el.children).find((c) => c.localName === 'title');
  return t && hasText(t.textContent ?? '') ? t.textContent ?? '' : null;
}

/** The named element's own role: the one pagelens gave when it is an ARIA role, else the element's own. */
function rootRole(el: Element, given: string): string {
  return ARIA_ROLES.has(given) && given !== 'none' && given !== 'presentation' ? given : roleFor(el);
}

/** The elements `el` owns through aria-owns, never one of its ancestors (that would loop). */
const NONE: Element[] = [];

/** A parent's child nodes as an array: a sibling walk, cheaper than Array.from over the live NodeList. */
function childList(parent: ParentNode): Node[] {
  const out: Node[] = [];
  for (let c = parent.firstChild; c; c = c.nextSibling) out.push(c);
  return out;
}

function owned(el: Element): Element[] {
  const ids = el.getAttribute('aria-owns')?.trim();
  if (!ids) return [];
  const scope = el.getRootNode() as Document | ShadowRoot;
  const out: Element[] = [];
  for (const id of ids.split(/\s+/)) {
    const target = scope.getElementById?.(id);
    if (target && !target.contains(el)) out.push(target);
  }
  return out;
}

function ariaLabel(el: Element): string {
  const v = el.getAttribute('aria-label');
  return v && hasText(v) ? v : '';
}

function title(el: Element): string {
  return attr(el, 'title');
}

function attr(el: Element, name: string): string {
  const v = el.getAttribute(name);
  return v && hasText(v) ? v : '';
}

function hasTitle(el: Element, role: string): boolean {
  return TITLED_TAGS.has(el.tagName) || (!!role && el.hasAttribute('role') && !GENERIC.has(role));
}

function isLabelable(el: Element): boolean {
  switch (el.tagName) {
    case 'INPUT': return (el as HTMLInputElement).type !== 'hidden';
    case 'BUTTON': case 'SELECT': case 'TEXTAREA': case 'METER': case 'OUTPUT': case 'PROGRESS': return true;
    default: return false;
  }
}

/** Shown: rendered, visible, and not under aria-hidden. */
export function isRendered(el: Element): boolean {
  if (el.closest('[aria-hidden="true"]')) return false;
  // An element with display: contents has no box of its own: its parent decides.
  let target: Element | null = el;
  while (target && styleOf(target).display === 'contents') target = target.parentElement;
  if (!target) return true;
  return target.checkVisibility({ visibilityProperty: true, checkVisibilityCSS: true } as CheckVisibilityOptions);
}

function isFocusable(el: Element): boolean {
  const tabindex = el.getAttribute('tabindex');
  return (tabindex !== null && Number.isInteger(Number(tabindex))) || (el as HTMLElement).isContentEditable;
}

/** aria-valuetext, else aria-valuenow as Chrome prints the number; undefined when neither is set. */
function rangeValue(el: Element): string | undefined {
  const text = el.getAttribute('aria-valuetext');
  if (text !== null) return text;
  const now = el.getAttribute('aria-valuenow')?.trim();
  if (!now) return undefined;
  // What is not a number counts as 0 ("53%" too).
  const n = Number(now);
  return Number.isFinite(n) ? String(n) : '0';
}

const INPUT_ROLES: Record<string, string> = {
  button: 'button', submit: 'button', reset: 'button', image: 'button', checkbox: 'checkbox', radio: 'radio',
  range: 'slider', number: 'spinbutton', search: 'searchbox', text: 'textbox', email: 'textbox', tel: 'textbox',
  url: 'textbox', password: 'textbox',
};

/** The ARIA role of an element, as far as the name computation cares: the first known token of its role attribute, else its own. */
export function roleFor(el: Element): string {
  const explicit = el.getAttribute('role');
  if (explicit) {
    for (const token of explicit.trim().toLowerCase().split(/\s+/)) {
      if (!ARIA_ROLES.has(token)) continue;
      // A focusable element cannot be presentational: its native role stands.
      if ((token === 'none' || token === 'presentation') && el.hasAttribute('tabindex')) break;
      return token;
    }
  }
  return implicitRole(el);
}

function implicitRole(el: Element): string {
  switch (el.tagName) {
    case 'A': case 'AREA': return el.hasAttribute('href') ? 'link' : '';
    case 'BUTTON': case 'SUMMARY': return 'button';
    case 'IMG': return el.getAttribute('alt') === '' ? 'presentation' : 'img';
    case 'INPUT': {
      const input = el as HTMLInputElement;
      if (input.list && TEXT_INPUTS.has(input.type)) return 'combobox';
      return INPUT_ROLES[input.type] ?? '';
    }
    case 'SELECT': return (el as HTMLSelectElement).multiple || (el as HTMLSelectElement).size > 1 ? 'listbox' : 'combobox';
    case 'TEXTAREA': return 'textbox';
    case 'PROGRESS': return 'progressbar';
    case 'METER': return 'meter';
    case 'OPTION': return 'option';
    case 'ARTICLE': return 'article';
    case 'ASIDE': return 'complementary';
    case 'BLOCKQUOTE': return 'blockquote';
    case 'DETAILS': case 'FIELDSET': case 'HGROUP': return 'group';
    case 'DIALOG': return 'dialog';
    case 'FIGURE': return 'figure';
    case 'HEADER': return 'banner';
    case 'MAIN': return 'main';
    case 'NAV': return 'navigation';
    case 'OUTPUT': return 'status';
    case 'SEARCH': return 'search';
    case 'H1': case 'H2': case 'H3': case 'H4': case 'H5': case 'H6': return 'heading';
    case 'TD': return 'cell';
    case 'TH': return 'columnheader';
    case 'DT': return 'term';
    default: return '';
  }
}
