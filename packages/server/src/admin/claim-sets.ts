import {
  ClaimSets_DeleteById,
  ClaimSets_DeleteByName,
  ClaimSets_GetAll,
  ClaimSets_GetById,
  ClaimSets_GetByName,
  ClaimSets_PostClaimSet,
  ClaimSets_PutClaimSet,
} from '@idsvc/shared';
import { handle } from './handler.js';

export const claimSetHandlers = [
  handle(ClaimSets_GetAll, ({ list, services }) => services.claimSets.list(list)),
  handle(ClaimSets_GetByName, ({ params, services }) => services.claimSets.get(params.claimSetName)),
  handle(ClaimSets_GetById, ({ params, services }) => services.claimSets.getById(params.id)),
  handle(ClaimSets_PostClaimSet, ({ body, services, by }) => services.claimSets.create(body, by)),
  handle(ClaimSets_PutClaimSet, ({ body, services, by }) => services.claimSets.update(body, by)),
  handle(ClaimSets_DeleteByName, ({ params, services, by }) => services.claimSets.delete(params.claimSetName, by)),
  handle(ClaimSets_DeleteById, ({ params, services, by }) => services.claimSets.deleteById(params.id, by)),
];
