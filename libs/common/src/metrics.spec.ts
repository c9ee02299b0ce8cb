import { describe, expect, it } from '@jest/globals';
import { EnvironmentLabels } from './metrics.js';

describe('EnvironmentLabels', () => {
  it('labels the first environments by id, every later one as other, and keeps a label once given', () => {
    const labels = new EnvironmentLabels();
    const ids = Array.from({ length: EnvironmentLabels.MAX + 2 }, (_, index) => `env-${index}`);
    expect(ids.map((id) => labels.of(id))).toEqual([...ids.slice(0, EnvironmentLabels.MAX), 'other', 'other']);
    expect(labels.of('env-0')).toBe('env-0');
    expect(labels.of(`env-${EnvironmentLabels.MAX}`)).toBe('other');
  });

  it('belongs to its consumer: another starts with none labelled', () => {
    const first = new EnvironmentLabels();
    for (let index = 0; index < EnvironmentLabels.MAX; index++) first.of(`env-${index}`);
    expect(first.of('late')).toBe('other');
    expect(new EnvironmentLabels().of('late')).toBe('late');
  });
});
