/**
 * Imported first by main.tsx and built as a chunk of its own (vite.config.ts), so it runs before the entry chunk's
 * own code, which holds zod and the contracts: the server's Content-Security-Policy has no 'unsafe-eval'
 * (src/server/core/guards.ts), and zod probes `new Function` when it builds an object schema unless `jitless` is set —
 * the browser reports the probe as a policy violation even though zod catches the refusal. zod reads its config from
 * this global.
 * The contracts are written with zod/mini, whose object schemas never compile code; the switch stays so that a schema
 * of classic zod reaching the dashboard cannot bring the probe back.
 */
const zodGlobal = globalThis as { __zod_globalConfig?: Record<string, unknown> }
zodGlobal.__zod_globalConfig = { ...zodGlobal.__zod_globalConfig, jitless: true }

export {}
