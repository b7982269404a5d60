/**
 * Which screen shows, the shortcuts overlay, and requests to focus a search box: driven by the
 * navigation, the keyboard (keys.ts) and main's `app:show` (the app menu, a clicked notification).
 */
import type { ShowRequest } from '../../../../shared/ipc/contract.js';
import type { Bridge } from '../bridge.js';
import { shortcutFor, type DeskScreen, type KeyPress } from '../keys.js';

/** The screens with a search box of their own; `/` elsewhere goes to the markets'. */
const SEARCHABLE: readonly DeskScreen[] = ['markets', 'positions'];

export interface RevealsPositions {
  reveal(contractId: string, outcome?: string, detail?: boolean): void;
}

export interface OpensSettlements {
  openSettlement(id: number): Promise<void>;
}

export class NavigationState {
  screen = $state<DeskScreen>('markets');
  shortcutsOpen = $state(false);
  /** The screen whose search box should take the focus now, until it has. */
  searchFor = $state<DeskScreen | null>(null);
  readonly #bridge: Bridge;
  readonly #positions: RevealsPositions;
  readonly #history: OpensSettlements;

  constructor(bridge: Bridge, positions: RevealsPositions, history: OpensSettlements) {
    this.#bridge = bridge;
    this.#positions = positions;
    this.#history = history;
  }

  requestSearch(): void {
    if (!SEARCHABLE.includes(this.screen)) this.screen = 'markets';
    this.searchFor = this.screen;
  }

  /** The search box has the focus. */
  searchDone(): void {
    this.searchFor = null;
  }

  /** The shortcuts overlay opens over the screen shown now: main does not know which it is. */
  show(request: ShowRequest): void {
    if (request.shortcuts) {
      this.shortcutsOpen = true;
      return;
    }
    this.screen = request.screen;
    if (request.screen === 'positions' && request.contractId) {
      this.#positions.reveal(request.contractId, request.outcome, request.detail === true);
    }
    if (request.screen === 'history' && request.settlementId !== undefined) {
      void this.#history.openSettlement(request.settlementId);
    }
    if (request.search) this.requestSearch();
  }

  /** A key pressed anywhere in the app; true when it was a shortcut and was acted on. */
  key(press: KeyPress): boolean {
    const action = shortcutFor(press);
    if (!action) return false;
    switch (action.kind) {
      case 'screen':
        this.shortcutsOpen = false;
        this.screen = action.screen;
        return true;
      case 'search':
        if (this.shortcutsOpen) return false;
        this.requestSearch();
        return true;
      case 'shortcuts':
        this.shortcutsOpen = !this.shortcutsOpen;
        return true;
      case 'escape':
        if (!this.shortcutsOpen) return false;
        this.shortcutsOpen = false;
        return true;
    }
  }

  /** Follows `app:show`; returns the function that stops. */
  start(): () => void {
    return this.#bridge.on('app:show', (request) => this.show(request));
  }
}
