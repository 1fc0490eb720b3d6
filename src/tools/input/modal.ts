// Modal states a tool call can leave behind: a JavaScript dialog (alert, confirm, prompt,
// beforeunload) or a file chooser. Both block the page until someone answers, so they are held
// here and reported in the action's response; browser_handle_dialog / browser_file_upload answer.
// Dialogs come from the host port (HostPage), file choosers from a host that offers them (extras).
import type { HostPage } from '../../model/contracts/hostPage.js';
import type { OpenChooser, ToolExtras } from '../registry/extras.js';

export type ModalState =
  | { kind: 'dialog'; type: string; message: string; defaultValue?: string }
  | { kind: 'fileChooser'; multiple: boolean };

export class ModalTracker {
  chooser?: OpenChooser;
  private waiters: Array<(m: ModalState) => void> = [];

  constructor(private readonly page: HostPage, extras: ToolExtras) {
    // From here on the client decides: the host holds each dialog (and chooser) until answered.
    page.watch({ dialog: () => this.notify(this.states()[0]) });
    extras.watchChoosers?.((c) => { this.chooser = c; this.notify({ kind: 'fileChooser', multiple: c.multiple }); });
  }

  /** The dialog blocking the page, if any. */
  get dialog() {
    return this.page.dialogs.pending();
  }

  /** The open modal states, for responses. */
  states(): ModalState[] {
    const out: ModalState[] = [];
    const d = this.dialog;
    if (d) out.push({ kind: 'dialog', type: d.type, message: d.message, ...(d.type === 'prompt' && { defaultValue: d.defaultValue ?? '' }) });
    if (this.chooser) out.push({ kind: 'fileChooser', multiple: this.chooser.multiple });
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

  private notify(state: ModalState | undefined): void {
    if (!state) return;
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w(state);
  }
}
