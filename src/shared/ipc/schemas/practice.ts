/**
 * Practice controls (paper mode only): drive the in-process sandbox exchange so a user can
 * rehearse a near knockout, a knockout, a closed market, a kick-off, a settlement and a rejection. Main
 * refuses every one of these unless the active account is the paper account.
 */
import Type, { type Static } from 'typebox';
import { Closed, NoInput } from './common.js';
import { DECIMAL_PATTERN } from '../../money.js';

const ContractId = Type.String({ minLength: 1, maxLength: 128 });

export const PracticePrice = Closed({
  contractId: ContractId,
  outcome: Type.String({ minLength: 1, maxLength: 8 }),
  indexPrice: Type.String({
    pattern: DECIMAL_PATTERN,
    maxLength: 12,
    description: 'The outcome’s new index price, between 0 and 1; the other gets 1 − p.',
  }),
});
export type PracticePrice = Static<typeof PracticePrice>;

export const PracticeFixture = Closed({ contractId: ContractId });
export type PracticeFixture = Static<typeof PracticeFixture>;

export const PracticeKickoff = Closed({
  contractId: ContractId,
  minutes: Type.Integer({
    minimum: 0,
    maximum: 1440,
    description: 'Kick-off this many minutes from now (0: now), to rehearse a time exit.',
  }),
});
export type PracticeKickoff = Static<typeof PracticeKickoff>;

export const PracticeResolve = Closed({
  contractId: ContractId,
  winner: Type.String({ minLength: 1, maxLength: 8, description: 'A team, or DRAW.' }),
});
export type PracticeResolve = Static<typeof PracticeResolve>;

export const PracticeResult = Closed({
  message: Type.String({ minLength: 1, description: 'What happened, in one sentence.' }),
});
export type PracticeResult = Static<typeof PracticeResult>;

/** Calls of the practice panel. (contract.ts joins every feature's calls.) */
export const practiceCalls = {
  'practice:price': { input: PracticePrice, output: PracticeResult },
  'practice:close': { input: PracticeFixture, output: PracticeResult },
  'practice:kickoff': { input: PracticeKickoff, output: PracticeResult },
  'practice:resolve': { input: PracticeResolve, output: PracticeResult },
  'practice:reject': { input: NoInput, output: PracticeResult },
} as const;
