import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { ImageType } from '@kanak/contract';
import type { Tx } from '../../db/client.js';
import { appImages } from '../../db/schema.js';

export type ImageValues = Omit<typeof appImages.$inferInsert, 'id' | 'createdAt'>;

/** Everything but the bytes: lists never read image data. */
const recordColumns = {
  id: appImages.id,
  type: appImages.type,
  storageKey: appImages.storageKey,
  mime: appImages.mime,
  sizeBytes: appImages.sizeBytes,
  sha256: appImages.sha256,
};
export type ImageMeta = {
  id: number;
  type: string;
  storageKey: string;
  mime: string;
  sizeBytes: number;
  sha256: string;
};

export const contentRepo = {
  /**
   * Serialises the writers of one type until the transaction ends, so that "count, then
   * insert" cannot be interleaved by a concurrent upload of the same type.
   */
  async lockType(tx: Tx, type: ImageType) {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`app_images:${type}`}))`);
  },

  async countOfType(tx: Tx, type: ImageType) {
    const [row] = await tx.select({ n: count() }).from(appImages).where(eq(appImages.type, type));
    return row?.n ?? 0;
  },

  async insert(tx: Tx, values: ImageValues): Promise<ImageMeta> {
    const [row] = await tx.insert(appImages).values(values).returning(recordColumns);
    return row!;
  },

  /** Newest first; a type or all of them. */
  list(tx: Tx, type?: ImageType): Promise<ImageMeta[]> {
    return tx
      .select(recordColumns)
      .from(appImages)
      .where(type ? eq(appImages.type, type) : undefined)
      .orderBy(desc(appImages.id));
  },

  async findForUpdate(tx: Tx, id: number): Promise<ImageMeta | undefined> {
    const [row] = await tx
      .select(recordColumns)
      .from(appImages)
      .where(eq(appImages.id, id))
      .for('update');
    return row;
  },

  async delete(tx: Tx, id: number, storageKey: string) {
    await tx
      .delete(appImages)
      .where(and(eq(appImages.id, id), eq(appImages.storageKey, storageKey)));
  },

  /** The stored type and digest, without the bytes (for a conditional request). */
  async findMeta(tx: Tx, id: number) {
    const [row] = await tx
      .select({ mime: appImages.mime, sha256: appImages.sha256 })
      .from(appImages)
      .where(eq(appImages.id, id));
    return row;
  },

  async findWithData(tx: Tx, id: number) {
    const [row] = await tx
      .select({ mime: appImages.mime, sha256: appImages.sha256, data: appImages.data })
      .from(appImages)
      .where(eq(appImages.id, id));
    return row;
  },
};
