import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';

/** The error body of every non-2xx answer (ARCHITECTURE §8), for the OpenAPI document. */
export class ErrorResponseDto {
  @ApiProperty() statusCode: number;
  @ApiProperty() message: string;
  @ApiProperty() error: string;
  @ApiProperty() path: string;
  @ApiProperty() timestamp: string;
  @ApiPropertyOptional({
    description: 'On 422: per-field messages, keyed by the field path',
    type: 'object',
    additionalProperties: {
      type: 'object',
      properties: { messages: { type: 'array', items: { type: 'string' } }, value: {} },
    },
  })
  errors?: Record<string, { messages: string[]; value?: unknown }>;
  @ApiPropertyOptional({ description: 'On 500: the id under which the error was logged' })
  errorId?: string;
}

/** Documents the error answers every authenticated route can give. */
export const ApiErrorResponses = () =>
  applyDecorators(
    ApiResponse({ status: 400, type: ErrorResponseDto, description: 'Malformed request' }),
    ApiResponse({ status: 401, type: ErrorResponseDto, description: 'Missing or unknown API key' }),
    ApiResponse({ status: 404, type: ErrorResponseDto, description: 'Resource not found' }),
    ApiResponse({ status: 409, type: ErrorResponseDto, description: 'Conflict' }),
    ApiResponse({ status: 413, type: ErrorResponseDto, description: 'Body too large' }),
    ApiResponse({ status: 422, type: ErrorResponseDto, description: 'Validation failed' }),
    ApiResponse({ status: 429, type: ErrorResponseDto, description: 'Rate limited' }),
    ApiResponse({ status: 503, type: ErrorResponseDto, description: 'Database or queue unavailable' }),
  );
