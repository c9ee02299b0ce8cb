import { describe, expect, it } from '@jest/globals';
import { parseRetentionCommand } from './retention.command.js';

describe('environment retention (CLI arguments)', () => {
  it('takes the flags in any order; `default` removes an override; a flag left out keeps its value', () => {
    expect(
      parseRetentionCommand(['--messages-days', '365', '--environment', 'Production', '--activity-days', '7']),
    ).toEqual({ environmentName: 'Production', overrides: { activityDays: 7, messagesDays: 365 } });
    expect(parseRetentionCommand(['--environment', 'Development', '--activity-days', 'default'])).toEqual({
      environmentName: 'Development',
      overrides: { activityDays: null },
    });
  });

  it('without a setting, shows the environment’s retention', () => {
    expect(parseRetentionCommand(['--environment', 'Development'])).toEqual({
      environmentName: 'Development',
      overrides: {},
    });
  });

  it.each([
    [[]],
    [['--activity-days', '7']],
    [['--activity-days', '7', '--environment']],
    [['--activity-days', '7', '--activity-days', '8', '--environment', 'Development']],
    [['--days', '7', '--environment', 'Development']],
  ])('answers no command (the usage) for %j', (args) => {
    expect(parseRetentionCommand(args)).toBeUndefined();
  });

  it.each(['0', '3651', '7.5', '-1', 'forever', ''])('names the flag of a bad value: %j', (value) => {
    expect(() => parseRetentionCommand(['--activity-days', value, '--environment', 'Development'])).toThrow(
      `--activity-days takes whole days from 1 to 3650, or default; got "${value}"`,
    );
  });
});
