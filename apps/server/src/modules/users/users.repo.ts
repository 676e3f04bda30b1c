import { and, asc, eq, isNull, notExists, sql } from 'drizzle-orm';
import type { Role } from '@kanak/contract';
import { statementName, type Db, type Tx } from '../../db/client.js';
import { endedSessions, users } from '../../db/schema.js';

export type UserRow = typeof users.$inferSelect;

const byUsername = (username: string) => eq(sql`lower(${users.username})`, username.toLowerCase());

export const usersRepo = {
  async findByUsername(tx: Tx, username: string, options: { forUpdate?: boolean } = {}) {
    const query = tx.select().from(users).where(byUsername(username));
    const [row] = options.forUpdate ? await query.for('update') : await query;
    return row;
  },

  /**
   * The user behind a session token, unless Logout ended the token. Prepared, because it runs
   * on every request: built once, parsed and planned once per connection. A token without
   * `jti` (signed before Logout ended tokens) is looked up with '', which no ended token has.
   */
  prepareFindUnlessEnded(db: Db, prepared: boolean) {
    const ended = db
      .select({ one: sql`1` })
      .from(endedSessions)
      .where(eq(endedSessions.jti, sql.placeholder('jti')));
    return db
      .select()
      .from(users)
      .where(and(eq(users.id, sql.placeholder('id')), notExists(ended)))
      .prepare(statementName('session_user', prepared));
  },

  async insert(
    tx: Tx,
    values: {
      username: string;
      passwordHash: string;
      role: Role;
      branchId: number;
      name?: string;
      mustChangePassword?: boolean;
    },
  ) {
    const [row] = await tx.insert(users).values(values).returning();
    return row!;
  },

  /**
   * Name, role and branch; a new role or branch ends the account's sessions, so that it
   * applies at once.
   */
  async update(tx: Tx, id: number, values: { name: string; role: Role; branchId: number }) {
    await tx
      .update(users)
      .set({
        ...values,
        tokenVersion: sql`${users.tokenVersion} + CASE WHEN ${users.role} = ${values.role} AND ${users.branchId} = ${values.branchId} THEN 0 ELSE 1 END`,
        updatedAt: sql`now()`,
      })
      .where(eq(users.id, id));
  },

  async enable(tx: Tx, id: number) {
    await tx
      .update(users)
      .set({ disabledAt: null, updatedAt: sql`now()` })
      .where(eq(users.id, id));
  },

  /**
   * The active owners, locked: of two changes that would each leave one owner, the second
   * waits for the first and then counts without it.
   */
  async lockActiveOwners(tx: Tx) {
    return tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, 'owner'), isNull(users.disabledAt)))
      .orderBy(asc(users.id))
      .for('update');
  },

  /** New password; the bumped token version ends every other session. */
  async setPassword(tx: Tx, id: number, passwordHash: string, mustChangePassword = false) {
    const [row] = await tx
      .update(users)
      .set({
        passwordHash,
        mustChangePassword,
        tokenVersion: sql`${users.tokenVersion} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(users.id, id))
      .returning();
    return row!;
  },

  async disable(tx: Tx, id: number) {
    await tx
      .update(users)
      .set({
        disabledAt: sql`now()`,
        tokenVersion: sql`${users.tokenVersion} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(users.id, id));
  },

  /** Stamps the staff member's latest change, once it is committed (see `lastChangeAt`). */
  async noteChange(tx: Tx, id: number) {
    await tx
      .update(users)
      .set({ lastChangeAt: sql`now()` })
      .where(eq(users.id, id));
  },

  async list(tx: Tx) {
    return tx.select().from(users).orderBy(asc(users.username));
  },

  async count(tx: Tx) {
    const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(users);
    return row?.n ?? 0;
  },
};
