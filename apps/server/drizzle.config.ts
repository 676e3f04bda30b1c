import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // One file per owning module; db/schema.ts only re-exports them.
  schema: './apps/server/src/db/schema/*.ts',
  out: './apps/server/drizzle',
});
