/**
 * What the console's bundles get for `zod` (vite.config.ts aliases the bare specifier here): zod,
 * set to validate without compiling first. The CSP allows no eval: zod's compiled validators
 * would probe `new Function` (when a schema is built) and every probe is reported as a violation
 * even though zod catches it. Applying the setting here, before any module that builds a schema
 * runs, keeps zod out of the entry chunk: it loads with the first chunk that needs it, which the
 * login route does not.
 */
import { config } from 'zod/v4';

config({ jitless: true });

export * from 'zod/v4';
export { default } from 'zod/v4';
