/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base URL of the API; '' (default) = same origin, the server that serves this app. */
  readonly VITE_API_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
