import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

export class InboxDemoQueryDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  applicationIdentifier: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  subscriberId: string;

  /** Read by the page's script: required where the environment requires HMAC, as for any session. */
  @IsOptional()
  @IsString()
  @MaxLength(255)
  subscriberHash?: string;
}
