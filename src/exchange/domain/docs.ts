/**
 * What the sandbox chose where docs/api.md leaves a point open, as markdown: served at GET /docs.
 * The numbers come from the modules that apply them, so the text cannot drift from the code.
 */
import { QUOTE_TTL_MS } from '../../shared/api/limits.js';
import { DEADLINE_WINDOW_MS, TX_DELAY_MAX_MS } from './orders.js';
import {
  BOOST_LOAN_PER_POINT,
  CAPACITY_PER_OUTCOME,
  FEE_RATE,
  HALF_SPREAD,
  IMPACT_HALF_SIZE,
  IMPACT_MAX,
  PRICE_MAX,
  PRICE_MIN,
} from './pricing.js';
import { DEFAULT_LOT_SIZE, DEFAULT_MIN_CONTRACTS, LEAGUES, SEED_FIXTURE_COUNT } from './seed.js';

const leagueRows = LEAGUES.map(
  (l) => `| ${l.league} | ${l.lotSize} | ${l.minContracts} | ${l.teams.join(', ')} |`,
).join('\n');

export const PRICING_DOC = `# Sandbox exchange: pricing model and choices

This sandbox implements the exchange API. Where the API leaves a point open, the sandbox made
the choices below. Amounts in USD have 2 places, prices and percentages 4 places;
all arithmetic is exact decimal arithmetic.

## Fixtures

- ${SEED_FIXTURE_COUNT} generated fixtures across ${LEAGUES.length} leagues. The same \`--seed\` gives
  the same fixtures, teams, index prices and contractIds; kick-off times are spread over the
  coming week relative to the exchange clock when the state was first created. A few seeded
  fixtures are in play (betting closed) or already resolved.
- contractId: \`LEAGUE-HOMEAWAY-XXXX\` (4 hex digits), upper case; lookups are case insensitive.
- Fixture fields: \`contractId, league, homeTeam, awayTeam, startsAt, bettingOpen, status
  (OPEN | CLOSED | RESOLVED), homePrice, awayPrice, winner (once resolved), lotSize, minContracts\`.
- GET /fixtures filters: \`bettingOpen\` (\`true\`/\`false\`), \`league\` (exact, case insensitive),
  \`team\` (home or away abbreviation, case insensitive). Order: kick-off, then contractId.
- Betting stays open past kick-off (in-play) until the fixture is closed or resolved.
- Lot size and minimum bet by league (fixtures created in other leagues: lot size
  ${DEFAULT_LOT_SIZE}, minimum ${DEFAULT_MIN_CONTRACTS}; new fixtures start at index 0.5000):

| league | lotSize | minContracts | teams |
|---|---|---|---|
${leagueRows}

## Prices

- Each fixture has two outcomes, home and away; their index prices sum to 1. Only the control
  API moves the index; trades do not.
- A BUY of n contracts fills at \`index + ${HALF_SPREAD} + impact(n)\` rounded up to 4 places; a SELL
  at \`index − ${HALF_SPREAD} − impact(n)\` rounded down. \`impact(n) = ${IMPACT_MAX} × n / (n + ${IMPACT_HALF_SIZE})\`
  grows with size and stays below ${IMPACT_MAX}. Prices are clamped to [${PRICE_MIN}, ${PRICE_MAX}];
  for index prices between 0.05 and 0.95 the clamp never binds (a BUY fills at or above the
  index, a SELL at or below it). At extreme index prices set through the control API the clamp
  wins over that rule.
- Fee: ${FEE_RATE} × notional (contracts × fill price) on every fill, BUY and SELL.

## Opening (BUY) and boost

- Boost b from 0 to 100. Collateral per contract \`c = entryPrice × (1 − ${BOOST_LOAN_PER_POINT} × b)\`;
  the exchange lends \`entryPrice − c\` per contract.
- \`cost = contracts × c + fee\`, rounded up to the cent.
- \`maxWin = contracts × (1 − entryPrice + c)\`, rounded down (\`contracts\` when unboosted).
- \`knockout = entryPrice − c\`, rounded up to 4 places; absent when b is 0. A boost whose knockout
  would be at or above the current index price is refused with -1102 (field \`boost\`).
- \`exitValue\` = closing the new lot at once: \`contracts × (sellPrice − loan)\` (never below 0)
  minus the sell fee, rounded down; always below \`cost\`.
- Sizing: \`BASE\` rounds qty to the nearest lot (halves up); \`QUOTE\` buys the most whole lots whose
  cost stays within qty. Fewer than \`minContracts\` is refused with -1102 (field \`qty\`).
- Exchange capacity: ${CAPACITY_PER_OUTCOME} contracts per outcome minus the contracts all wallets hold on
  it. A request for more is refused with -1102 whose message names \`qty\` and the capacity.
- The quote's \`knockout\` is the resulting position's (the highest knockout of its lots).

## Closing (SELL)

- qty rounds down to a whole lot and is capped at the position held (selling more quotes the whole
  position). A close has no minimum beyond one lot. \`boost\` (other than 0) and \`QUOTE\` are refused
  on SELL with -1102.
- A close takes contracts from the oldest lots first (FIFO). Each lot returns
  \`contracts × (price − loan)\`, never below 0; the fee comes off the total, and
  \`proceeds = total − fee\` rounded down to the cent. The order's \`cost\` is the fee exactly as
  deducted, not rounded up to the cent: \`${FEE_RATE} × contracts × price\` (at most 6 places),
  or the whole total when that is less (proceeds never go below 0). So \`cost + proceeds\` is the
  total to the cent; \`maxWin\` is "0", and a filled SELL carries \`proceeds\`. A close's quote
  has no \`cost\`.

## Quotes

- \`rfqId\`: 32 hex digits, live ${QUOTE_TTL_MS / 1000} s by the exchange clock (\`expiresAt\` is returned),
  bound to the wallet that asked. Unknown or another wallet's: -2022. Used: -2027 naming the order.
  Lapsed: -2031. Live quotes are not kept in the state file: after a restart an unused live rfqId
  answers -2022 (a lapsed one still -2031).
- A quote prices by exactly the rules an order is placed by, including the state checks (-2019,
  -2029, -2030) and capacity. \`orderType\` does not change it.

## Orders

- \`orderId\`: \`0x\` + 32 hex digits. \`tx\`: \`0x\` + 64 hex digits, empty until
  min(${TX_DELAY_MAX_MS} ms, blockMs / 2) after acceptance. \`deadline\` = acceptance + blockMs + ${DEADLINE_WINDOW_MS} ms.
- Without \`clientOrderId\` and \`rfqId\` the order's \`clientOrderId\` is "". A clientOrderId is spent once
  an order was accepted with it (whatever became of the order); a request refused before
  broadcast (an HTTP error) does not spend it. \`qty\`/\`legs\` with an \`rfqId\` are refused;
  \`marketUnit\` with an \`rfqId\` is ignored (it comes from the quote).
- Every accepted order is \`SUBMITTED\`; after blockMs:
  - MARKET reprices at the current index. A QUOTE-sized MARKET buys the most lots its qty
    still pays for; a MARKET BUY also shrinks to the remaining capacity. Fewer than minContracts
    left: \`REJECTED\` with -2024. A MARKET SELL sells what is still held, capped at its size.
  - FOK fills exactly the quoted contracts at the locked price, or ends \`CANCELED\` (no error) when
    the current fill price is worse than the locked one, the capacity or the holding is no longer
    enough, or (QUOTE) the cost would exceed qty.
  - A fixture closed or resolved before the block: \`CANCELED\`.
  - A SELL that finds nothing held: \`REJECTED\` with -2029. A BUY that finds the opposite outcome
    held: \`REJECTED\` with -2030. A reverted transaction: \`REJECTED\` with -2024.
  - A congested submission answers 202 with \`error\` -5004; the error is removed when the order fills.
- Sandbox fields on orders: \`orderType, marketUnit, qty, boost, proceeds, rfqId, createdAt, updatedAt\`.
- GET /orders: newest first. GET /orders/updates: orders whose \`updatedAt\` is above \`since\`,
  oldest change first. Every change gets a strictly increasing \`updatedAt\` (never behind the
  clock) and every change after a cursor is stamped above it, so following the cursor never
  misses an update.

## Positions

- A position is one wallet's outcome on one fixture, built from lots (one per filled BUY).
- \`entryPrice\`: the fill prices averaged by contracts over the contracts still held; \`costBasis\`:
  what those contracts cost (fees included; a lot partly sold keeps the rest of its cost, pro
  rata). Lots sold or knocked out count in neither. \`estimatedClosingPrice\`: the SELL fill price
  for the whole position now.
- \`value\`: what closing the whole position at \`estimatedClosingPrice\` would pay before the sell's
  fee, lot by lot as a close pays: Σ lots \`contracts × (estimatedClosingPrice − loan)\`, each never
  below 0, rounded down to the cent and at most \`maxPayout\`. A close at that price pays
  \`value\` less its fee (the order's \`cost\`), to the cent.
- \`pnl = value − collateral\`, rounded to the cent, where collateral is what the held lots posted
  (Σ lots \`contracts × c\`, without the buy fee): no fee is in it, and it never loses more than the
  collateral. \`pnlPercent = (value − collateral) / collateral × 100\`, never below −100.
- \`maxPayout\` = Σ lots \`contracts × (1 − loan)\`, rounded down. \`knockout\`: the highest knockout of
  its lots.
- Setting an index price knocks out every boosted lot whose knockout is at or above it; the rest
  of the position stays open. \`knockedOut\` counts the positions that lost at least one lot.

## Settlements

- Rows appear when a position becomes flat, newest first. A position closed by sales gives a
  \`CLOSED\` row (contracts sold, average sell price, pnl = proceeds − entry cost of those contracts);
  lots knocked out give a \`KNOCKED_OUT\` row (contracts knocked out; price: a lot knocked out
  closes at its knockout, whatever index reached it, so the knockouts averaged by contracts over
  every lot knocked out during the position; pnl = − their entry cost). A position that ended
  partly sold and partly knocked out gives both rows, the one of the event that made it flat
  being the newer.
- Resolution settles every held position: a \`SETTLEMENT\` row with the payout — per contract 1 to
  the winner and 0 to the loser, the entry price back on DRAW, less what the exchange lent (never
  below 0), rounded down. Earlier partial sales or knockouts of that position also get their rows,
  stamped with the same moment as the \`SETTLEMENT\` (which is listed first).

## State file

With \`--data FILE\` the whole state lives in that SQLite file (WAL) and is written after every
change; orders still SUBMITTED when the process stopped are processed on restart. API secrets are
not stored in it: they are derived from a master secret in \`FILE.keys\`.
`;
