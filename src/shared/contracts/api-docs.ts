import { z } from "zod";

/**
 * The OpenAPI 3.1 description of Dash's API for integrators (generated on the server from the
 * zod contracts), and the parts of it the administrators' reference page reads.
 */
export const API_DOCUMENT_PATH = "/api/openapi.json";

/** A JSON Schema (2020-12) as the document holds it. */
export const jsonSchemaSchema = z.record(z.string(), z.unknown());
export type JsonSchema = z.infer<typeof jsonSchemaSchema>;

export const apiParameterSchema = z.object({
  name: z.string(),
  in: z.enum(["path", "query", "header", "cookie"]),
  required: z.boolean().optional(),
  description: z.string().optional(),
  schema: jsonSchemaSchema,
});
export type ApiParameter = z.infer<typeof apiParameterSchema>;

const mediaTypesSchema = z.record(z.string(), z.object({ schema: jsonSchemaSchema }));

export const apiResponseSchema = z.object({
  description: z.string(),
  content: mediaTypesSchema.optional(),
});

export const apiOperationSchema = z.object({
  operationId: z.string(),
  tags: z.array(z.string()),
  summary: z.string(),
  description: z.string(),
  security: z.array(z.record(z.string(), z.array(z.string()))),
  parameters: z.array(apiParameterSchema).optional(),
  requestBody: z.object({ required: z.boolean().optional(), content: mediaTypesSchema }).optional(),
  responses: z.record(z.string(), apiResponseSchema),
});
export type ApiOperation = z.infer<typeof apiOperationSchema>;

export const apiSecuritySchemeSchema = z.object({
  type: z.enum(["apiKey", "http", "oauth2"]),
  description: z.string(),
  name: z.string().optional(),
  in: z.string().optional(),
  scheme: z.string().optional(),
  flows: z
    .object({
      clientCredentials: z.object({ tokenUrl: z.string(), scopes: z.record(z.string(), z.string()) }),
    })
    .optional(),
});
export type ApiSecurityScheme = z.infer<typeof apiSecuritySchemeSchema>;

export const apiDocumentSchema = z.object({
  openapi: z.literal("3.1.0"),
  info: z.object({ title: z.string(), version: z.string(), description: z.string() }),
  externalDocs: z.object({ description: z.string(), url: z.string() }),
  servers: z.array(z.object({ url: z.string(), description: z.string() })),
  tags: z.array(z.object({ name: z.string(), description: z.string() })),
  paths: z.record(z.string(), z.record(z.string(), apiOperationSchema)),
  webhooks: z.record(z.string(), z.object({ post: apiOperationSchema })),
  components: z.object({
    schemas: z.record(z.string(), jsonSchemaSchema),
    securitySchemes: z.record(z.string(), apiSecuritySchemeSchema),
  }),
});
export type ApiDocument = z.infer<typeof apiDocumentSchema>;
