import { catalog, catalogExtensions, type OperationDef } from '@idsvc/shared';
import { z } from 'zod';

type JsonObject = Record<string, unknown>;

function schemaOf(type: z.ZodType, io: 'input' | 'output'): JsonObject {
  try {
    const { $schema: _ignored, ...schema } = z.toJSONSchema(type, { io, unrepresentable: 'any' }) as JsonObject;
    return schema;
  } catch {
    return {};
  }
}

const pagingParameters = ['pageIndex', 'pageSize', 'sortBy', 'sortOrder'];
const filterParameters = ['filter', 'attributes'];

function parameters(op: OperationDef): JsonObject[] {
  const list: JsonObject[] = [];
  for (const [name, schema] of Object.entries(op.params?.shape ?? {})) {
    list.push({ name, in: 'path', required: true, schema: schemaOf(schema as z.ZodType, 'input') });
  }
  for (const [name, schema] of Object.entries(op.query?.shape ?? {})) {
    const s = schema as z.ZodType;
    list.push({ name, in: 'query', required: !s.safeParse(undefined).success, schema: schemaOf(s, 'input') });
  }
  if (op.list) {
    for (const name of pagingParameters) {
      const schema: JsonObject =
        name === 'sortBy'
          ? { type: 'string', enum: [...op.list.sortable] }
          : { type: name === 'sortOrder' ? 'string' : 'integer' };
      list.push({ name, in: 'query', required: false, schema });
    }
    if (op.list.kind === 'filter')
      for (const name of filterParameters)
        list.push({ name, in: 'query', required: false, schema: { type: 'string' } });
  }
  return list;
}

const errorBody = {
  type: 'object',
  required: ['error', 'message', 'requestId'],
  properties: {
    error: { type: 'string' },
    message: { type: 'string' },
    details: { type: 'array', items: {} },
    requestId: { type: 'string' },
  },
};

function responses(op: OperationDef): JsonObject {
  const out: JsonObject = {};
  for (const status of op.statuses) {
    if (status === 200) {
      out['200'] = op.response
        ? { description: 'success', content: { 'application/json': { schema: schemaOf(op.response, 'output') } } }
        : { description: 'success (empty body)' };
      if (op.list)
        (out['200'] as JsonObject).headers = {
          'X-Total-Count': { schema: { type: 'integer' } },
          Link: { schema: { type: 'string' } },
        };
    } else {
      out[String(status)] = {
        description: `error ${status}`,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
  }
  return out;
}

/**
 * OpenAPI 3.1 of every catalog operation and of the extensions beyond the specification. Same-shaped paths
 * (`/{claimType}` and `/{id}`) share one path item.
 */
export function openApiDocument(serverUrl: string): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  const shapeKey = new Map<string, string>();
  for (const op of [...catalog, ...catalogExtensions]) {
    const shape = op.path.replace(/\{\w+\}/g, '{}');
    const path = shapeKey.get(`${op.method} ${shape}`) ?? shapeKey.get(shape) ?? op.path;
    shapeKey.set(shape, path);
    shapeKey.set(`${op.method} ${shape}`, path);
    const method = op.method.toLowerCase();
    paths[path] ??= {};
    const item = paths[path];
    const operation: JsonObject = {
      operationId: op.operationId,
      summary: op.summary,
      tags: [op.tag],
      parameters: parameters(op),
      responses: responses(op),
      security: [{ bearer: [] }],
      'x-idsvc-role': op.role,
      'x-idsvc-cli': `idsvc ${op.cli.group} ${op.cli.action}`,
    };
    if (op.body)
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: schemaOf(op.body, 'input') } },
      };
    if (item[method]) {
      // A same-shaped sibling: the segment in GUID form selects it.
      (item[method] as JsonObject)['x-idsvc-alternatives'] = [
        ...(((item[method] as JsonObject)['x-idsvc-alternatives'] as JsonObject[]) ?? []),
        operation,
      ];
      continue;
    }
    item[method] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'idsvc admin API', version: '2.0.0', description: 'Identity and access administration.' },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { Error: errorBody },
    },
  };
}
