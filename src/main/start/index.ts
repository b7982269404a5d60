/** The start (docs/data.md, "Start"): its progress, which the bridge serves from the first moment (ipc/start-gate.ts). */
export { StartTracker, type StartListener, type StartReport, type StartStep } from './tracker.js';
export { sayStart, SAY_AFTER_MS, type SayOptions } from './say.js';
