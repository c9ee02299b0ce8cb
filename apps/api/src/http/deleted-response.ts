import { ApiProperty } from '@nestjs/swagger';

/** The answer of a topic delete (Novu's clients read a 200 JSON body, never a 204). */
export class AcknowledgedDto {
  @ApiProperty({ enum: [true] }) acknowledged: true;

  static readonly value: AcknowledgedDto = { acknowledged: true };
}

/** The answer of a subscriber or message delete. */
export class DeletedDto extends AcknowledgedDto {
  @ApiProperty({ enum: ['deleted'] }) status: 'deleted';

  static override readonly value: DeletedDto = { acknowledged: true, status: 'deleted' };
}
