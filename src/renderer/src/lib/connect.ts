/**
 * Opens the app's bridge: in Electron the preload provides `window.betdesk`; in a browser (the
 * browser host) the same contract travels over a WebSocket whose token comes from the page's own
 * address. Only main.ts calls this, once.
 */
import type { BetdeskBridge } from '../../../shared/ipc/bridge.js';
import { TOKEN_PARAM, WS_PATH } from '../../../shared/ipc/ws-protocol.js';
import { bridgeOver, type Bridge } from './bridge.js';
import { WebSocketBridge } from './ws-bridge.js';

declare global {
  interface Window {
    betdesk?: BetdeskBridge;
  }
}

export function connectBridge(): Bridge {
  if (window.betdesk) return bridgeOver(window.betdesk);
  const token = new URLSearchParams(location.search).get(TOKEN_PARAM) ?? '';
  const ws = new WebSocketBridge(
    `ws://${location.host}${WS_PATH}?${TOKEN_PARAM}=${encodeURIComponent(token)}`,
  );
  return bridgeOver(ws, (listener) => ws.onConnection(listener));
}
