import { AxiosError, AxiosHeaders } from 'axios';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiRefusal } from './api';
import { appState, resetAppState } from './app-state';
import { reportFailure } from './failure';

const answered = (status: number, data: unknown) => {
  const config = { headers: new AxiosHeaders(), url: '/scheme/close' };
  return new AxiosError('failed', String(status), config, null, {
    status,
    statusText: '',
    headers: {},
    config,
    data,
  });
};
const alerts = () => appState.get().alerts.map(({ type, message }) => [type, message]);

describe('reportFailure', () => {
  beforeEach(() => resetAppState());

  it("a refusal shows the server's words, or the fixed text when it gave none", () => {
    reportFailure(answered(409, { success: false, message: 'Scheme is closed.' }), 'Failed.');
    reportFailure(new ApiRefusal(''), 'Failed.');
    expect(alerts()).toEqual([
      ['error', 'Scheme is closed.'],
      ['error', 'Failed.'],
    ]);
  });

  it("'warn' shows a refusal as a warning", () => {
    reportFailure(new ApiRefusal('No records.'), 'Failed.', 'warn');
    expect(alerts()).toEqual([['warning', 'No records.']]);
  });

  it("'fixed' shows the fixed text for a refusal too", () => {
    reportFailure(new ApiRefusal('Customer not found.'), 'Could not verify the PAN.', 'fixed');
    expect(alerts()).toEqual([['error', 'Could not verify the PAN.']]);
  });

  it('a function takes the refusal (message and status); nothing is alerted', () => {
    const told: unknown[] = [];
    reportFailure(answered(400, { success: false, message: 'PAN is wrong.' }), 'Failed.', (...a) =>
      told.push(a),
    );
    expect(told).toEqual([['PAN is wrong.', 400]]);
    expect(alerts()).toEqual([]);
  });

  it('a call that could not be made shows the fixed text, whatever a refusal would do', () => {
    reportFailure(answered(500, { message: 'boom' }), 'Failed.', () => {
      throw new Error('not a refusal');
    });
    reportFailure(new AxiosError('Network Error'), 'Failed.', 'warn');
    expect(alerts()).toEqual([
      ['error', 'Failed.'],
      ['error', 'Failed.'],
    ]);
  });
});
