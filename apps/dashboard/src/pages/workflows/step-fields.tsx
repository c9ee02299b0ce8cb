import type { UseFormRegister } from 'react-hook-form';
import type { FieldMessages } from '../../api/client';
import { Field, describedBy } from '../../ui/field';
import { STEP_FORMS, type ControlField, type StepType } from './step-forms';
import type { WorkflowInput } from './workflow-types';

const CONDITION: ControlField = {
  key: 'skip',
  label: 'Skip when (JSON Logic, optional)',
  kind: 'textarea',
};

function ControlInput({
  field,
  id,
  name,
  messages,
  register,
}: {
  field: ControlField;
  id: string;
  name: `steps.${number}.controlValues.${string}`;
  messages?: string[];
  register: UseFormRegister<WorkflowInput>;
}) {
  const aria = describedBy(id, messages);
  if (field.kind === 'textarea') return <textarea id={id} rows={4} {...aria} {...register(name)} />;
  if (field.kind === 'number')
    return <input id={id} type="number" {...aria} {...register(name, { valueAsNumber: true })} />;
  if (field.kind === 'select')
    return (
      <select id={id} {...aria} {...register(name)}>
        {field.options?.map((option) => (
          <option key={option}>{option}</option>
        ))}
      </select>
    );
  return <input id={id} {...aria} {...register(name)} />;
}

/** The form of one step: its name and the controls of its type, each with the API's messages for it. */
export function StepFields({
  index,
  type,
  register,
  fields,
}: {
  index: number;
  type: string;
  register: UseFormRegister<WorkflowInput>;
  fields: FieldMessages;
}) {
  const controls: ControlField[] = STEP_FORMS[type as StepType] ?? [];
  const nameId = `step-${index}-name`;
  return (
    <>
      <Field id={nameId} label="Step name" messages={fields[`steps[${index}].name`]}>
        <input
          id={nameId}
          {...describedBy(nameId, fields[`steps[${index}].name`])}
          {...register(`steps.${index}.name`)}
        />
      </Field>
      {[...controls, CONDITION].map((field) => {
        const id = `step-${index}-${field.key}`;
        const messages = fields[`steps[${index}].controlValues.${field.key}`];
        return (
          <Field key={field.key} id={id} label={field.label} messages={messages}>
            <ControlInput
              field={field}
              id={id}
              name={`steps.${index}.controlValues.${field.key}`}
              messages={messages}
              register={register}
            />
          </Field>
        );
      })}
    </>
  );
}
