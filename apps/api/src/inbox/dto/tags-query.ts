import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString } from 'class-validator';
import { ToArray } from '../../http/query-arrays.js';

/** `?tags[]=a&tags[]=b` (or `tags=a`): anything carrying any of these tags. */
export const TagsQuery = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: [String], description }),
    IsOptional(),
    ToArray(),
    IsArray(),
    ArrayMaxSize(100),
    IsString({ each: true }),
  );
