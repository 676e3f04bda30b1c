import { describe, expect, it } from 'vitest';
import { DEFAULT_GRACE_DAYS } from '../limits.js';
import {
  graceDaysOf,
  installmentMonth,
  installmentNumber,
  mayClose,
  monthDueOn,
  nextOfferedMonth,
  nextPayableMonth,
  overdueCutoff,
  overdueFrom,
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

describe('the next installment the rules offer', () => {
  it('the one payable today, when there is one', () => {
    expect(nextOfferedMonth(running, ['2026-10'], '2026-11-29')).toEqual({
      month: '2026-11',
      payableToday: true,
    });
  });

  it('with this month and the next paid, the month after, from its first day', () => {
    expect(nextOfferedMonth(running, ['2026-11', '2026-12'], '2026-11-29')).toEqual({
      month: '2027-01',
      payableToday: false,
    });
  });

  it('none past the term, nor for a scheme that takes no more', () => {
    const lastMonths = ['2027-02', '2027-03'];
    expect(nextOfferedMonth(running, lastMonths, '2027-02-10')).toBeNull();
    expect(nextOfferedMonth({ ...running, paid: 11 }, [], '2026-11-29')).toBeNull();
    expect(nextOfferedMonth({ ...running, active: false }, [], '2026-11-29')).toBeNull();
  });

  it('is numbered by its place among those paid, whatever its month', () => {
    expect(installmentNumber(['2026-09', '2026-11'].length)).toBe(3);
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

  it('one grace per plan judges overdue too; the standard scheme has the default', () => {
    expect(graceDaysOf(undefined)).toBe(DEFAULT_GRACE_DAYS);
    expect(graceDaysOf({ graceDays: 15 })).toBe(15);
    expect(graceDaysOf({ graceDays: 0 })).toBe(0);
    const dueOn = monthDueOn('2026-01-31', '2026-02');
    expect(dueOn).toBe('2026-02-28');
    expect(overdueFrom(dueOn, 15)).toBe('2026-03-15');
    expect(overdueFrom(dueOn, 3)).toBe('2026-03-03');
    expect(overdueFrom(dueOn, 0)).toBe(dueOn);
    expect(overdueCutoff('2026-03-15', 15)).toBe(dueOn);
    expect(paidLate('2026-01-31', '2026-02', '2026-03-15', 15)).toBe(false);
    expect(paidLate('2026-01-31', '2026-02', '2026-03-16', 15)).toBe(true);
  });

  it('closes once every installment is paid or maturity has passed', () => {
    expect(mayClose(running, '2027-03-09')).toBe(false);
    expect(mayClose(running, '2027-03-10')).toBe(true);
    expect(mayClose({ ...running, paid: 11 }, '2026-11-29')).toBe(true);
    expect(mayClose({ ...running, paid: 11, active: false }, '2026-11-29')).toBe(false);
  });
});
