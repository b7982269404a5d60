/**
 * A small typed event hub services can use to implement `EventSource`: `emit` is what a service
 * calls when something changed; registerHandlers subscribes and forwards to the renderers.
 */
import type { IpcEvent, IpcEventPayload } from '../../shared/ipc/contract.js';
import type { EventSource, IpcEventListener } from './services.js';

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
