import { describe, expect, it } from 'vitest';
import { AUDIT_HIDDEN } from '@kanak/contract';
import { redactAuditValues } from './audit.js';

describe('redactAuditValues', () => {
  it('hides an Aadhaar number however it is written or labelled, but not digits inside an identifier', () => {
    expect(
      redactAuditValues({
        note: '1234 5678 9012',
        remark: 'Aadhaar:123456789012.',
        path: 'img_980bf2ae0c70a499626615260b7ba906',
        receipt: 'MAIN-000123',
      }),
    ).toEqual({
      note: AUDIT_HIDDEN,
      remark: AUDIT_HIDDEN,
      path: 'img_980bf2ae0c70a499626615260b7ba906',
      receipt: 'MAIN-000123',
    });
  });
});
