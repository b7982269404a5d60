/** Support: the logs folder, opening it, and the diagnostics text. */
import type { Services } from '../services.js';
import type { FeatureHandlers } from '../handler.js';

export type SupportHandlers = FeatureHandlers<
  'support:folders' | 'support:diagnostics' | 'logs:open'
>;

export function supportHandlers(s: Services): SupportHandlers {
  return {
    'support:folders': () => s.support.folders(),
    'support:diagnostics': () => s.support.diagnostics(),
    'logs:open': () => s.support.openLogs(),
  };
}
