import { describe, expect, it } from 'vitest';
import {
  installmentMonth,
  mayClose,
  nextPayableMonth,
  paidLate,
  payableMonths,
  planMaturity,
  standardMaturity,
  type SchemeStanding,
} from './schemes.js';

const running: SchemeStanding = { active: true, installments: 11, paid: 3, matdt: '2027-03-09' };

describe('the months an installment may be taken for', () => {
  it('this month while unpaid, then the next one in advance, never two ahead', () => {
    expect(nextPayableMonth(running, ['2026-09', '2026-10'], '2026-11-29')).toBe('2026-11');
    expect(nextPayableMonth(running, ['2026-10', '2026-11'], '2026-11-29')).toBe('2026-12');
    expect(nextPayableMonth(running, ['2026-11', '2026-12'], '2026-11-29')).toBeNull();
  });

  it('none once the scheme has matured, is not active or is fully paid', () => {
    expect(nextPayableMonth(running, [], '2027-03-10')).toBeNull();
    expect(nextPayableMonth({ ...running, active: false }, [], '2026-11-29')).toBeNull();
    expect(nextPayableMonth({ ...running, paid: 11 }, [], '2026-11-29')).toBeNull();
  });

  it('no advance into the month after maturity', () => {
    const months = payableMonths(running, ['2027-03'], '2027-03-01');
    expect(months).toMatchObject({ thisMonthPaid: true, mayTakeAdvance: false });
  });
});

describe('the month a payment is for', () => {
  it('names why the month asked cannot take it', () => {
    const paid = ['2026-10', '2026-11'];
    expect(installmentMonth(running.matdt, paid, '2026-11-05', {})).toEqual({
      month: '2026-11',
      refusal: 'monthTaken',
    });
    expect(installmentMonth(running.matdt, ['2026-10'], '2026-11-05', { advance: true })).toEqual({
      month: '2026-12',
      refusal: 'advanceBeforeThisMonth',
    });
    expect(installmentMonth(running.matdt, ['2027-03'], '2027-03-05', { advance: true })).toEqual({
      month: '2027-04',
      refusal: 'advancePastTerm',
    });
    expect(
      installmentMonth(running.matdt, [...paid, '2026-12'], '2026-11-05', { advance: true }),
    ).toEqual({ month: '2026-12', refusal: 'advanceTaken' });
    expect(installmentMonth(running.matdt, paid, '2026-11-05', { advance: true })).toEqual({
      month: '2026-12',
    });
    expect(installmentMonth(running.matdt, paid, '2026-11-05', { month: '2026-09' })).toEqual({
      month: '2026-09',
    });
  });
});

describe('maturity, lateness and closing', () => {
  it('a plan matures a month after its last installment falls due, never past 364 days', () => {
    expect(standardMaturity('2026-01-31')).toBe('2027-01-30');
    expect(planMaturity('2026-01-31', 6)).toBe('2026-07-30');
    expect(planMaturity('2026-01-31', 12)).toBe('2027-01-30');
  });

  it('an installment is late past its own month’s due day and the grace', () => {
    expect(paidLate('2026-01-31', '2026-02', '2026-03-07', 7)).toBe(false);
    expect(paidLate('2026-01-31', '2026-02', '2026-03-08', 7)).toBe(true);
  });

  it('closes once every installment is paid or maturity has passed', () => {
    expect(mayClose(running, '2027-03-09')).toBe(false);
    expect(mayClose(running, '2027-03-10')).toBe(true);
    expect(mayClose({ ...running, paid: 11 }, '2026-11-29')).toBe(true);
    expect(mayClose({ ...running, paid: 11, active: false }, '2026-11-29')).toBe(false);
  });
});
