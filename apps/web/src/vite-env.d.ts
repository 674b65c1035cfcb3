/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base URL of the API; '' (default) = same origin, the server that serves this app. */
  readonly VITE_API_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

/** The theme's CSS variables, computed at build time (build/themeCss.ts). */
declare module 'virtual:portal-theme-css' {
  const css: string;
  export default css;
}
