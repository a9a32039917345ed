import {
  Transformations_DeleteClaimTransformation,
  Transformations_DeleteExcludePassthroughTransformationOptions,
  Transformations_DeleteExcludeServiceTransformationOptions,
  Transformations_GetAllFilter,
  Transformations_GetClaimTransformation,
  Transformations_PostClaimTransformation,
  Transformations_PostScriptTesting,
  Transformations_PutClaimTransformation,
  Transformations_PutExcludePassThroughTransformationOptions,
  Transformations_PutExcludeServiceTransformationOptions,
} from '@idsvc/shared';
import { handle } from './handler.js';

export const transformationHandlers = [
  handle(Transformations_GetAllFilter, ({ list, services }) => services.transformations.list(list)),
  handle(Transformations_GetClaimTransformation, ({ params, services }) =>
    services.transformations.get(params.claimTransformationName),
  ),
  handle(Transformations_PostClaimTransformation, ({ body, services, by }) =>
    services.transformations.create(body, by),
  ),
  handle(Transformations_PutClaimTransformation, ({ body, services, by }) => services.transformations.update(body, by)),
  handle(Transformations_DeleteClaimTransformation, ({ params, services, by }) =>
    services.transformations.delete(params.claimTransformationName, by),
  ),
  handle(Transformations_PutExcludeServiceTransformationOptions, ({ body, services, by }) =>
    services.transformations.addClaimType('ExcludedServiceClaims', body, by),
  ),
  handle(Transformations_DeleteExcludeServiceTransformationOptions, ({ body, services, by }) =>
    services.transformations.removeClaimType('ExcludedServiceClaims', body, by),
  ),
  handle(Transformations_PutExcludePassThroughTransformationOptions, ({ body, services, by }) =>
    services.transformations.addClaimType('ExcludedPassThroughClaims', body, by),
  ),
  handle(Transformations_DeleteExcludePassthroughTransformationOptions, ({ body, services, by }) =>
    services.transformations.removeClaimType('ExcludedPassThroughClaims', body, by),
  ),
  handle(Transformations_PostScriptTesting, ({ body, services }) => services.transformations.testScript(body.script)),
];
