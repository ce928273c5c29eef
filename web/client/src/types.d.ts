// types.d.ts — declarations tsc needs for what esbuild bundles: CSS imported for its effect.
declare module '*.css';
