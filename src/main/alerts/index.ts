/** The knockout watch's public surface (one watch per account, fed by its sync engine). */
export {
  KnockoutWatch,
  type KnockoutAlertEvent,
  type KnockoutSource,
  type KnockoutWatchEvents,
  type KnockoutWatchOptions,
} from './knockout-watch.js';
export {
  DEFAULT_LEVELS,
  DEFAULT_MARGIN,
  knockoutDistance,
  ladder,
  step,
  initialStates,
  type Ladder,
  type LevelState,
} from './distance.js';
export {
  indexDistance,
  movesBoosted,
  readIndex,
  type IndexDistance,
  type IndexReading,
} from './index-price.js';
