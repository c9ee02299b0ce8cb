import type { CostResult, CostScenario } from './cost.js';
import type { Row } from './report-rows.js';

const CPU_GROUPS = ['api', 'worker', 'postgres', 'redis'] as const;
const CPU_LABELS = { api: 'api', worker: 'worker', postgres: 'PostgreSQL', redis: 'Redis' };

/** The scenario's growth less what the deployment does idle over as long a window, per unit of work. */
function perUnit(scenario: CostScenario, idle: CostScenario) {
  const idleShare = scenario.seconds / idle.seconds;
  const per = (value: number, idleValue: number) => Math.max(0, value - idleValue * idleShare) / scenario.units;
  const cpuMs = Object.fromEntries(
    CPU_GROUPS.map((group) => [group, per(scenario.cpu.byGroup[group], idle.cpu.byGroup[group]) * 1000]),
  ) as Record<(typeof CPU_GROUPS)[number], number>;
  const rowsWritten = Object.fromEntries(
    Object.entries(scenario.tables).map(([table, grew]) => {
      const was = idle.tables[table];
      const written =
        per(grew.inserted, was?.inserted ?? 0) +
        per(grew.updated, was?.updated ?? 0) +
        per(grew.deleted, was?.deleted ?? 0);
      return [table, written];
    }),
  );
  const redisCommands = Object.fromEntries(
    Object.entries(scenario.redis).map(([command, calls]) => [command, per(calls, idle.redis[command] ?? 0)]),
  );
  return {
    cpuMs,
    statements: {
      api: per(scenario.statements.api, idle.statements.api),
      worker: per(scenario.statements.worker, idle.statements.worker),
    },
    transactions: per(scenario.transactions, idle.transactions),
    rowsWritten,
    redisCommands,
  };
}

const fixed = (value: number) => (value >= 10 ? value.toFixed(0) : value.toFixed(2));

/** Each kind of work's CPU per unit (all processes), with statements, rows written and queue commands beside it. */
export function costRows(section: string, r: CostResult): Row[] {
  return r.scenarios.map((scenario) => {
    const unit = perUnit(scenario, r.idle);
    const cpuTotal = CPU_GROUPS.reduce((sum, group) => sum + unit.cpuMs[group], 0);
    const cpu = CPU_GROUPS.map((group) => `${CPU_LABELS[group]} ${unit.cpuMs[group].toFixed(3)}`).join(', ');
    const rows = Object.entries(unit.rowsWritten)
      .filter(([, written]) => written >= 0.01)
      .sort(([, a], [, b]) => b - a)
      .map(([table, written]) => `${table} ${fixed(written)}`)
      .join(', ');
    const redisTotal = Object.values(unit.redisCommands).reduce((sum, calls) => sum + calls, 0);
    const redis = Object.keys(unit.redisCommands).length ? `; Redis commands ${fixed(redisTotal)}` : '';
    return {
      section,
      metric: `cost: ${scenario.name}, CPU per ${scenario.unit}`,
      value: cpuTotal,
      unit: 'ms',
      note:
        `CPU ms ${cpu}; statements api ${fixed(unit.statements.api)} + worker ${fixed(unit.statements.worker)}` +
        ` (${fixed(unit.transactions)} commits); rows written ${rows}${redis}; ${scenario.units} ${scenario.unit === 'delivery' ? 'deliveries' : 'triggers'}`,
    };
  });
}
