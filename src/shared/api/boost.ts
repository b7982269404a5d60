/**
 * The boost's loan as the exchange publishes it (GET /docs, "Opening (BUY) and boost";
 * docs/sandbox.md, "Pricing in short"): for boost b (0 to 100) the collateral per contract is
 * c = entryPrice × (1 − 0.009 × b), and the exchange lends entryPrice − c. One definition for the
 * sandbox's pricing and the app's lots (src/shared/rules/lots.ts).
 */
export const BOOST_LOAN_PER_POINT = '0.009';
