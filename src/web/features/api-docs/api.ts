import { queryOptions } from "@tanstack/react-query";
import { API_DOCUMENT_PATH, apiDocumentSchema } from "../../../shared/contracts/api-docs";
import { apiFetch } from "../../lib/http";

/** The API's OpenAPI document: the same for everyone, and fixed while the server runs. */
export const apiDocumentQuery = queryOptions({
  queryKey: ["api-docs", "document"],
  queryFn: ({ signal }) => apiFetch(API_DOCUMENT_PATH, apiDocumentSchema, { signal }),
  staleTime: Number.POSITIVE_INFINITY,
});
