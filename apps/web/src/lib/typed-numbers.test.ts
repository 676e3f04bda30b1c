import { describe, expect, it } from 'vitest';
import { readTypedNumber, typedDigits } from '@kanak/contract';

describe('numbers as staff type them', () => {
  it('reads Indian and Western grouping, spaces and a leading ₹ or Rs', () => {
    expect(readTypedNumber('2,00,000')).toBe(200_000);
    expect(readTypedNumber('12,34,567')).toBe(1_234_567);
    expect(readTypedNumber('200,000')).toBe(200_000);
    expect(readTypedNumber('1,234,567')).toBe(1_234_567);
    expect(readTypedNumber('7,904')).toBe(7904);
    expect(readTypedNumber('1,000')).toBe(1000);
    expect(readTypedNumber(' ₹ 5,000 ')).toBe(5000);
    expect(readTypedNumber('Rs. 5,000')).toBe(5000);
    expect(readTypedNumber('2 00 000')).toBe(200_000);
    expect(readTypedNumber('7904')).toBe(7904);
  });

  it('keeps paise for the field to judge, and a minus for its rule to refuse', () => {
    expect(readTypedNumber('7,904.50')).toBe(7904.5);
    expect(readTypedNumber('10000.5')).toBe(10000.5);
    expect(readTypedNumber('-50')).toBe(-50);
  });

  it('reads nothing from blank text, letters, or commas no grouping puts there', () => {
    for (const typed of [
      '',
      '   ',
      '₹',
      'abc',
      '12a',
      '7,9,04',
      '79,04',
      ',500',
      '500,',
      '1,0000',
      '1e3',
      '0x1F',
      '1.2.3',
      'NaN',
    ]) {
      expect(readTypedNumber(typed), typed).toBeNaN();
    }
  });

  it('keeps the digits of a digits-only field, grouping left out, and nothing else', () => {
    expect(typedDigits('1,000')).toBe('1000');
    expect(typedDigits('₹ 2,00,000')).toBe('200000');
    expect(typedDigits('')).toBe('');
    expect(typedDigits('12a')).toBeNull();
    expect(typedDigits('5000.50')).toBeNull();
    expect(typedDigits('-5')).toBeNull();
    expect(typedDigits('10,00,000', 7)).toBe('1000000');
    expect(typedDigits('1,00,00,000', 7)).toBeNull();
  });
});
