/**
 * Compile-time checks of the IPC contract. Nothing runs this file: tsc checks it
 * (`npm run typecheck`, a CI step), so a type that drifts, or an @ts-expect-error that no longer
 * errs, fails the typecheck. A runtime test could only pass here, whatever the types said.
 */
import { expectTypeOf } from 'vitest';
import { IPC_CHANNELS, type IpcInput, type IpcOutput } from '../../../src/shared/ipc/contract.js';
import type { IpcHandlers } from '../../../src/main/ipc/handlers.js';

// Inputs and outputs are typed from the same schemas.
expectTypeOf<IpcOutput<'app:info'>['mode']>().toEqualTypeOf<'paper' | 'live'>();
expectTypeOf<IpcInput<'quote:request'>['side']>().toEqualTypeOf<'BUY' | 'SELL'>();
expectTypeOf<IpcInput<'quote:request'>['unit']>().toEqualTypeOf<'BASE' | 'QUOTE'>();
expectTypeOf<IpcInput<'accounts:switch'>['accountId']>().toEqualTypeOf<string | null>();
expectTypeOf<IpcOutput<'quote:request'>['quote']['entryPrice']>().toEqualTypeOf<string>();

// A handler table with a missing or an extra channel does not compile.
const handler = () => Promise.reject(new Error('unused'));
// @ts-expect-error -- 'quote:request' (and others) missing
export const missing: IpcHandlers = { 'app:info': handler };
export const extra: IpcHandlers = {
  ...(Object.fromEntries(IPC_CHANNELS.map((c) => [c, handler])) as unknown as IpcHandlers),
  // @ts-expect-error -- not a channel of the contract
  'shell:exec': handler,
};
