/** Issue 27 item 13: the method's sentence ends with one full stop, never "..". */
import { expect, test } from 'vitest';
import { methodSentence } from '../../../src/renderer/src/lib/history-words.js';

test('the method text gets one full stop, whether main ended its words or not', () => {
  expect(methodSentence('Oldest contracts first.')).toBe('Method: Oldest contracts first.');
  expect(methodSentence('oldest contracts first')).toBe('Method: oldest contracts first.');
  expect(methodSentence('held to the end? ')).toBe('Method: held to the end?');
});
