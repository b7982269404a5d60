import { describe, expect, test } from 'vitest';
import { readSize, separatorsOf } from '../../../src/renderer/src/lib/size-input.js';

const en = separatorsOf('en-US');
const de = separatorsOf('de-DE');
const fr = separatorsOf('fr-FR');

const qty = (text: string, unit: 'BASE' | 'QUOTE' = 'BASE', seps = en) => {
  const r = readSize(text, unit, seps);
  return r?.ok ? r.qty : r;
};
const problem = (text: string, unit: 'BASE' | 'QUOTE' = 'BASE', seps = en) => {
  const r = readSize(text, unit, seps);
  return r && !r.ok ? r.problem : r;
};

describe('a size as a person types it', () => {
  test('what can mean one number only is taken, and written as the API takes it', () => {
    expect(qty('00012')).toBe('12');
    expect(qty('12,000')).toBe('12000');
    expect(qty('1 000')).toBe('1000');
    expect(qty('1\u00a0000\u202f000')).toBe('1000000');
    expect(qty('.5', 'QUOTE')).toBe('0.5');
    expect(qty('5.', 'QUOTE')).toBe('5');
    expect(qty('5.')).toBe('5');
    expect(qty('12.50', 'QUOTE')).toBe('12.5');
    expect(qty('$25', 'QUOTE')).toBe('25');
    expect(qty(' 7 ')).toBe('7');
  });

  test('digits of other scripts are read as the digits they are', () => {
    expect(qty('１２')).toBe('12'); // full-width
    expect(qty('١٢')).toBe('12'); // Arabic-Indic
    expect(qty('۱۲')).toBe('12'); // extended Arabic-Indic
    expect(qty('१२')).toBe('12'); // Devanagari
    expect(qty('٥٫٥', 'QUOTE')).toBe('5.5'); // Arabic decimal separator
  });

  test('the decimal point and the groups are the user’s locale’s', () => {
    expect(qty('12.000', 'BASE', de)).toBe('12000');
    expect(qty('12,50', 'QUOTE', de)).toBe('12.5');
    expect(qty('1 000,25', 'QUOTE', fr)).toBe('1000.25');
    expect(problem('12.50', 'QUOTE', de)).toMatch(/^Unclear number: use “,” for the decimal point/);
  });

  test('what could mean two numbers, or none, is named, not guessed', () => {
    expect(problem('1,5')).toMatch(/^Unclear number: use “\.” for the decimal point/);
    expect(problem('1.000.000')).toMatch(/^Unclear number/);
    expect(problem('12,00')).toMatch(/^Unclear number/);
    expect(problem('abc')).toBe('Enter a number, like 25.');
    expect(problem('1e9')).toBe(
      'Write the number out in full, without an exponent (“e”): like 25.',
    );
    expect(problem('-3')).toBe('A size cannot be negative: enter more than zero.');
    expect(problem('0')).toBe('Enter more than zero.');
    expect(problem('0.00', 'QUOTE')).toBe('Enter more than zero.');
  });

  test('contracts are whole, dollars go to the cent: the nearest choices are offered', () => {
    expect(problem('2.5')).toBe('Whole contracts only: enter 2 or 3.');
    expect(problem('.5')).toBe('Whole contracts only: enter 1.');
    expect(problem('5.555', 'QUOTE')).toBe('Dollars go to the cent: enter 5.55 or 5.56.');
    expect(qty('5.550', 'QUOTE')).toBe('5.55');
  });

  test('a size longer than the API takes is named, never cut', () => {
    expect(qty('9'.repeat(40))).toBe('9'.repeat(40));
    expect(problem('9'.repeat(41))).toBe('Too large: the most is 40 digits.');
  });

  test('nothing typed is no problem yet; a rewritten size says so', () => {
    expect(readSize('  ', 'BASE', en)).toBeNull();
    expect(readSize('25', 'BASE', en)).toEqual({ ok: true, qty: '25', rewritten: false });
    expect(readSize('00025', 'BASE', en)).toEqual({ ok: true, qty: '25', rewritten: true });
    expect(readSize('２５', 'BASE', en)).toEqual({ ok: true, qty: '25', rewritten: true });
  });
});
