import { ProviderError } from '../provider.js';

/** The ProviderError a call fails with; a success or any other error fails the test. */
export async function failureOf(call: Promise<unknown>): Promise<ProviderError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('The call succeeded; a ProviderError was expected');
}
