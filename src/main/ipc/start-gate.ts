/**
 * The bridge from the first moment (docs/data.md, "Start"): the window (or the browser host's
 * page) connects at once, before the store is open. Until the services are up, `app:start`
 * answers where the start is and `app:starting` carries each change, the `early` handlers answer
 * what they can (the markets the store already holds), and every other call waits for the
 * services. Once they are up, every call goes to them.
 */
import type { IpcChannel, IpcInput, IpcOutput } from '../../shared/ipc/contract.js';
import { IPC_CHANNELS } from '../../shared/ipc/contract.js';
import type { EventSource, IpcEventListener } from './events.js';
import type { Handler, IpcHandlers } from './handler.js';
import type { Bridged } from './handlers.js';
import type { StartTracker } from '../start/index.js';

export interface GateOptions {
  tracker: StartTracker;
  /** The services, once up; their failure is each waiting call's failure. */
  services: Promise<Bridged>;
  /** Calls answered before the services are up (never `app:start`: the tracker answers it). */
  early?: Partial<IpcHandlers>;
}

/** A Bridged that serves from the first moment; see the file's comment. */
export function startGate(options: GateOptions): Bridged {
  const { tracker, early = {} } = options;
  let ready: Bridged | undefined;
  const services = options.services.then((s) => (ready = s));
  // The failure is heard by whoever started the services; a waiting call gets it too.
  services.catch(() => {});

  const handlers = {} as Record<IpcChannel, Handler<IpcChannel>>;
  for (const channel of IPC_CHANNELS) {
    handlers[channel] = async (input: IpcInput<IpcChannel>): Promise<IpcOutput<IpcChannel>> => {
      if (channel === 'app:start' && !ready) return tracker.current();
      if (ready) return call(ready.handlers, channel, input);
      const first: unknown = early[channel];
      if (first) return (first as Handler<IpcChannel>)(input);
      return call((await services).handlers, channel, input);
    };
  }

  const events: EventSource = {
    subscribe(listener: IpcEventListener) {
      const stopStart = tracker.subscribe((p) => listener('app:starting', p));
      let stopServices: (() => void) | undefined;
      let stopped = false;
      void services.then(
        (s) => {
          if (!stopped) stopServices = s.events.subscribe(listener);
        },
        () => {},
      );
      return () => {
        stopped = true;
        stopStart();
        stopServices?.();
      };
    },
  };
  return { handlers: handlers, events };
}

function call(
  handlers: IpcHandlers,
  channel: IpcChannel,
  input: IpcInput<IpcChannel>,
): Promise<IpcOutput<IpcChannel>> {
  return (handlers[channel] as Handler<IpcChannel>)(input);
}
