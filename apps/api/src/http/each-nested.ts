import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsObject, ValidateNested } from 'class-validator';

/**
 * An array whose every item is validated as `type`. ValidateNested alone lets an item that is itself
 * an array through unchecked (`steps: [[]]`), so each item must also be a plain object.
 */
export const EachNested = (type: () => new (...args: never[]) => unknown) =>
  applyDecorators(IsObject({ each: true }), ValidateNested({ each: true }), Type(type));
