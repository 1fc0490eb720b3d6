// The V3 role vocabulary: long ARIA roles become the short codes the legend explains.
// Roles not listed pass through unchanged, so nothing is ever mislabelled to save a token.
const MINIFIED: Record<string, string> = {
  button: 'btn',
  textbox: 'inp',
  searchbox: 'inp',
  input: 'inp',
  textarea: 'inp',
  checkbox: 'chk',
  select: 'sel',
  combobox: 'sel',
  listbox: 'sel',
  menuitem: 'menu',
  menuitemcheckbox: 'menu',
  menuitemradio: 'menu',
  option: 'opt',
};

export function minifyRole(role: string): string {
  return MINIFIED[role] ?? role;
}

// Short codes back to the ARIA role they most often stand for (inp: a text field, sel: a combobox).
const EXPANDED: Record<string, string> = { btn: 'button', inp: 'textbox', chk: 'checkbox', sel: 'combobox', menu: 'menuitem', opt: 'option' };

/** A semantic_v3 role code as an ARIA role (the inverse of minifyRole, where it is ambiguous the commonest). */
export function expandRole(code: string): string {
  return EXPANDED[code] ?? code;
}

/**
 * Roles an agent can operate: the one list that decides what the tagger stamps, what the axtree
 * mode calls interactive and what the benchmark counts in Chrome's tree.
 */
export const INTERACTIVE_ROLES: ReadonlySet<string> = new Set([
  'button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option',
  'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'switch', 'slider', 'spinbutton',
  'treeitem', 'gridcell', 'scrollbar',
]);

/** The same controls under the internal role names Chrome's accessibility tree gives some of them. */
export const CHROME_CONTROL_ROLES: ReadonlySet<string> = new Set([
  'ComboBoxMenuButton', 'ComboBoxSelect', 'DisclosureTriangle', 'PopUpButton', 'ToggleButton',
]);

/** Parts of a native control Chrome lists separately (a <select>'s popup and its options): not targets of their own. */
export const CHROME_CONTROL_PARTS: ReadonlySet<string> = new Set(['MenuListPopup', 'MenuListOption']);

/** Interactive by its role in Chrome's accessibility tree. */
export function isInteractiveAxRole(role: string): boolean {
  return INTERACTIVE_ROLES.has(role) || CHROME_CONTROL_ROLES.has(role);
}

/** The text form's legend (model/renderers/render.ts v3Line), for the server's instructions: what a model needs to read a line. */
export const TEXT_LEGEND = `Lines: ID role name = "value" {states}. btn button, inp field, chk checkbox, sel select, opt option, clickable: looks clickable, {hover}: reacts to hover. (covered): something lies over it. (hides N: why): N more inside. (in N): inside N. "> ID text": page text.`;

export const V3_LEGEND = `LEGEND for interactive_tree:
- i: element ID; act with click(i), setValue(i, "text"). "f1_5" = element 5 in frame 1
- r: role (btn=button, inp=text input, link, chk=checkbox, radio, sel=select/combobox, menu=menu item, opt=option, tab, switch, slider; others as ARIA names them; clickable=element that only looks clickable)
- n: name/label the user sees
- v: current value (passwords are never sent: "***")
- s: states, comma-separated (disabled, checked, mixed, expanded, collapsed, selected, pressed, required, readonly, focused; hover: reacts when the pointer is over it, hover(i))
- xy: [x, y] centre in viewport CSS pixels; box: [x, y, width, height]
- f: frame ID (omitted for the main frame)
- scr: scrollable container {depth: how far scrolled, h: more content to scroll to}; scroll(i) loads more
- occ: true when something (a modal, a banner) covers the element: deal with the cover first
- hid: {n, why}: n more targets inside it are hidden by its overflow (a carousel, a collapsed menu): scroll it, or use its arrows or toggle, to reveal them
- in: the ID of the element this one sits inside (a button in a tab header); each is a target of its own`;
