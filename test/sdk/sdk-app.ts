import { expect } from '@jest/globals';
import { Novu } from '@novu/api';
import { ErrorDto, SDKError, ValidationErrorDto } from '@novu/api/models/errors/index.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Novu's official server SDK against the real service on a 127.0.0.1 port. Nothing is bypassed:
 * every answer goes through the SDK's own status matching and zod response validation, and the
 * SDK's retries are off so a wrong status fails at once.
 */
export interface SdkApp {
  t: TestApp;
  novu: Novu;
  close(): Promise<void>;
}

export async function startSdkApp(): Promise<SdkApp> {
  const t = await startTestApp();
  await t.app.listen(0, '127.0.0.1');
  const { port } = t.app.getHttpServer().address() as { port: number };
  const novu = new Novu({
    secretKey: t.apiKey,
    serverURL: `http://127.0.0.1:${port}`,
    retryConfig: { strategy: 'none' },
  });
  return { t, novu, close: () => t.close() };
}

/** The call fails with the SDK's typed `ErrorDto` carrying this status (404, 409, …). */
export async function expectErrorDto(call: Promise<unknown>, statusCode: number): Promise<ErrorDto> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ErrorDto);
  expect((error as ErrorDto).statusCode).toBe(statusCode);
  return error as ErrorDto;
}

/** The call fails with the SDK's typed 422 `ValidationErrorDto`. */
export async function expectValidationError(call: Promise<unknown>): Promise<ValidationErrorDto> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ValidationErrorDto);
  expect((error as ValidationErrorDto).statusCode).toBe(422);
  return error as ValidationErrorDto;
}

/**
 * The call fails with a plain `SDKError` of this status: for the operations whose 404 the SDK
 * declares without a body type (integrations update and set-primary).
 */
export async function expectUntypedError(call: Promise<unknown>, statusCode: number): Promise<SDKError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(SDKError);
  expect((error as SDKError).statusCode).toBe(statusCode);
  return error as SDKError;
}
