import {
  type License,
  License as LicenseSchema,
  type SessionCleanUpInput,
  type SessionCleanUpResult,
  type SystemSetup,
  type SystemSetupInput,
  sessionDataKinds,
} from '@idsvc/shared';
import type { Db, DbOrTx } from '../db/client.js';
import type { EndedSession } from '../queries/action-tokens.js';
import { deleteSessionData } from '../queries/session-data.js';
import { lockState, readState, type StateRow, stateKeys, writeState } from '../queries/system-state.js';
import { audit } from './audit.js';
import type { WriteContext } from './write-context.js';

/** The stored part of the system setup. */
type SetupValues = Omit<SystemSetup, 'updatedAt'>;

/** The system setup before anyone changed it: no iframe or CORS origins, sessions of eight hours. */
export const defaultSystemSetup: SetupValues = { iframeDomains: [], corsDomains: [], sessionLifetime: 28_800 };

const strings = (value: unknown, fallback: string[]): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : fallback;

function toSystemSetup(row: StateRow | undefined): SystemSetup {
  const stored = (row?.value ?? {}) as Partial<Record<keyof SetupValues, unknown>>;
  return {
    iframeDomains: strings(stored.iframeDomains, defaultSystemSetup.iframeDomains),
    corsDomains: strings(stored.corsDomains, defaultSystemSetup.corsDomains),
    sessionLifetime:
      typeof stored.sessionLifetime === 'number' ? stored.sessionLifetime : defaultSystemSetup.sessionLifetime,
    updatedAt: row ? row.updatedAt.toISOString() : null,
  };
}

/**
 * The system setup as the runtime uses it: origins allowed to frame the pages (`iframeDomains`) and to call the
 * runtime from a browser (`corsDomains`, canonical origins such as `https://app.example.com`), the login session
 * lifetime in seconds. Defaults when it was never set.
 */
export async function readSystemSetup(db: DbOrTx): Promise<SystemSetup> {
  return toSystemSetup(await readState(db, stateKeys.systemSetup));
}

/** The license when none is installed: the full product, for anyone, without end. */
export const defaultLicense: License = {
  product: 'idsvc',
  version: '5.4',
  edition: 'Community',
  licensedTo: null,
  validFrom: null,
  validTo: null,
  maxUsers: null,
  features: [
    'UsernamePassword',
    'OAuth20',
    'OpenIdConnect',
    'DeviceCode',
    'SecondFactor',
    'Federation',
    'RestApi',
    'MultipleInstances',
  ],
};

/** The license: the one kept in system_state under `license` when it is a valid license object, else the default. */
export async function readLicense(db: DbOrTx): Promise<License> {
  const stored = LicenseSchema.safeParse((await readState(db, stateKeys.license))?.value);
  return stored.success ? stored.data : defaultLicense;
}

export interface SystemSetupOptions {
  /**
   * Called with the live sessions a clean-up removed (signing those people out), once it is committed: the clients
   * those sessions signed in to are told (back-channel logout). Must not throw nor wait.
   */
  sessionsEnded?: (ended: EndedSession[]) => void;
}

export function systemSetupService(db: Db, options: SystemSetupOptions = {}) {
  return {
    get: () => readSystemSetup(db),

    /** Changes the given fields; absent fields keep their value. */
    put(input: SystemSetupInput, by: WriteContext): Promise<SystemSetup> {
      return db.transaction(async (tx) => {
        const current = toSystemSetup(await lockState(tx, stateKeys.systemSetup, defaultSystemSetup));
        const next: SetupValues = {
          iframeDomains: input.iframeDomains ?? current.iframeDomains,
          corsDomains: input.corsDomains ?? current.corsDomains,
          sessionLifetime: input.sessionLifetime ?? current.sessionLifetime,
        };
        const row = await writeState(tx, stateKeys.systemSetup, next);
        await audit(tx, {
          ...by,
          operation: 'update',
          entityType: 'systemSetup',
          entityKey: 'systemSetup',
          changes: input,
        });
        return toSystemSetup(row);
      });
    },

    license: () => readLicense(db),

    /** Removes the asked kinds of session data (every kind when none is named); the count per kind. */
    async cleanUpSessionData(input: SessionCleanUpInput, by: WriteContext): Promise<SessionCleanUpResult> {
      const kinds = [...new Set(input.kinds ?? sessionDataKinds)];
      const scope = {
        expiredOnly: input.expiredOnly,
        olderThan: input.olderThan ? new Date(input.olderThan) : undefined,
      };
      const ended: EndedSession[] = [];
      const done = await db.transaction(async (tx) => {
        const result: SessionCleanUpResult = {};
        for (const kind of kinds) {
          const removed = await deleteSessionData(tx, kind, scope);
          result[kind] = removed.count;
          ended.push(...removed.live);
        }
        await audit(tx, {
          ...by,
          operation: 'delete',
          entityType: 'sessionData',
          entityKey: kinds.join(','),
          // As text: the audit trail masks fields named like secrets (`refreshTokens`).
          changes: { ...input, removed: kinds.map((kind) => `${kind}: ${result[kind]}`) },
        });
        return result;
      });
      if (ended.length > 0) options.sessionsEnded?.(ended);
      return done;
    },
  };
}

export type SystemSetupService = ReturnType<typeof systemSetupService>;
