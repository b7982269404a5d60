/** Guardians: exit rules that close a position by themselves (docs/guardians.md). */
export { GuardBook, type GuardBookOptions, type GuardViewContext } from './book.js';
export { guardsFeature, type GuardChannel, type GuardsContext } from './feature.js';
export { Guardian, type GuardFeed, type GuardianOptions } from './guardian.js';
