import { describe, expect, it } from 'vitest';
import { AUDIT_TEXTS, DELIVERY_LOG_TEXTS, formatRupees } from '@kanak/contract';

describe('small words', () => {
  it('writes a negative amount as −₹100 (a cancelled redemption), never ₹-100', () => {
    expect(formatRupees(-100)).toBe('−₹100');
    expect(formatRupees(-1234.5)).toBe('−₹1,234.50');
    expect(formatRupees(100)).toBe('₹100');
  });

  it('counts one notice and one change in the singular', () => {
    expect(DELIVERY_LOG_TEXTS.pageOf(1, 1, 1)).toBe('Page 1 of 1 · 1 notice');
    expect(DELIVERY_LOG_TEXTS.pageOf(1, 1, 1250)).toBe('Page 1 of 1 · 1,250 notices');
    expect(AUDIT_TEXTS.pageOf(1, 1, 1, false)).toBe('Page 1 of 1 · 1 change');
  });
});
