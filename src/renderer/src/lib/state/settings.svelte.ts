/** App-wide desk settings (settings:get / settings:set): today, one-click betting. */
import { messageOf, type Bridge } from '../bridge.js';

export class SettingsState {
  /** Off until main says otherwise: the confirmation step is the safe default. */
  #oneClick = $state(false);
  #error = $state<string | null>(null);
  #version = 0;
  readonly #bridge: Bridge;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  get oneClickBetting(): boolean {
    return this.#oneClick;
  }
  /** Saved at once; put back as it was when main refuses. */
  set oneClickBetting(value: boolean) {
    const before = this.#oneClick;
    this.#oneClick = value;
    void this.#save(value, before);
  }

  get error(): string | null {
    return this.#error;
  }

  async load(): Promise<void> {
    const mine = ++this.#version;
    try {
      const settings = await this.#bridge.invoke('settings:get', {});
      if (mine === this.#version) this.#oneClick = settings.oneClickBetting;
      this.#error = null;
    } catch (err) {
      this.#error = messageOf(err);
    }
  }

  async #save(value: boolean, before: boolean): Promise<void> {
    const mine = ++this.#version;
    try {
      const settings = await this.#bridge.invoke('settings:set', { oneClickBetting: value });
      if (mine === this.#version) this.#oneClick = settings.oneClickBetting;
      this.#error = null;
    } catch (err) {
      if (mine === this.#version) this.#oneClick = before;
      this.#error = messageOf(err);
    }
  }
}
