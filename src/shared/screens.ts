/**
 * The desk's screens, in navigation order, and the label each goes by: main's Go menu and the
 * renderer's navigation list the same ones, and Ctrl/Cmd+1… follow this order in both. Plain
 * data without the schema library, so the renderer loads it as it is.
 */
export const SCREENS = [
  'markets',
  'portfolio',
  'positions',
  'orders',
  'alerts',
  'guardians',
  'history',
  'accounts',
] as const;
export type ScreenName = (typeof SCREENS)[number];

export const SCREEN_LABELS: Record<ScreenName, string> = {
  markets: 'Markets',
  portfolio: 'Portfolio',
  positions: 'Positions',
  orders: 'Orders',
  alerts: 'Alerts',
  guardians: 'Guardians',
  history: 'History',
  accounts: 'Accounts',
};
