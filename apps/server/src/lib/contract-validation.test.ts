import { describe, expect, it } from 'vitest';
import {
  csvCell,
  csvLine,
  financialYearStart,
  isValidAadhaar,
  maskAadhaar,
  passesVerhoeff,
  statementTotals,
  todayIn,
} from '@kanak/contract';

/** The one check digit (0-9) that makes `prefix + digit` pass; Verhoeff has exactly one. */
function verhoeffComplete(prefix: string): string {
  const digits = [...'0123456789'].filter((digit) => passesVerhoeff(prefix + digit));
  if (digits.length !== 1) throw new Error(`${prefix}: ${digits.length} check digits`);
  return prefix + digits[0]!;
}

describe('Verhoeff check (Aadhaar)', () => {
  it('accepts the published examples and refuses their neighbours', () => {
    // Wikipedia's worked example: 236 has check digit 3.
    expect(passesVerhoeff('2363')).toBe(true);
    expect(passesVerhoeff('2364')).toBe(false);
    // The commonly cited valid Aadhaar example.
    expect(passesVerhoeff('234123412346')).toBe(true);
    expect(passesVerhoeff('234123412345')).toBe(false);
  });

  it('has exactly one check digit for every prefix', () => {
    for (const prefix of ['23412341234', '98765432101', '49913456789', '50000000000']) {
      expect(verhoeffComplete(prefix)).toHaveLength(12);
    }
  });

  it('catches every single-digit error and every adjacent transposition', () => {
    for (const prefix of ['23412341234', '98765432101', '71846230519']) {
      const valid = verhoeffComplete(prefix);
      for (let i = 0; i < valid.length; i++) {
        for (const digit of '0123456789') {
          if (digit === valid[i]) continue;
          const typo = valid.slice(0, i) + digit + valid.slice(i + 1);
          expect(passesVerhoeff(typo), typo).toBe(false);
        }
        if (i + 1 < valid.length && valid[i] !== valid[i + 1]) {
          const swapped = valid.slice(0, i) + valid[i + 1] + valid[i] + valid.slice(i + 2);
          expect(passesVerhoeff(swapped), swapped).toBe(false);
        }
      }
    }
  });

  it('takes 12 digits with spaces, not starting with 0 or 1', () => {
    expect(isValidAadhaar('234123412346')).toBe(true);
    expect(isValidAadhaar('2341 2341 2346')).toBe(true);
    expect(isValidAadhaar('23412341234')).toBe(false);
    expect(isValidAadhaar('2341234123467')).toBe(false);
    expect(isValidAadhaar('2341-2341-2346')).toBe(false);
    expect(isValidAadhaar(verhoeffComplete('13412341234'))).toBe(false);
    expect(isValidAadhaar(verhoeffComplete('03412341234'))).toBe(false);
    expect(isValidAadhaar('')).toBe(false);
    expect(maskAadhaar('2346')).toBe('XXXXXXXX2346');
  });
});

describe('csvCell', () => {
  it.each([
    ['=HYPERLINK("http://evil","x")', `"'=HYPERLINK(""http://evil"",""x"")"`],
    ['+91 98765 43210', "'+91 98765 43210"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tcmd', "'\tcmd"],
    ['\r=1', `"'\r=1"`],
    ['Shah, Ramesh', '"Shah, Ramesh"'],
    ['Say "hi"', '"Say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['Plain name', 'Plain name'],
    ['a=b', 'a=b'],
    [null, ''],
    [undefined, ''],
    [42, '42'],
    [-500, '-500'],
  ])('%j -> %s', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it('ends each line with CRLF', () => {
    expect(csvLine(['a', '=b', 'c,d'])).toBe(`a,'=b,"c,d"\r\n`);
  });
});

describe('statementTotals (the spec balance rule)', () => {
  const row = (RCREDIT: number, RDEBIT: number, SALEAMT = 0) => ({ RCREDIT, RDEBIT, SALEAMT });

  it('puts the balance in Credit when credit exceeds debit', () => {
    expect(statementTotals([row(100, 0, 1500.5), row(0, 30)])).toEqual({
      total: { sale: 1500.5, credit: 100, debit: 30 },
      balance: { credit: 70, debit: 0 },
    });
  });

  it('puts it in Debit otherwise, also when both are equal', () => {
    expect(statementTotals([row(10, 0), row(0, 40)]).balance).toEqual({ credit: 0, debit: 30 });
    expect(statementTotals([row(25, 0), row(0, 25)]).balance).toEqual({ credit: 0, debit: 0 });
    expect(statementTotals([]).balance).toEqual({ credit: 0, debit: 0 });
  });
});

describe('dates', () => {
  it('finds the financial year start on either side of 1 April', () => {
    expect(financialYearStart('2026-03-31')).toBe('2025-04-01');
    expect(financialYearStart('2026-04-01')).toBe('2026-04-01');
    expect(financialYearStart('2026-01-15')).toBe('2025-04-01');
    expect(financialYearStart('2025-12-31')).toBe('2025-04-01');
  });

  it('takes "today" in the store time zone', () => {
    const instant = new Date('2026-03-31T19:00:00Z'); // 1 April, 00:30 in Kolkata
    expect(todayIn('Asia/Kolkata', instant)).toBe('2026-04-01');
    expect(todayIn('UTC', instant)).toBe('2026-03-31');
  });
});
