/** The alert centre and the account's alert settings. */
import type { Services } from '../services.js';
import type { FeatureHandlers } from '../handler.js';

export type AlertHandlers = FeatureHandlers<
  'alerts:list' | 'alerts:read' | 'alerts:settings' | 'alerts:configure'
>;

export function alertHandlers(s: Services): AlertHandlers {
  return {
    'alerts:list': (query) => s.alerts.list(query),
    'alerts:read': (input) => s.alerts.markRead(input),
    'alerts:settings': () => s.alerts.settings(),
    'alerts:configure': (settings) => s.alerts.configure(settings),
  };
}
