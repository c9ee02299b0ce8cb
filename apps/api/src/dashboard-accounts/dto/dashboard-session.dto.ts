import { ApiProperty } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { MAX_EMAIL_ADDRESS_LENGTH } from '#common';
import type { DashboardSession, Environment } from '#dal';
import { CredentialsDto, DashboardUserDto, IsPassword } from './dashboard-user.dto.js';

export class LoginDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_EMAIL_ADDRESS_LENGTH)
  email: string;

  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  password: string;
}

export class SetupDto extends CredentialsDto {
  @ApiProperty({ description: 'The token of the setup link printed at first boot' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  token: string;
}

export class ChangePasswordDto {
  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  currentPassword: string;

  @ApiProperty()
  @IsPassword()
  newPassword: string;
}

export class DashboardSessionSummaryDto {
  @ApiProperty() id: string;
  @ApiProperty() createdAt: string;
  @ApiProperty() expiresAt: string;
  @ApiProperty({ nullable: true, type: String }) userAgent: string | null;
  @ApiProperty({ nullable: true, type: String }) clientAddress: string | null;
  @ApiProperty({ description: 'The session of this request' }) current: boolean;

  static from(session: DashboardSession, currentId: string): DashboardSessionSummaryDto {
    return {
      id: session.id,
      createdAt: session.createdAt.toISOString(),
      expiresAt: session.expiresAt.toISOString(),
      userAgent: session.userAgent,
      clientAddress: session.clientAddress,
      current: session.id === currentId,
    };
  }
}

export class DashboardEnvironmentDto {
  @ApiProperty() id: string;
  @ApiProperty() name: string;

  static from(environment: Environment): DashboardEnvironmentDto {
    return { id: environment.id, name: environment.name };
  }
}

export class DashboardSessionDto {
  @ApiProperty() user: DashboardUserDto;
  @ApiProperty() session: DashboardSessionSummaryDto;
  @ApiProperty({ description: 'Send it in X-CSRF-Token on every write made with the session cookie' })
  csrfToken: string;
  @ApiProperty({
    type: [DashboardEnvironmentDto],
    description: "The organization's environments: send one's id in X-Environment-Id",
  })
  environments: DashboardEnvironmentDto[];
}
