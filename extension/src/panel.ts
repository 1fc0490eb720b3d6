// What the side panel and the service worker say to each other over the "pagelens-panel" port.
import type { TaskStep } from './agent.js';

export type PanelCommand =
  | { type: 'run'; task: string; backend: string; token?: string; tabId?: number }
  | { type: 'stop' };

export type PanelEvent =
  | { type: 'started'; tabId: number }
  | { type: 'step'; step: TaskStep }
  /** `trace`: the run's record, kept as the last run (the panel's Export button downloads it). */
  | { type: 'finished'; status: string; message: string; success: boolean; trace?: { name: string; bytes: number; steps: number }; traceError?: string };
