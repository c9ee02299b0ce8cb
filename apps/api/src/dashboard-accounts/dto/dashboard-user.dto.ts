import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, MinLength, ValidateBy } from 'class-validator';
import {
  DASHBOARD_ROLES,
  EMAIL_ADDRESS_RULE,
  isEmailAddress,
  MAX_EMAIL_ADDRESS_LENGTH,
  type DashboardRole,
} from '#common';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '#application';
import type { DashboardUser } from '#dal';

/** Exactly one address, as a subscriber's: a login names one mailbox. */
function IsEmailAddress(): PropertyDecorator {
  return ValidateBy({
    name: 'isEmailAddress',
    validator: { validate: isEmailAddress, defaultMessage: () => `email must be ${EMAIL_ADDRESS_RULE}` },
  });
}

/** A password as every route takes it: long enough to resist guessing, short enough to hash cheaply. */
export function IsPassword(): PropertyDecorator {
  return (target, key) => {
    IsString()(target, key);
    MinLength(PASSWORD_MIN_LENGTH)(target, key);
    MaxLength(PASSWORD_MAX_LENGTH)(target, key);
  };
}

export class CredentialsDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsString()
  @MaxLength(MAX_EMAIL_ADDRESS_LENGTH)
  @IsEmailAddress()
  email: string;

  @ApiProperty({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })
  @IsPassword()
  password: string;
}

export class CreateDashboardUserDto extends CredentialsDto {
  @ApiProperty({ enum: DASHBOARD_ROLES })
  @IsIn(DASHBOARD_ROLES)
  role: DashboardRole;
}

export class SetDashboardRoleDto {
  @ApiProperty({ enum: DASHBOARD_ROLES })
  @IsIn(DASHBOARD_ROLES)
  role: DashboardRole;
}

export class DashboardUserDto {
  @ApiProperty() id: string;
  @ApiProperty() email: string;
  @ApiProperty({ enum: DASHBOARD_ROLES }) role: DashboardRole;
  @ApiProperty() createdAt: string;

  static from(user: DashboardUser): DashboardUserDto {
    return { id: user.id, email: user.email, role: user.role, createdAt: user.createdAt.toISOString() };
  }
}
