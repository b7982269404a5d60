/**
 * The app as a whole: info for the badge, sync status, pause and resume, app-wide settings, and
 * acknowledging a notice about the local store.
 */
import type { Services } from '../services.js';
import type { FeatureHandlers } from '../handler.js';

export type AppHandlers = FeatureHandlers<
  | 'app:info'
  | 'status:get'
  | 'sync:pause'
  | 'sync:resume'
  | 'settings:get'
  | 'settings:set'
  | 'store:acknowledge'
>;

export function appHandlers(s: Services): AppHandlers {
  return {
    'app:info': () => s.app.info(),
    'status:get': () => s.status.get(),
    'sync:pause': () => s.status.pauseSync(),
    'sync:resume': () => s.status.resumeSync(),
    'settings:get': () => s.settings.get(),
    'settings:set': (change) => s.settings.set(change),
    'store:acknowledge': ({ at }) => s.storeNotices.acknowledge(at),
  };
}
