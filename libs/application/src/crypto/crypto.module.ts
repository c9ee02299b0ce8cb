import { Module } from '@nestjs/common';
import { CredentialsCipher } from './credentials-cipher.js';

/**
 * Imported by the modules that read or write integration credentials (the integrations routes, the
 * worker's provider sender). Not global: a static module is built once, so both share one cipher.
 */
@Module({ providers: [CredentialsCipher], exports: [CredentialsCipher] })
export class CryptoModule {}
