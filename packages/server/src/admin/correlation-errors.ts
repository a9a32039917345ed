import { CorrelationError_Get, CorrelationError_GetAll } from '@idsvc/shared';
import { handle } from './handler.js';

export const correlationErrorHandlers = [
  handle(CorrelationError_GetAll, ({ list, services }) => services.correlationErrors.list(list)),
  handle(CorrelationError_Get, ({ params, services }) => services.correlationErrors.get(params.correlationId)),
];
