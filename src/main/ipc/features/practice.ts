/** Practice controls; the service refuses them all unless the paper account is active. */
import type { Services } from '../services.js';
import type { FeatureHandlers } from '../handler.js';

export type PracticeHandlers = FeatureHandlers<
  'practice:price' | 'practice:close' | 'practice:resolve' | 'practice:reject'
>;

export function practiceHandlers(s: Services): PracticeHandlers {
  return {
    'practice:price': (input) => s.practice.setPrice(input),
    'practice:close': (input) => s.practice.closeBetting(input),
    'practice:resolve': (input) => s.practice.resolve(input),
    'practice:reject': () => s.practice.rejectNextOrder(),
  };
}
