import { Global, Module } from '@nestjs/common';
import { CredentialsCipher } from './credentials-cipher.js';

/** Global so the api and the worker decrypt credentials with the same provider. */
@Global()
@Module({ providers: [CredentialsCipher], exports: [CredentialsCipher] })
export class CryptoModule {}
