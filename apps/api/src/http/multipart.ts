import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '#common';

/** One file of a multipart body, decoded as UTF-8 text. */
export interface UploadedFile {
  field: string;
  fileName: string;
  bytes: number;
  text: string;
}

/** A multipart/form-data body as routes receive it: its text fields (last value wins) and its files. */
export interface MultipartBody {
  fields: Record<string, string>;
  files: UploadedFile[];
}

/** The multipart body of a request, or a 400 when the request sent another kind of body. */
export function multipartBody(body: unknown): MultipartBody {
  const candidate = body as Partial<MultipartBody> | undefined;
  if (!candidate || typeof candidate !== 'object' || !Array.isArray(candidate.files) || !candidate.fields)
    throw new DomainError('BAD_REQUEST', 'The request must be multipart/form-data');
  return candidate as MultipartBody;
}

/**
 * Reads multipart/form-data bodies (file uploads) with the platform's own form-data parser. The body
 * is read whole under the route's body limit before it is parsed, so no part can grow past it.
 */
export function installMultipart(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer' },
    async (request: FastifyRequest, body: Buffer): Promise<MultipartBody> => {
      let form: FormData;
      try {
        form = await new Response(body, {
          headers: { 'content-type': request.headers['content-type'] ?? '' },
        }).formData();
      } catch {
        throw new DomainError('BAD_REQUEST', 'The multipart/form-data body could not be read');
      }
      const parsed: MultipartBody = { fields: {}, files: [] };
      for (const [field, value] of form.entries()) {
        if (typeof value === 'string') parsed.fields[field] = value;
        else parsed.files.push({ field, fileName: value.name, bytes: value.size, text: await value.text() });
      }
      return parsed;
    },
  );
}
