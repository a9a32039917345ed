import { z } from 'zod';
import {
  ExcludeClaimOptionsInput,
  Name,
  TestScriptInput,
  Transformation,
  TransformationInput,
} from '../schemas/index.js';
import { partialList, statuses } from './helpers.js';
import { op } from './op.js';

const tag = 'Transformations';
const group = 'transformations';
const nameParams = z.object({ claimTransformationName: Name });

export const Transformations_PostClaimTransformation = op({
  operationId: 'Transformations_PostClaimTransformation',
  method: 'POST',
  path: '/api/rest/v2/transformations',
  summary: "Create a claim transformation; a Script transformation's script must compile.",
  tag,
  role: 'Administrator',
  body: TransformationInput,
  response: Transformation,
  statuses: statuses(400, 409, 500),
  cli: { group, action: 'create' },
});

export const Transformations_PutClaimTransformation = op({
  operationId: 'Transformations_PutClaimTransformation',
  method: 'PUT',
  path: '/api/rest/v2/transformations',
  summary: 'Update a claim transformation, found by name; fields left out keep their values.',
  tag,
  role: 'Administrator',
  body: TransformationInput,
  response: Transformation,
  statuses: statuses(400, 404, 409, 500),
  cli: { group, action: 'update' },
});

export const Transformations_GetAllFilter = op({
  operationId: 'Transformations_GetAllFilter',
  method: 'GET',
  path: '/api/rest/v2/transformations/.filter',
  summary: 'List claim transformations matching a SCIM filter.',
  tag,
  role: 'Observer',
  list: {
    kind: 'filter',
    sortable: [
      'name',
      'type',
      'conditionNotApplyToRegisteredUsers',
      'conditionNotApplyToUnregisteredUsers',
      'accessOrganizationName',
      'conditionExpression',
      'cultureCode',
      'executeBeforeLoadingClaimsFromLocalStore',
    ],
    defaultSort: 'name',
  },
  response: partialList(Transformation),
  statuses: statuses(400),
  cli: { group, action: 'filter' },
});

export const Transformations_GetClaimTransformation = op({
  operationId: 'Transformations_GetClaimTransformation',
  method: 'GET',
  path: '/api/rest/v2/transformations/{claimTransformationName}',
  summary: 'Get a claim transformation of type ExcludedPassThroughClaims or ExcludedServiceClaims by name.',
  tag,
  role: 'Observer',
  params: nameParams,
  response: Transformation,
  statuses: statuses(400, 404),
  cli: { group, action: 'get' },
});

export const Transformations_DeleteClaimTransformation = op({
  operationId: 'Transformations_DeleteClaimTransformation',
  method: 'DELETE',
  path: '/api/rest/v2/transformations/{claimTransformationName}',
  summary: 'Delete a claim transformation.',
  tag,
  role: 'Administrator',
  params: nameParams,
  statuses: statuses(400, 404, 409),
  cli: { group, action: 'delete' },
});

export const Transformations_PutExcludeServiceTransformationOptions = op({
  operationId: 'Transformations_PutExcludeServiceTransformationOptions',
  method: 'PUT',
  path: '/api/rest/v2/transformations/excludeServiceClaimOptions',
  summary: 'Add a claim type (one with a claim definition) to an ExcludedServiceClaims transformation.',
  tag,
  role: 'Administrator',
  body: ExcludeClaimOptionsInput,
  response: Transformation,
  statuses: statuses(400, 404),
  cli: { group, action: 'exclude-service-claim' },
});

export const Transformations_DeleteExcludeServiceTransformationOptions = op({
  operationId: 'Transformations_DeleteExcludeServiceTransformationOptions',
  method: 'DELETE',
  path: '/api/rest/v2/transformations/excludeServiceClaimOptions',
  summary:
    'Remove a claim type from an ExcludedServiceClaims transformation and answer it (success also when the claim ' +
    'type is not listed or the kind differs; an empty body when no transformation has that name).',
  tag,
  role: 'Administrator',
  body: ExcludeClaimOptionsInput,
  response: Transformation,
  statuses: statuses(400),
  cli: { group, action: 'include-service-claim' },
});

export const Transformations_PutExcludePassThroughTransformationOptions = op({
  operationId: 'Transformations_PutExcludePassThroughTransformationOptions',
  method: 'PUT',
  path: '/api/rest/v2/transformations/excludePassthroughClaimOptions',
  summary: 'Add a claim type (one with a claim definition) to an ExcludedPassThroughClaims transformation.',
  tag,
  role: 'Administrator',
  body: ExcludeClaimOptionsInput,
  response: Transformation,
  statuses: statuses(400, 404),
  cli: { group, action: 'exclude-passthrough-claim' },
});

export const Transformations_DeleteExcludePassthroughTransformationOptions = op({
  operationId: 'Transformations_DeleteExcludePassthroughTransformationOptions',
  method: 'DELETE',
  path: '/api/rest/v2/transformations/excludePassthroughClaimOptions',
  summary:
    'Remove a claim type from an ExcludedPassThroughClaims transformation and answer it (success also when the ' +
    'claim type is not listed or the kind differs; an empty body when no transformation has that name).',
  tag,
  role: 'Administrator',
  body: ExcludeClaimOptionsInput,
  response: Transformation,
  statuses: statuses(400),
  cli: { group, action: 'include-passthrough-claim' },
});

export const Transformations_PostScriptTesting = op({
  operationId: 'Transformations_PostScriptTesting',
  method: 'POST',
  path: '/api/rest/v2/transformations/testscript',
  summary:
    "Check, without running it, that a Script transformation's script compiles (true, or 400 with the compiler's " +
    'message and line). A script defines function transform(claims, context) returning a new array of ' +
    '{ type, value } strings.',
  tag,
  role: 'Administrator',
  body: TestScriptInput,
  response: z.boolean(),
  statuses: statuses(400, 409, 500),
  cli: { group, action: 'test-script' },
});

export const transformationOperations = [
  Transformations_PostClaimTransformation,
  Transformations_PutClaimTransformation,
  Transformations_GetAllFilter,
  Transformations_GetClaimTransformation,
  Transformations_DeleteClaimTransformation,
  Transformations_PutExcludeServiceTransformationOptions,
  Transformations_DeleteExcludeServiceTransformationOptions,
  Transformations_PutExcludePassThroughTransformationOptions,
  Transformations_DeleteExcludePassthroughTransformationOptions,
  Transformations_PostScriptTesting,
] as const;
