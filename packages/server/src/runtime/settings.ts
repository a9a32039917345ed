import { eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { connections, customContents, systemState } from '../db/schema/index.js';
import { runtimeDefaults } from './defaults.js';

/** What the runtime reads of system setup (DESIGN 1.6): iframe and CORS origins, session lifetime. */
export interface RuntimeSettings {
  iframeDomains: string[];
  corsDomains: string[];
  /** Seconds. */
  sessionLifetime: number;
  /** Every origin a client lists in `allowedCorsOrigins`, for preflights (the client is not known yet). */
  clientCorsOrigins: Set<string>;
  /** Custom view contents by name: the content and the language it is written in (null: any). */
  contents: Map<string, { content: string; languageCode: string | null }>;
}

type SettingsContext = Pick<AppContext, 'db'>;

const cache = new WeakMap<SettingsContext, { at: number; value: Promise<RuntimeSettings> }>();

/**
 * The settings, read from the database and trusted for `settingsCacheMs`, so that a change made through any
 * instance applies everywhere within seconds while a busy endpoint does not query them per request.
 */
export function runtimeSettings(ctx: SettingsContext, now = Date.now()): Promise<RuntimeSettings> {
  const cached = cache.get(ctx);
  if (cached && now - cached.at < runtimeDefaults.settingsCacheMs) return cached.value;
  const value = readSettings(ctx);
  cache.set(ctx, { at: now, value });
  value.catch(() => cache.delete(ctx));
  return value;
}

/** Forgets the cached settings (tests, and writes made by this instance). */
export function forgetRuntimeSettings(ctx: SettingsContext): void {
  cache.delete(ctx);
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

async function readSettings(ctx: SettingsContext): Promise<RuntimeSettings> {
  const [setup] = await ctx.db
    .select({ value: systemState.value })
    .from(systemState)
    .where(eq(systemState.key, 'systemSetup'));
  const value = (setup?.value ?? {}) as Record<string, unknown>;
  const lifetime = value.sessionLifetime;
  const origins = await ctx.db
    .select({ origins: sql<unknown>`${connections.configuration}->'allowedCorsOrigins'` })
    .from(connections)
    .where(sql`${connections.pluginType} = 'OAuth20' and ${connections.enabled}`);
  const contents = await ctx.db.select({ name: customContents.name, data: customContents.data }).from(customContents);
  return {
    iframeDomains: strings(value.iframeDomains).map(origin),
    corsDomains: strings(value.corsDomains).map(origin),
    sessionLifetime:
      typeof lifetime === 'number' && Number.isInteger(lifetime) && lifetime > 0
        ? lifetime
        : runtimeDefaults.sessionLifetime,
    clientCorsOrigins: new Set(origins.flatMap((row) => strings(row.origins).map(origin))),
    contents: new Map(
      contents
        .filter((row) => typeof row.data.content === 'string' && row.data.content !== '')
        .map((row) => [
          row.name.toLowerCase(),
          {
            content: row.data.content as string,
            languageCode: typeof row.data.languageCode === 'string' ? row.data.languageCode : null,
          },
        ]),
    ),
  };
}

/** An origin in canonical form (lower-case scheme and host, default port dropped); the text itself otherwise. */
export function origin(text: string): string {
  try {
    const url = new URL(text.trim());
    return url.origin === 'null' ? text.trim() : url.origin;
  } catch {
    return text.trim();
  }
}
