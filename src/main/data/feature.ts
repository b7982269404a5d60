/** The data folder on the bridge: acknowledging a notice about what Betdesk did to its store. */
import type { AppInfo } from '../../shared/ipc/contract.js';
import type { Handlers } from '../ipc/handler.js';
import type { StoreNotices } from './store-notices.js';

/** Drops the notice of that time; answers the app info with the next notice, if any. */
export function storeNoticesFeature(
  notices: StoreNotices,
  appInfo: () => Promise<AppInfo>,
): Handlers<'store:acknowledge'> {
  return {
    'store:acknowledge': ({ at }) => {
      notices.acknowledge(at);
      return appInfo();
    },
  };
}
