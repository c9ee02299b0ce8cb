import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';
import { ToArray } from './query-arrays.js';

/** A trigger names at most this many contexts, so an exact filter never needs more. */
const MAX_CONTEXT_KEYS = 5;

/** `?contextKeys=tenant:acme&contextKeys=…`: only what was sent with exactly these contexts (`type:id`, any order). */
export const ContextKeysFilter = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], maxItems: MAX_CONTEXT_KEYS, description }),
    IsOptional(),
    ToArray(),
    IsArray(),
    ArrayMaxSize(MAX_CONTEXT_KEYS),
    IsString({ each: true }),
    // A type and an id of at most 100 characters each, joined by ':'.
    MaxLength(201, { each: true }),
  );
