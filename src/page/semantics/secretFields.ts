// Which fields of the live page are secret: the one rule (src/model/safety/secrets.ts) on the
// element as it is now, and, once it held for an element, for as long as the element lives. A
// page can turn a password field into a text field once it holds a value (a "show password"
// button, onchange="this.type='text'"), or drop a field's secret autofill token: the value is
// still the secret it was typed as, so it stays masked in every mode, name and delta.
import { isSecretFieldFacts } from '../../model/safety/secrets.js';

/** Fields seen secret (read, typed into, or changed away from secret): a set the page cannot reach. */
const onceSecret = new WeakSet<Element>();

const isField = (el: Element) => el.tagName === 'INPUT' || el.tagName === 'TEXTAREA';

/** The secret-field rule on a live element (its current type, its autofill tokens), or it was secret once. */
export function isSecretField(el: Element): boolean {
  if (!isField(el)) return false;
  if (onceSecret.has(el)) return true;
  if (!isSecretFieldFacts({ tag: el.tagName, type: (el as HTMLInputElement).type, autocomplete: el.getAttribute('autocomplete') })) return false;
  onceSecret.add(el);
  return true;
}

/**
 * A `type` or `autocomplete` attribute changed (the mutation log sees every change): when the field
 * was secret under the old value, it stays secret, even if nothing read it before the change.
 */
export function noteFieldAttributeChange(el: Element, name: string | null, old: string | null): void {
  if ((name !== 'type' && name !== 'autocomplete') || !isField(el) || onceSecret.has(el)) return;
  const type = name === 'type' ? old : (el as HTMLInputElement).type;
  const autocomplete = name === 'autocomplete' ? old : el.getAttribute('autocomplete');
  if (isSecretFieldFacts({ tag: el.tagName, type, autocomplete })) onceSecret.add(el);
}
