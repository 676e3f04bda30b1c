/**
 * The customer's own calls from their phone: `GET /api/member/me` and a scheme's passbook, each
 * beside the same reads through `pg`. 100 customers with an active scheme get a member session
 * for the run (a row of `member_sessions` and a token signed as the server signs one), taken
 * back after it.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { createSigner } from 'fast-jwt';
import type pg from 'pg';
import { API_PREFIX, MEMBER_API_PATHS, MEMBER_LIMITS, addDays } from '@kanak/contract';
import type { Scenario } from './measure.js';

export interface BenchMember {
  customerId: number;
  schemeid: number;
  jti: string;
  token: string;
}

const pick = <T>(list: T[], n: number) => list[n % list.length]!;

/** The customers, their sessions and tokens; the scenarios' settings insert and remove them. */
export async function benchMembers(pool: pg.Pool, jwtSecret: string): Promise<BenchMember[]> {
  const { rows } = await pool.query<{ customer_id: number; id: number }>(
    `SELECT DISTINCT ON (customer_id) customer_id, id FROM schemes
      WHERE status = 'a' AND paid >= 3 ORDER BY customer_id LIMIT 100`,
  );
  // The members' key, drawn from the staff's as the server draws it (plugins/auth.ts).
  const sign = createSigner({
    key: createHmac('sha256', jwtSecret).update('member-tokens').digest('hex'),
    aud: 'kanak-member',
    expiresIn: MEMBER_LIMITS.sessionLifetimeSeconds * 1000,
  });
  return rows.map((row) => {
    const jti = randomUUID();
    return {
      customerId: row.customer_id,
      schemeid: row.id,
      jti,
      token: sign({ sub: `c${row.customer_id}`, jti }),
    };
  });
}

export function memberScenarios(members: BenchMember[], today: string): Scenario[] {
  const values = members.map((m) => `('${m.jti}', ${m.customerId}, now() + interval '1 day')`);
  const settings = {
    apply: `INSERT INTO member_sessions (jti, customer_id, expires_at) VALUES ${values.join(',')}`,
    undo: `DELETE FROM member_sessions WHERE jti IN (${members.map((m) => `'${m.jti}'`).join(',')})`,
  };
  const as = (member: BenchMember) => ({ authorization: `Bearer ${member.token}` });
  return [
    {
      name: 'memberMe',
      settings,
      call: (n) => {
        const member = pick(members, n);
        return { method: 'GET', path: API_PREFIX + MEMBER_API_PATHS.memberMe, headers: as(member) };
      },
      async raw(client, n) {
        const member = pick(members, n);
        await rawSession(client, member);
        const id = member.customerId;
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        await client.query(
          `SELECT c.*, a.balance FROM customers c JOIN points_accounts a ON a.customer_id = c.id
            WHERE c.id = $1`,
          [id],
        );
        await client.query(
          `SELECT * FROM points_rules WHERE valid_from <= now() ORDER BY valid_from DESC, id DESC LIMIT 1`,
        );
        await client.query(
          `SELECT coalesce(sum(remaining), 0) FROM points_lots
            WHERE customer_id = $1 AND remaining > 0 AND expires_on >= $2 AND expires_on <= $3`,
          [id, today, addDays(today, 30)],
        );
        await client.query(
          `SELECT * FROM tier_settings WHERE valid_from <= now() ORDER BY valid_from DESC, id DESC LIMIT 1`,
        );
        await client.query(
          `SELECT remaining, expires_on FROM points_lots WHERE customer_id = $1 AND remaining > 0
            ORDER BY expires_on ASC NULLS LAST, id`,
          [id],
        );
        // The schemes with their plans and installments: the months paid, which the pay rule
        // and the maturity figures read, and a weight plan's gold.
        await client.query(
          `SELECT * FROM schemes s
             LEFT JOIN scheme_plans p ON p.id = s.plan_id
             LEFT JOIN scheme_installments i ON i.scheme_id = s.id
            WHERE s.customer_id = $1 AND s.status <> 'x'
            ORDER BY s.id DESC, i.paid_on, i.id`,
          [id],
        );
        await client.query(
          `SELECT * FROM customer_consents WHERE customer_id = $1 ORDER BY id DESC`,
          [id],
        );
        await client.query('COMMIT');
      },
    },
    {
      name: 'memberPassbook',
      settings,
      call: (n) => {
        const member = pick(members, n);
        return {
          method: 'GET',
          path:
            API_PREFIX +
            MEMBER_API_PATHS.memberScheme.replace(':schemeid', String(member.schemeid)),
          headers: as(member),
        };
      },
      async raw(client, n) {
        const member = pick(members, n);
        await rawSession(client, member);
        await client.query('SELECT * FROM schemes WHERE id = $1', [member.schemeid]);
        await client.query(
          'SELECT * FROM scheme_installments WHERE scheme_id = $1 ORDER BY paid_on, id',
          [member.schemeid],
        );
      },
    },
  ];
}

/** The member session's check, as every member request makes it. */
function rawSession(client: pg.PoolClient, member: BenchMember) {
  return client.query(
    `SELECT s.customer_id FROM member_sessions s JOIN customers c ON c.id = s.customer_id
      WHERE s.jti = $1 AND s.ended_at IS NULL AND s.expires_at > now() AND c.erased_at IS NULL`,
    [member.jti],
  );
}
