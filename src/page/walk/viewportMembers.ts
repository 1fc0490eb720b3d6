// Which targets are in or near the viewport, kept by an IntersectionObserver as the page scrolls,
// so that a viewport read visits those few hundred elements instead of walking a page of 50,000.
//
// The observer's answers arrive a frame late, so they are used only when they are known to be
// current: after the last thing that can move targets against the viewport (a scroll, a resize, a
// load, a newly observed target) the observer has reported since. A probe (a one-shot observer
// made at each such event) tells when: Chrome updates every observer of the document in the same
// step, and calls them back in the order they were made, so when the probe's first report arrives
// the membership is as of a step after the event. The page scroll is compared on each read too,
// because a scroll by script moves the page before its event fires.
//
// What a viewport read may reuse from the last walk (the count of targets off screen, the targets
// each clipping container hides) holds only while nothing changed but the page's own scroll:
// `geometryChangedSince` says whether anything else may have moved them (a container scrolled, an
// image or font loaded, the window resized), and the read compares the containers' scroll offsets.

/** Generous: the observer only preselects; the read checks every candidate exactly, as a walk does. */
const MARGIN = '50%';

let io: IntersectionObserver | null = null;
let sentinel: Element | null = null;
/** Observed elements (targets, and the labels that lend a hidden checkbox its box) near the viewport. */
const near = new Set<Element>();
const observed = new WeakSet<Element>();
/** A label observed for the hidden control it shows → that control. */
const proxyOf = new WeakMap<Element, Element>();
/** The membership is as of after the last event that can move targets against the viewport; and the page scroll then. */
let current = false;
let currentScroll = '';
let latestProbe: IntersectionObserver | null = null;
/** A probe was made in the current task already: every event of one task precedes the next update. */
let probedThisTask = false;
/** performance.now() of the last change that can move targets against each other, not just against the viewport. */
let geometryAt = 0;

const pageScroll = () => `${window.scrollX},${window.scrollY}`;

/**
 * Something moved, or may have (a change of the DOM or of state can push content around): the
 * observer's membership is stale until the observers' next update has reported.
 */
export function moved(): void {
  current = false;
  if (probedThisTask || !sentinel?.isConnected) return;
  probedThisTask = true;
  queueMicrotask(() => { probedThisTask = false; });
  const probe: IntersectionObserver = new IntersectionObserver(() => {
    probe.disconnect();
    if (probe !== latestProbe) return;
    current = true;
    currentScroll = pageScroll();
  }, { root: sentinel.ownerDocument });
  latestProbe = probe;
  probe.observe(sentinel);
}

/** Listens for what moves targets (the observer itself is made at the first target: at document start there is no root element yet to probe with). */
export function startViewportMembers(doc: Document): void {
  const view = doc.defaultView;
  if (!view || typeof IntersectionObserver !== 'function') return;
  view.addEventListener('scroll', (e) => {
    if (e.target !== doc) geometryAt = performance.now();
    moved();
  }, { capture: true, passive: true });
  for (const type of ['resize', 'load', 'error']) view.addEventListener(type, () => { geometryAt = performance.now(); moved(); }, { capture: true, passive: true });
  doc.fonts?.addEventListener?.('loadingdone', () => { geometryAt = performance.now(); moved(); });
  started = true;
}

let started = false;

function observer(doc: Document): IntersectionObserver | null {
  if (io || !started) return io;
  sentinel = doc.documentElement;
  if (!sentinel) return null;
  io = new IntersectionObserver((entries) => {
    for (const e of entries) if (e.isIntersecting) near.add(e.target); else near.delete(e.target);
  }, { root: doc, rootMargin: MARGIN });
  return io;
}

/**
 * Targets waiting to be observed, with the labels that show them. Observing is left out of the
 * read that finds them (20,000 `observe` calls are a tenth of a first read of a big page) and done
 * in one task right after it; until then the membership is not current. One task, not several
 * small ones: Chrome measures every observed target again at each frame between them.
 */
const pending: Array<[Element, HTMLLabelElement[]]> = [];
let observing = false;

/** Starts watching a target (called whenever one is stamped; cheap when it is already watched). */
export function watchTarget(el: Element): void {
  if (observed.has(el) || !started) return;
  observed.add(el);
  // A hidden checkbox or radio is shown (and boxed) by its label: the label's place counts. Its
  // labels are taken now: during a read they come from an index, later each costs a document scan.
  const proxied = el.tagName === 'INPUT' && /^(checkbox|radio|file)$/.test((el as HTMLInputElement).type);
  pending.push([el, proxied ? Array.from((el as HTMLInputElement).labels ?? []) : []]);
  // Stale until every pending target is observed and a probe made after that has reported.
  current = false;
  latestProbe = null;
  if (!observing) { observing = true; setTimeout(observePending, 0); }
}

function observePending(): void {
  for (const [el, labels] of pending.splice(0)) {
    const io = observer(el.ownerDocument);
    if (!io) { observed.delete(el); continue; }
    io.observe(el);
    for (const label of labels) {
      if (observed.has(label)) continue;
      observed.add(label);
      proxyOf.set(label, el);
      io.observe(label);
    }
  }
  observing = false;
  moved();
}

/** The targets near the viewport, or null when the observer has not caught up with the page yet. */
export function currentMembers(): Element[] | null {
  if (!io || !current || pending.length || currentScroll !== pageScroll()) return null;
  const out = new Set<Element>();
  for (const el of near) {
    if (!el.isConnected) { near.delete(el); continue; }
    out.add(proxyOf.get(el) ?? el);
  }
  return [...out].filter((el) => el.isConnected);
}

/** Whether anything but the page's scroll may have moved targets against each other since `time`. */
export function geometryChangedSince(time: number): boolean {
  return geometryAt >= time;
}
