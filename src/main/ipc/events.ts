/**
 * Push events on their way to the renderers: features emit to the hub when something changed,
 * registerHandlers subscribes and forwards each event to every renderer.
 */
import type { IpcEvent, IpcEventPayload } from '../../shared/ipc/contract.js';

export type IpcEventListener = <E extends IpcEvent>(event: E, payload: IpcEventPayload<E>) => void;

/** Where main announces changes. */
export interface EventSource {
  subscribe(listener: IpcEventListener): () => void;
}

export class IpcEventHub implements EventSource {
  private readonly listeners = new Set<IpcEventListener>();

  subscribe(listener: IpcEventListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  emit<E extends IpcEvent>(event: E, payload: IpcEventPayload<E>): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event, payload);
      } catch (err) {
        // One broken listener (a closed window, say) must not keep the event from the others.
        console.error(`Betdesk: a listener for ${event} failed:`, describe(err));
      }
    }
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
