import { useState } from 'react';
import type { UseFieldArrayReturn } from 'react-hook-form';
import { NEW_STEP_CONTROLS, STEP_TYPES, type StepType } from './step-forms';
import type { WorkflowInput } from './workflow-types';

/** The workflow's steps in order: pick one to edit, move it, remove it, or add one of any type. */
export function StepList({
  steps,
  names,
  selected,
  onSelect,
  canEdit,
}: {
  steps: UseFieldArrayReturn<WorkflowInput, 'steps'>;
  /** The names as typed so far (the field array's own entries hold them as they were loaded). */
  names: string[];
  selected: number;
  onSelect: (index: number) => void;
  canEdit: boolean;
}) {
  const [type, setType] = useState<StepType>('in_app');
  const move = (from: number, to: number) => {
    steps.move(from, to);
    onSelect(to);
  };
  return (
    <nav aria-label="Steps" className="step-list">
      <ol>
        {steps.fields.map((step, index) => {
          const name = names[index] ?? step.name;
          return (
            <li key={step.id} className={index === selected ? 'selected' : undefined}>
              <button type="button" aria-current={index === selected} onClick={() => onSelect(index)}>
                {index + 1}. {name} <span className="muted">({step.type})</span>
              </button>
              {canEdit ? (
                <span className="step-actions">
                  <button type="button" disabled={index === 0} onClick={() => move(index, index - 1)}>
                    Up<span className="visually-hidden"> {name}</span>
                  </button>
                  <button
                    type="button"
                    disabled={index === steps.fields.length - 1}
                    onClick={() => move(index, index + 1)}
                  >
                    Down<span className="visually-hidden"> {name}</span>
                  </button>
                  <button
                    type="button"
                    className="danger"
                    onClick={() => {
                      steps.remove(index);
                      onSelect(0);
                    }}
                  >
                    Remove<span className="visually-hidden"> {name}</span>
                  </button>
                </span>
              ) : null}
            </li>
          );
        })}
      </ol>
      {canEdit ? (
        <div className="add-step">
          <label>
            New step type
            <select value={type} onChange={(event) => setType(event.target.value as StepType)}>
              {STEP_TYPES.map((one) => (
                <option key={one}>{one}</option>
              ))}
            </select>
          </label>
          <button
            type="button"
            onClick={() => {
              steps.append({
                name: `${type} ${steps.fields.length + 1}`,
                type,
                controlValues: { ...NEW_STEP_CONTROLS[type], skip: '' },
              });
              onSelect(steps.fields.length);
            }}
          >
            Add step
          </button>
        </div>
      ) : null}
    </nav>
  );
}
