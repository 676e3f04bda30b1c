import { describe, expect, it } from 'vitest';
import * as contract from '@kanak/contract';
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

describe('words a jeweller reads', () => {
  /** Every text the contract holds for screens and answers, functions called with sample values. */
  function allTexts(): string[] {
    const texts: string[] = [];
    const walk = (value: unknown, depth: number) => {
      if (typeof value === 'string') texts.push(value);
      else if (typeof value === 'function') {
        for (const sample of [1, 3, '1']) {
          try {
            walk((value as (...args: unknown[]) => unknown)(sample, sample, sample), depth);
          } catch {
            // A text of other arguments: the samples that fit say it.
          }
        }
      } else if (value && typeof value === 'object' && depth < 4)
        for (const child of Object.values(value)) walk(child, depth + 1);
    };
    for (const [name, value] of Object.entries(contract))
      if (/(TEXTS|MESSAGES|LABELS|TITLES)$/.test(name)) walk(value, 0);
    return texts;
  }

  it('names no setting of the server, HTTP status or "server settings" on any screen', () => {
    const texts = allTexts();
    expect(texts.length).toBeGreaterThan(500);
    expect(
      texts.filter((text) => /\b[A-Z]+(_[A-Z0-9]+)+\b|HTTP status|server settings/.test(text)),
    ).toEqual([]);
  });

  it('names each messaging panel with its provider, the spec\'s "Panel 1" first', () => {
    expect(contract.MESSAGING_TEXTS.panelOption(1)).toBe('Panel 1 — UltraMsg');
    expect(contract.MESSAGING_TEXTS.panelOption(2)).toBe('Panel 2 — Green API');
    expect(contract.MESSAGING_TEXTS.panelOption(3)).toBe("Panel 3 — your reseller's panel");
  });

  it("calls the customer's consents page by what it is about: what the shop may send on WhatsApp", () => {
    expect(contract.PORTAL_TEXTS.consents.title).toBe('What the shop may send me on WhatsApp');
    expect(contract.PORTAL_TEXTS.home.consents).toBe(contract.PORTAL_TEXTS.consents.title);
  });
});
