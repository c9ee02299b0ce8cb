import { useState } from 'react';
import { saveFailure, type SaveFailure } from './form-error';

/**
 * A form's save: runs it, and on a refusal keeps the API's messages for the form to show (the inputs are left
 * as typed); on success clears them and hands the answer on.
 */
export function useSave<Input, Output>(save: (input: Input) => Promise<Output>, onSaved: (output: Output) => unknown) {
  const [failure, setFailure] = useState<SaveFailure>();
  const submit = async (input: Input) => {
    try {
      const output = await save(input);
      setFailure(undefined);
      await onSaved(output);
    } catch (error) {
      setFailure(saveFailure(error));
    }
  };
  return { failure, submit };
}
