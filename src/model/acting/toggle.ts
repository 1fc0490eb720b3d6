// check / uncheck / toggle, decided once for every host (issue 19): what the control should become,
// when there is nothing to do, what is refused before clicking, and what a click that did not take is.
type Checked = boolean | 'mixed';

/** Before clicking: nothing to do (`done`), refuse (`refuse`), or click to reach `want`. */
export type TogglePlan = { done: string } | { refuse: string } | { want: boolean };

export function planToggle(gid: string, type: 'check' | 'uncheck' | 'toggle', before: Checked | null, isRadio: boolean): TogglePlan {
  if (before === null) return { refuse: `${gid} is not a checkbox, radio or switch` };
  const want = type === 'toggle' ? before !== true : type === 'check';
  if (before === want) return { done: `${gid} was already ${want ? 'checked' : 'unchecked'}` };
  // A radio is unchecked by choosing another option; clicking it again does nothing (or re-checks it).
  if (!want && isRadio) return { refuse: `${gid} is a radio button: choose another option in its group instead of unchecking it` };
  return { want };
}

/** After the click: why the control is not what was asked (the page kept it), or null when it is. */
export function toggleMissed(gid: string, want: boolean, after: Checked | null): string | null {
  // Unread is not unchecked: a control that left the document with no replacement found says so.
  if (after === null) return `clicked ${gid}, but its state could not be read afterwards (it left the document and no replacement was found)`;
  return after === want ? null : `clicked ${gid}, but it is still ${after === true ? 'checked' : after === 'mixed' ? 'mixed' : 'unchecked'}`;
}

/**
 * A press on a control no person can aim at (the "visually hidden" idiom: a box of 2 px or less,
 * with no label to click instead) reaches the control, but a page that listens where a person
 * clicks may not see it: the control's own state is all the check saw, and the result says so.
 */
export function unaimedPress(gid: string, box: readonly number[] | undefined): string | null {
  if (!box || (box[2] > 2 && box[3] > 2)) return null;
  return `${gid} is ${Math.round(box[2])}×${Math.round(box[3])} px, too small for a person to aim at, and has no label to press instead: it was pressed where it lies, and only its own state was seen to change (the page may listen elsewhere: check what it shows)`;
}
