// Modal states a tool call can leave behind: a JavaScript dialog (alert, confirm, prompt,
// beforeunload) or a file chooser. Both block the page until someone answers, so they are held
// here and reported in the action's response; browser_handle_dialog / browser_file_upload answer.
import type { Dialog, FileChooser, Page } from 'playwright-core';

export type ModalState =
  | { kind: 'dialog'; type: string; message: string; defaultValue?: string }
  | { kind: 'fileChooser'; multiple: boolean };

export class ModalTracker {
  dialog?: Dialog;
  chooser?: FileChooser;
  private waiters: Array<(m: ModalState) => void> = [];

  constructor(page: Page) {
    // A 'dialog' listener stops Playwright's auto-dismiss, a 'filechooser' listener stops the
    // native chooser: from here on the client decides.
    page.on('dialog', (d) => { this.dialog = d; this.notify(this.states()[0]); });
    page.on('filechooser', (c) => { this.chooser = c; this.notify({ kind: 'fileChooser', multiple: c.isMultiple() }); });
  }

  /** The open modal states, for responses. */
  states(): ModalState[] {
    const out: ModalState[] = [];
    if (this.dialog) {
      const d = this.dialog;
      out.push({ kind: 'dialog', type: d.type(), message: d.message(), ...(d.type() === 'prompt' && { defaultValue: d.defaultValue() }) });
    }
    if (this.chooser) out.push({ kind: 'fileChooser', multiple: this.chooser.isMultiple() });
    return out;
  }

  /** Resolves when a dialog or file chooser opens. */
  next(): Promise<ModalState> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Forgets pending waiters (the action they raced finished first). */
  cancelWaits(): void {
    this.waiters = [];
  }

  private notify(state: ModalState): void {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w(state);
  }
}
