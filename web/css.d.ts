// Plain CSS files imported for their side effect; esbuild bundles them into one hashed stylesheet.
declare module '*.css';
