import type { UserRow } from '../../auth/lockout.js';
import type { OAuthClient } from '../clients.js';
import { type Interaction, newInteraction } from '../interaction.js';

/** Who has signed in so far in an interaction, and how. */
export interface SignInProgress {
  /** The interaction the sign-in belongs to (its kind, request parameters or device user code). */
  interaction: Interaction;
  client: OAuthClient;
  user: UserRow;
  /** The username-and-password connection the user signed in through, by name. */
  connectionName: string;
  amr: string[];
}

/** The interaction of the next step: the request of `from`, the user and the step; a fresh id. */
export function stepInteraction(progress: SignInProgress, step: 'otp' | 'change-password'): Interaction {
  const { interaction } = progress;
  return newInteraction({
    kind: interaction.kind,
    ...(interaction.params ? { params: interaction.params } : {}),
    ...(interaction.userCode !== undefined ? { userCode: interaction.userCode } : {}),
    userId: progress.user.id,
    connectionName: progress.connectionName,
    step,
    amr: progress.amr,
  });
}
