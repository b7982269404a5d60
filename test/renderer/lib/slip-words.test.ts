import { describe, expect, test } from 'vitest';
import {
  failureAdvice,
  knownRefusal,
  placeLabel,
  placeNote,
  type RefusalFacts,
} from '../../../src/renderer/src/lib/slip-words.js';
import { fixtureRef, position } from '../rows.js';

function facts(over: Partial<RefusalFacts> = {}): RefusalFacts {
  return {
    contractId: 'EPL-ARSCHE',
    outcome: 'ARS',
    side: 'BUY',
    fixture: fixtureRef(),
    fixtureName: 'ARS v CHE',
    positions: [],
    canTrade: true,
    online: true,
    connected: true,
    ...over,
  };
}

describe('known refusals', () => {
  test('a closed fixture comes first, and blocks the quote too', () => {
    const refusal = knownRefusal(
      facts({ fixture: fixtureRef({ bettingOpen: false }), canTrade: false, online: false }),
    );
    expect(refusal).toEqual({
      message: 'Betting on ARS v CHE is closed, so the exchange would refuse this bet.',
      blocksQuote: true,
    });
    expect(knownRefusal(facts({ fixture: fixtureRef({ status: 'CLOSED' }) }))?.blocksQuote).toBe(
      true,
    );
  });

  test('a BUY with the other outcome held is refused; the same outcome is not', () => {
    const che = position({ outcome: 'CHE' });
    expect(knownRefusal(facts({ positions: [che] }))?.message).toMatch(
      /^You hold CHE on ARS v CHE/,
    );
    expect(knownRefusal(facts({ positions: [position({ outcome: 'ARS' })] }))).toBeNull();
    expect(
      knownRefusal(facts({ positions: [position({ outcome: 'CHE', contracts: 0 })] })),
    ).toBeNull();
  });

  test('a SELL of what is not held is refused', () => {
    expect(knownRefusal(facts({ side: 'SELL' }))?.message).toBe(
      'Nothing is held on ARS in ARS v CHE to sell.',
    );
    expect(knownRefusal(facts({ side: 'SELL', positions: [position()] }))).toBeNull();
  });

  test('a read-only key and being offline still let a quote be asked for', () => {
    expect(knownRefusal(facts({ canTrade: false }))).toMatchObject({ blocksQuote: false });
    expect(knownRefusal(facts({ canTrade: false }))?.message).toMatch(/may only read/);
    expect(knownRefusal(facts({ online: false }))).toMatchObject({ blocksQuote: false });
    expect(knownRefusal(facts({ online: false }))?.message).toMatch(/^Offline: /);
    expect(knownRefusal(facts({ fixture: null }))).toBeNull();
  });
});

describe('the Place button’s words', () => {
  const quoted = { contracts: 25, cost: '24.00', proceeds: undefined, dollars: undefined };

  test('say what a bet will be', () => {
    expect(placeLabel({ side: 'BUY', kind: 'FOK', ...quoted })).toBe(
      'Place bet · 25 contracts · $24.00',
    );
    expect(placeLabel({ side: 'BUY', kind: 'FOK', ...quoted, contracts: 1 })).toBe(
      'Place bet · 1 contract · $24.00',
    );
    expect(placeLabel({ side: 'BUY', kind: 'MARKET', ...quoted })).toBe(
      'Place bet · Market · 25 contracts · about $24.00',
    );
    expect(placeLabel({ side: 'BUY', kind: 'MARKET', ...quoted, dollars: '25' })).toBe(
      'Place bet · Market · up to $25.00',
    );
  });

  test('say what a close will be, with its proceeds when known', () => {
    const close = { contracts: 4, cost: undefined, dollars: undefined };
    expect(placeLabel({ side: 'SELL', kind: 'FOK', ...close, proceeds: '2.32' })).toBe(
      'Place bet · Sell 4 contracts · about $2.32',
    );
    expect(placeLabel({ side: 'SELL', kind: 'MARKET', ...close, proceeds: undefined })).toBe(
      'Place bet · Market · sell 4 contracts',
    );
  });
});

describe('the note under Place', () => {
  test('says Place waits for a refusal shown above, and why else it is off', () => {
    const refusal = { message: 'Offline: …', blocksQuote: false };
    expect(placeNote({ block: { kind: 'refused', refusal }, oneClick: true, side: 'BUY' })).toBe(
      'Place is off until that changes.',
    );
    expect(placeNote({ block: { kind: 'expired' }, oneClick: true, side: 'BUY' })).toBe(
      'This quote has expired; request a new one.',
    );
    expect(
      placeNote({ block: { kind: 'rate-limited', retryInMs: 1200 }, oneClick: true, side: 'BUY' }),
    ).toMatch(/try again in 2 s\.$/);
    expect(
      placeNote({ block: { kind: 'placed', status: 'FILLED' }, oneClick: false, side: 'BUY' }),
    ).toBe('Placed. Request a new quote to bet again.');
  });

  test('a bet that went nowhere is never said to be placed', () => {
    for (const status of ['REJECTED', 'NOT_PLACED', 'CANCELED', 'EXPIRED', 'FAILED'] as const) {
      expect(placeNote({ block: { kind: 'placed', status }, oneClick: false, side: 'BUY' })).toBe(
        'Not placed: nothing was bought or sold. Request a new quote to try again.',
      );
    }
  });

  test('a bet whose fate is not known is never offered a retry', () => {
    const note = (checking: boolean) =>
      placeNote({ block: { kind: 'not-known', checking }, oneClick: true, side: 'BUY' });
    expect(note(true)).toMatch(/^Checking… /);
    expect(note(false)).toMatch(/^Not known yet: see Orders when Betdesk is back\. /);
    expect(`${note(true)} ${note(false)}`).not.toMatch(/again|retry/i);
  });

  test('says what pressing it will do', () => {
    expect(placeNote({ block: null, oneClick: true, side: 'SELL' })).toMatch(/^One-click/);
    expect(placeNote({ block: null, oneClick: false, side: 'SELL' })).toMatch(/the proceeds/);
    expect(placeNote({ block: null, oneClick: false, side: 'BUY' })).toMatch(/the knockout/);
  });
});

describe('advice after a failed placement', () => {
  test('depends on what failed', () => {
    const f = { retryInSeconds: 0, orderKnown: false, lost: null };
    expect(failureAdvice({ ...f, kind: 'offline' })).toMatch(/^Nothing was sent/);
    expect(failureAdvice({ ...f, kind: 'rate-limited', retryInSeconds: 3 })).toBe(
      'You can try again in 3 s.',
    );
    expect(failureAdvice({ ...f, kind: 'rate-limited' })).toBe('You can try again now.');
    expect(failureAdvice({ ...f, kind: 'internal' })).toMatch(/^Place again to retry/);
    expect(failureAdvice({ ...f, kind: 'internal', orderKnown: true })).toBeNull();
    expect(failureAdvice({ ...f, kind: 'exchange' })).toBeNull();
  });

  test('a lost answer whose bet is not known yet is never advised a retry', () => {
    const f = { retryInSeconds: 0, orderKnown: false, kind: 'internal' } as const;
    expect(failureAdvice({ ...f, lost: 'checking' })).toMatch(/^Checking… /);
    expect(failureAdvice({ ...f, lost: 'unknown' })).toBe(
      'Not known yet: see Orders when Betdesk is back.',
    );
  });
});
