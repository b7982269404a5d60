/** Guardians: exit rules that close a position by themselves (docs/guardians.md). */
export {
  FiresNowRefusal,
  GuardBook,
  DEFAULT_GUARD_LIMITS,
  type GuardBookOptions,
  type GuardViewContext,
  type JudgedRule,
} from './book.js';
export { guardsFeature, type GuardChannel, type GuardsContext } from './feature.js';
export { Guardian, type GuardFeed, type GuardianOptions } from './guardian.js';
export { GUARD_ORDER_PREFIX } from './hand-sells.js';
export { closeSize, type CloseSize } from './close-size.js';
export { judge, step, type GuardFigures, type Judgement } from './judge.js';
export { kindName, ruleText } from './messages.js';
export { checkSpec } from './spec.js';
