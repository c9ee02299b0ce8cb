import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ACTION_STATUSES } from '#application';
import { MARK_AS_VALUES, type MarkAs } from '#dal';
import { IsIn, IsObject, IsOptional, registerDecorator, type ValidationOptions } from 'class-validator';

/** One feed identifier or an array of them (1 to 100 non-empty strings). */
function IsFeedIdentifier(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isFeedIdentifier',
      target: target.constructor,
      propertyName,
      options: { message: `${propertyName} must be a feed identifier or an array of them`, ...options },
      validator: {
        validate: (value: unknown) => {
          const list = Array.isArray(value) ? value : [value];
          return list.length > 0 && list.length <= 100 && list.every((item) => typeof item === 'string' && item !== '');
        },
      },
    });
}

export class MarkAllMessagesDto {
  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    description: 'Only the messages of these feeds',
  })
  @IsOptional()
  @IsFeedIdentifier()
  feedIdentifier?: string | string[];

  @ApiProperty({ enum: MARK_AS_VALUES })
  @IsIn(MARK_AS_VALUES)
  markAs: MarkAs;
}

export class UpdateMessageActionDto {
  @ApiProperty({ enum: ACTION_STATUSES })
  @IsIn(ACTION_STATUSES)
  status: (typeof ACTION_STATUSES)[number];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Stored as the action result payload',
  })
  @IsOptional()
  @IsObject()
  payload?: Record<string, unknown>;
}
