import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsObject } from 'class-validator';
import { ShallowValidation } from '../../http/validation.js';
import { TriggerOptionsDto } from './trigger-event.dto.js';

/** A trigger without `to` (every subscriber of the environment receives); Novu requires its payload. */
@ShallowValidation()
export class BroadcastEventDto extends TriggerOptionsDto {
  @ApiProperty({ type: 'object', additionalProperties: true })
  @IsDefined()
  @IsObject()
  payload: Record<string, unknown>;
}
