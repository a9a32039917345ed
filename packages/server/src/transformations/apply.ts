import type { ClaimValue, Transformation } from '@idsvc/shared';
import { defaultLimits, runScript, type SandboxLimits, ScriptError } from './sandbox.js';

export interface ApplyOptions {
  /** The user has an account here (a local store entry); drives the two "does not apply to" conditions. */
  registeredUser: boolean;
  /**
   * When given, only the transformations of that phase run: true before the claims of the local store are loaded
   * (`executeBeforeLoadingClaimsFromLocalStore`), false after. When absent, every transformation runs.
   */
  beforeLoadingClaimsFromLocalStore?: boolean;
  /** Limits of each script run (default: the sandbox's). */
  limits?: SandboxLimits;
}

/** A Script transformation failed; the claims are not released. */
export class TransformationError extends Error {
  readonly transformationName: string;
  override readonly cause: ScriptError;

  constructor(transformationName: string, cause: ScriptError) {
    super(`claim transformation ${transformationName}: ${cause.message}`);
    this.name = 'TransformationError';
    this.transformationName = transformationName;
    this.cause = cause;
  }
}

/** Whether the transformation applies to this user and phase. */
export function applies(transformation: Transformation, options: ApplyOptions): boolean {
  if (options.registeredUser && transformation.conditionNotApplyToRegisteredUsers) return false;
  if (!options.registeredUser && transformation.conditionNotApplyToUnregisteredUsers) return false;
  const phase = options.beforeLoadingClaimsFromLocalStore;
  return phase === undefined || phase === transformation.executeBeforeLoadingClaimsFromLocalStore;
}

/**
 * Applies claim transformations in order to a claim list and answers the resulting list (the input is not changed).
 * ExcludedPassThroughClaims and ExcludedServiceClaims drop the claims whose type (any case) is in their rule list;
 * Script runs the script's `transform(claims, context)` in the sandbox, with the context
 * `{ registeredUser, transformationName, cultureCode }`. `conditionExpression` is kept with a transformation but not
 * evaluated here. A failing script throws a TransformationError.
 */
export async function applyTransformations(
  claims: readonly ClaimValue[],
  transformations: readonly Transformation[],
  options: ApplyOptions,
): Promise<ClaimValue[]> {
  let current = claims.map(({ type, value }) => ({ type, value }));
  for (const transformation of transformations) {
    if (!applies(transformation, options)) continue;
    if (transformation.type === 'Script') {
      if (!transformation.script?.trim()) continue;
      const context = {
        registeredUser: options.registeredUser,
        transformationName: transformation.name,
        cultureCode: transformation.cultureCode,
      };
      try {
        current = await runScript(transformation.script, current, context, options.limits ?? defaultLimits);
      } catch (error) {
        if (error instanceof ScriptError) throw new TransformationError(transformation.name, error);
        throw error;
      }
      continue;
    }
    const excluded = new Set(transformation.claimTypes.map((type) => type.toLowerCase()));
    current = current.filter((claim) => !excluded.has(claim.type.toLowerCase()));
  }
  return current;
}
