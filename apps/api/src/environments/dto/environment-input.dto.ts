import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsHexColor, IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../../http/optional-not-null.js';

const TRIMMED = /^\S(.*\S)?$/s;
const TRIMMED_MESSAGE = '$property must not be blank or start or end with whitespace';

export class CreateEnvironmentDto {
  @ApiProperty({ description: 'Unique in the organization', maxLength: 100 })
  @IsString()
  @MaxLength(100)
  @Matches(TRIMMED, { message: TRIMMED_MESSAGE })
  name: string;

  @ApiProperty({ description: 'Hex colour, e.g. #ff8547', maxLength: 9 })
  @IsString()
  @MaxLength(9)
  @IsHexColor()
  color: string;

  @ApiPropertyOptional({ description: "An environment of the organization; default: the organization's Production" })
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  parentId?: string;
}

/** Novu's `dns` and `bridge` settings are hosted features: they are not part of this body and are ignored. */
export class UpdateEnvironmentDto {
  @ApiPropertyOptional({ maxLength: 100, description: 'Development and Production keep their names' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  @Matches(TRIMMED, { message: TRIMMED_MESSAGE })
  name?: string;

  @ApiPropertyOptional({
    description: 'The public applicationIdentifier: 8 to 64 letters, digits, - or _; unique',
    maxLength: 64,
  })
  @OptionalNotNull()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{8,64}$/, { message: 'identifier must be 8 to 64 letters, digits, - or _' })
  identifier?: string;

  @ApiPropertyOptional({ maxLength: 9 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(9)
  @IsHexColor()
  color?: string;

  @ApiPropertyOptional({ description: 'Another environment of the organization' })
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  parentId?: string;
}
