import {
  ClaimDefinitions_DeleteByClaimType,
  ClaimDefinitions_DeleteByClaimTypes,
  ClaimDefinitions_DeleteById,
  ClaimDefinitions_DeleteByIds,
  ClaimDefinitions_GetAll,
  ClaimDefinitions_GetAllFilter,
  ClaimDefinitions_GetByClaimType,
  ClaimDefinitions_GetById,
  ClaimDefinitions_Patch,
  ClaimDefinitions_Post,
  ClaimDefinitions_PostMany,
  ClaimDefinitions_Put,
  ClaimDefinitions_PutMany,
  ClaimDefinitions_Search,
  type SearchQuery,
} from '@idsvc/shared';
import { type ListRequest, listRequest } from '../conventions/list.js';
import { handle } from './handler.js';

/** The list request of a search body: the filter operation's paging, sorting and filter rules; absent → everything. */
function searchRequest(body: SearchQuery | undefined): ListRequest {
  const query = body ?? {};
  return listRequest(ClaimDefinitions_GetAllFilter.list, {
    filter: query.filter,
    attributes: query.attributes,
    sortBy: query.sortBy,
    sortOrder: query.sortOrder,
    pageIndex: query.pageIndex?.toString(),
    pageSize: query.pageSize?.toString(),
  });
}

export const claimDefinitionHandlers = [
  handle(ClaimDefinitions_GetAll, ({ list, services }) => services.claimDefinitions.list(list)),
  handle(ClaimDefinitions_GetAllFilter, ({ list, services }) => services.claimDefinitions.list(list)),
  handle(ClaimDefinitions_Search, ({ body, services }) => services.claimDefinitions.list(searchRequest(body))),
  handle(ClaimDefinitions_GetByClaimType, ({ params, services }) => services.claimDefinitions.get(params.claimType)),
  handle(ClaimDefinitions_GetById, ({ params, services }) => services.claimDefinitions.getById(params.id)),
  handle(ClaimDefinitions_Post, ({ body, services, by }) => services.claimDefinitions.create(body, by)),
  handle(ClaimDefinitions_Put, ({ body, services, by }) => services.claimDefinitions.update(body, by)),
  handle(ClaimDefinitions_Patch, ({ params, body, services, by }) =>
    services.claimDefinitions.patch(params.claimType, body, by),
  ),
  handle(ClaimDefinitions_DeleteByClaimType, ({ params, services, by }) =>
    services.claimDefinitions.delete(params.claimType, by),
  ),
  handle(ClaimDefinitions_DeleteById, ({ params, services, by }) =>
    services.claimDefinitions.deleteById(params.id, by),
  ),
  handle(ClaimDefinitions_DeleteByClaimTypes, ({ body, services, by }) =>
    services.claimDefinitions.deleteMany(body, by),
  ),
  handle(ClaimDefinitions_DeleteByIds, ({ body, services, by }) => services.claimDefinitions.deleteManyByIds(body, by)),
  handle(ClaimDefinitions_PostMany, ({ body, services, by }) => services.claimDefinitions.createMany(body, by)),
  handle(ClaimDefinitions_PutMany, ({ body, services, by }) => services.claimDefinitions.updateMany(body, by)),
];
