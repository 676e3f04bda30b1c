import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';

describe('configuration from the environment', () => {
  it('has defaults for everything', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      dataDir: './data',
      adminUsername: 'admin',
      storeTimezone: 'Asia/Kolkata',
      preparedStatements: true,
    });
    expect(config.branding.companyTagline).toBe('Since 1928');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.reports).toEqual({ databaseUrl: undefined, maxLagSeconds: 30 });
  });

  it('treats an empty value as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', ADMIN_PASSWORD: '' }).databaseUrl).toBeUndefined();
  });

  it.each([
    ['PORT', 'seventy'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/kanak'],
    ['ADMIN_PASSWORD', 'short'],
    ['JWT_SECRET', 'too-short'],
    ['DATA_KEY', 'not-hex'],
    ['STORE_TIMEZONE', 'Mars/Olympus'],
    ['ADMIN_USERNAME', 'has space'],
    ['STOP_TIMEOUT', '0'],
    ['REPORTS_DATABASE_URL', 'replica.example:5432'],
    ['REPORTS_MAX_LAG_SECONDS', '0'],
    ['DATABASE_PREPARED_STATEMENTS', 'no'],
    ['TALLY_TIMEOUT', '0'],
    ['RAZORPAY_TIMEOUT', 'ten'],
  ])('stops on a bad %s with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });
});
