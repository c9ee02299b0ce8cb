import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateBy,
} from 'class-validator';
import { HTTP_REQUEST_METHODS, type HttpRequestMethod } from '#application';
import { EachNested } from '../../http/each-nested.js';

const MAX_PAIRS = 50;
const MAX_BODY_CHARS = 64 * 1024;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * http or https, checked on the part before any template: a rendered URL is checked again (and
 * through the SSRF guard) when the step runs.
 */
const IsHttpUrlTemplate = () =>
  ValidateBy({
    name: 'isHttpUrlTemplate',
    validator: {
      validate: (value: unknown) => {
        if (typeof value !== 'string' || !/^https?:\/\/[^\s/]/i.test(value)) return false;
        if (value.includes('{')) return true;
        try {
          new URL(value);
          return true;
        } catch {
          return false;
        }
      },
      defaultMessage: () => '$property must be an http or https URL',
    },
  });

const isPair = (item: unknown) =>
  item !== null &&
  typeof item === 'object' &&
  typeof (item as { key?: unknown }).key === 'string' &&
  (item as { key: string }).key.length > 0 &&
  typeof (item as { value?: unknown }).value === 'string';

/** A list of { key, value } strings, or one JSON object, within MAX_BODY_CHARS once serialized. */
const IsRequestBody = () =>
  ValidateBy({
    name: 'isRequestBody',
    validator: {
      validate: (value: unknown) => {
        if (value === null || typeof value !== 'object') return false;
        if (Array.isArray(value) && (value.length > MAX_PAIRS || !value.every(isPair))) return false;
        return JSON.stringify(value).length <= MAX_BODY_CHARS;
      },
      defaultMessage: () =>
        `$property must be a list of at most ${MAX_PAIRS} { key, value } strings or a JSON object, at most 64 KB`,
    },
  });

export class HeaderDefinition {
  @ApiProperty()
  @IsString()
  @Matches(HEADER_NAME, { message: 'key must be an HTTP header name' })
  @MaxLength(256)
  key: string;

  @ApiProperty({ description: 'Rendered with the template engine' })
  @IsString()
  @MaxLength(8192)
  value: string;
}

/** An http_request step: one HTTP call whose response the steps after it can read. */
export class HttpRequestMetadata {
  @ApiProperty({
    description: 'http or https; rendered with the template engine',
    example: 'https://api.example.com/users',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(2048)
  @IsHttpUrlTemplate()
  url: string;

  @ApiPropertyOptional({ enum: HTTP_REQUEST_METHODS, default: 'POST' })
  @IsOptional()
  @IsIn(HTTP_REQUEST_METHODS)
  method?: HttpRequestMethod;

  @ApiPropertyOptional({ type: [HeaderDefinition] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_PAIRS)
  @EachNested(() => HeaderDefinition)
  headers?: HeaderDefinition[];

  @ApiPropertyOptional({
    description: 'A list of { key, value } strings or a JSON object, sent as JSON; not sent with GET',
    oneOf: [{ type: 'array', items: { type: 'object' } }, { type: 'object' }],
  })
  @IsOptional()
  @IsRequestBody()
  body?: { key: string; value: string }[] | Record<string, unknown>;

  @ApiPropertyOptional({
    default: false,
    description: 'On a final failure the steps after it still run (otherwise they are skipped)',
  })
  @IsOptional()
  @IsBoolean()
  continueOnFailure?: boolean;
}
