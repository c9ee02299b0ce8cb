import { FormError } from '../../ui/field';
import { ErrorState, Loading } from '../../ui/states';
import { ScheduleForm } from './schedule-form';
import { ScheduleSummary } from './schedule-section';
import { usePreferences, useUpdatePreferences, type Preferences } from './subscribers-api';

const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'];

function enabledChannels(channels: Record<string, boolean>): string {
  const on = Object.entries(channels)
    .filter(([, enabled]) => enabled)
    .map(([channel]) => channel);
  return on.length ? on.join(', ') : 'none';
}

function PreferencesList({ preferences }: { preferences: Preferences }) {
  const { global, workflows } = preferences;
  return (
    <ul aria-label="Preferences">
      <li>
        All workflows: {global.enabled ? 'on' : 'off'} ({enabledChannels(global.channels)})
      </li>
      {workflows.map((one) => (
        <li key={one.workflow.identifier}>
          {one.workflow.name}: {one.enabled ? 'on' : 'off'} ({enabledChannels(one.channels)})
        </li>
      ))}
    </ul>
  );
}

/**
 * A switch per channel, saved as it is flipped: the global row for every workflow, a workflow's row for that
 * one (it wins over the global choice). A workflow shows only the channels of its steps.
 */
function PreferencesTable({ subscriberId, preferences }: { subscriberId: string; preferences: Preferences }) {
  const update = useUpdatePreferences(subscriberId);
  const rows = [
    { name: 'All workflows', workflowId: undefined, channels: preferences.global.channels },
    ...preferences.workflows.map((one) => ({
      name: one.workflow.name,
      workflowId: one.workflow.identifier,
      channels: one.channels,
    })),
  ];
  return (
    <>
      <table className="list">
        <caption className="visually-hidden">Channel preferences</caption>
        <thead>
          <tr>
            <th scope="col">Workflow</th>
            {CHANNELS.map((channel) => (
              <th scope="col" key={channel}>
                {channel}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.workflowId ?? ''}>
              <th scope="row">{row.name}</th>
              {CHANNELS.map((channel) => (
                <td key={channel}>
                  {channel in row.channels ? (
                    <input
                      type="checkbox"
                      aria-label={`${row.name}: ${channel}`}
                      checked={row.channels[channel]}
                      disabled={update.isPending}
                      onChange={(event) =>
                        update.mutate({ workflowId: row.workflowId, channels: { [channel]: event.target.checked } })
                      }
                    />
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <FormError message={update.error?.message} />
    </>
  );
}

/** The subscriber's channel preferences and delivery schedule; editors change them, viewers read them. */
export function PreferencesSection({ subscriberId, canEdit }: { subscriberId: string; canEdit: boolean }) {
  const preferences = usePreferences(subscriberId);
  if (preferences.isPending) return <Loading label="Loading preferences" />;
  if (preferences.isError) return <ErrorState error={preferences.error} />;
  const schedule = preferences.data.global.schedule;
  return (
    <>
      {canEdit ? (
        <PreferencesTable subscriberId={subscriberId} preferences={preferences.data} />
      ) : (
        <PreferencesList preferences={preferences.data} />
      )}
      <h3>Delivery schedule</h3>
      <ScheduleSummary schedule={schedule} />
      {canEdit ? <ScheduleForm subscriberId={subscriberId} schedule={schedule} /> : null}
    </>
  );
}
