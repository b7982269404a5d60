/**
 * App-wide desk settings (settings:get / settings:set): one-click betting, and in the desktop app
 * starting at login and starting hidden in the tray.
 */
import type { DeskSettings } from '../../../../shared/ipc/contract.js';
import { messageOf, type Bridge } from '../bridge.js';

/** Off until main says otherwise: the confirmation step and a manual start are the safe
 *  defaults. */
const DEFAULTS: DeskSettings = { oneClickBetting: false, startAtLogin: false, startHidden: false };

export class SettingsState {
  #settings = $state<DeskSettings>({ ...DEFAULTS });
  /** Why the last read or save failed, in words; null once one succeeds. */
  error = $state<string | null>(null);
  #version = 0;
  readonly #bridge: Bridge;

  constructor(bridge: Bridge) {
    this.#bridge = bridge;
  }

  // The settings are private: each change is saved at once, and put back when main refuses.

  get oneClickBetting(): boolean {
    return this.#settings.oneClickBetting;
  }
  /** Saved at once; put back as it was when main refuses. */
  set oneClickBetting(value: boolean) {
    this.#change('oneClickBetting', value);
  }

  get startAtLogin(): boolean {
    return this.#settings.startAtLogin;
  }
  /** Saved at once (main registers the login item first); put back when main refuses. */
  set startAtLogin(value: boolean) {
    this.#change('startAtLogin', value);
  }

  get startHidden(): boolean {
    return this.#settings.startHidden;
  }
  set startHidden(value: boolean) {
    this.#change('startHidden', value);
  }

  async load(): Promise<void> {
    const mine = ++this.#version;
    try {
      const settings = await this.#bridge.invoke('settings:get', {});
      if (mine === this.#version) this.#settings = settings;
      this.error = null;
    } catch (err) {
      this.error = messageOf(err);
    }
  }

  #change(name: keyof DeskSettings, value: boolean): void {
    const before = this.#settings[name];
    this.#settings = { ...this.#settings, [name]: value };
    void this.#save(name, value, before);
  }

  async #save(name: keyof DeskSettings, value: boolean, before: boolean): Promise<void> {
    const mine = ++this.#version;
    try {
      const settings = await this.#bridge.invoke('settings:set', { [name]: value });
      if (mine === this.#version) this.#settings = settings;
      this.error = null;
    } catch (err) {
      if (mine === this.#version) this.#settings = { ...this.#settings, [name]: before };
      this.error = messageOf(err);
    }
  }
}
