import type { AuthenticationConnection } from '../authentication-connections.js';
import type { FlowContext } from '../authorize/flow.js';
import { TemporarilyUnavailable } from '../oauth-errors.js';
import { logUpstreamError } from '../oauth-log.js';
import { UpstreamError } from './provider.js';

/**
 * The connection's upstream provider, read by `load` before the browser is sent to it. When it cannot be used (its
 * configuration, certificates or discovery document), the failure is logged as event 4111 and the client gets
 * temporarily_unavailable.
 */
export async function usableProvider<P>(
  flow: Pick<FlowContext, 'ctx' | 'c'>,
  connection: AuthenticationConnection,
  load: () => Promise<P>,
): Promise<P> {
  try {
    return await load();
  } catch (error) {
    const upstream = error instanceof UpstreamError ? error : new UpstreamError('server_error', String(error));
    const { ctx, c } = flow;
    logUpstreamError(ctx, c, { error: upstream.error, description: upstream.description, connection: connection.name });
    throw new TemporarilyUnavailable(`the identity provider ${connection.name} cannot be used`);
  }
}
