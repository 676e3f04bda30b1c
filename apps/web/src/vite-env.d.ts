/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The API base; `/api` on the same origin when unset. */
  readonly VITE_API_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
