import type { InboxResult } from './inbox.js';
import type { Ceilings } from './report.js';
import { ceilingRatios, cpuRow, type Row, type Target } from './report-rows.js';
import type { SocketLatency } from './socket-latency.js';

function roundsNote(latency: SocketLatency): string {
  const incomplete = latency.rounds.filter((r) => !r.complete).length;
  const problems = latency.rounds.reduce((sum, r) => sum + r.duplicates + r.wrongRecipients, 0);
  return [
    `medians of ${latency.rounds.length} rounds, last per round: ${latency.rounds.map((r) => r.lastMs ?? '-').join(', ')} ms`,
    incomplete
      ? `INCOMPLETE rounds ${incomplete} (${latency.rounds.map((r) => `${r.received}/${r.expected}`).join(', ')})`
      : '',
    problems ? `duplicates or wrong recipients: ${problems}` : '',
  ]
    .filter(Boolean)
    .join('; ');
}

export function socketCeilingRows(ceilings: Ceilings): Row[] {
  const rows: Row[] = [];
  const bare = ceilings.socketIo;
  if (bare) {
    rows.push({
      section: 'ceiling',
      metric: `bare socket.io RSS, ${bare.connect.connected} sockets`,
      value: bare.rssMb,
      unit: 'MB',
      note: `connected in ${bare.connect.seconds.toFixed(1)} s, ${bare.connect.failed} failed`,
    });
    for (const [name, value] of [
      ['p50', bare.p50Ms],
      ['p99', bare.p99Ms],
      ['last', bare.lastMs],
    ] as const)
      rows.push({
        section: 'ceiling',
        metric: `bare socket.io 201 → event ${name}, ${bare.topicSize} rooms`,
        value,
        unit: 'ms',
        note: name === 'last' ? roundsNote(bare) : undefined,
      });
  }
  const list = ceilings.fastifyInboxList;
  if (list)
    rows.push({
      section: 'ceiling',
      metric: 'bare Fastify GET inbox page',
      value: list.requestsPerSecond,
      unit: 'req/s',
      note: `p99 ${list.p99Ms} ms`,
    });
  return rows;
}

/** Targets are the issue's: RSS with 10,000 sockets, 201 → last event for a 1,000-member topic, list p99. */
export function inboxRows(section: string, inbox: InboxResult, ceilings: Ceilings): Row[] {
  const bare = ceilings.socketIo;
  const full = inbox.connect.sockets >= 10_000 && inbox.topicSize >= 1_000;
  const t = (target: Target) => (full ? target : undefined);
  const rows: Row[] = [
    {
      section,
      metric: 'inbox sessions created',
      value: inbox.sessions.perSecond,
      unit: 'sessions/s',
      note: `${inbox.sessions.count} sessions in ${inbox.sessions.seconds.toFixed(1)} s (POST /v1/inbox/session, 20 at a time)`,
    },
    {
      section,
      metric: 'inbox sockets connected',
      value: inbox.connect.connected,
      unit: 'count',
      target: t({ op: '>=', value: inbox.connect.sockets }),
      note: `in ${inbox.connect.seconds.toFixed(1)} s, ${inbox.connect.failed} failed${inbox.connect.firstError ? `: ${inbox.connect.firstError}` : ''}`,
    },
    {
      section,
      metric: `api RSS with ${inbox.connect.connected} sockets`,
      value: inbox.apiRssMb,
      unit: 'MB',
      target: t({ op: '<=', value: 800 }),
      ratios: ceilingRatios(inbox.apiRssMb, [['bare socket.io RSS', bare?.rssMb]]),
      note: `idle sockets; peak over the inbox scenario ${inbox.apiPeakRssMb ?? '-'} MB, worker ${inbox.workerPeakRssMb ?? '-'} MB`,
    },
  ];
  for (const [name, value, bound] of [
    ['p50', inbox.p50Ms, bare?.p50Ms],
    ['p99', inbox.p99Ms, bare?.p99Ms],
    ['last', inbox.lastMs, bare?.lastMs],
  ] as const)
    rows.push({
      section,
      metric: `topic trigger 201 → notification_received ${name}, ${inbox.topicSize} sockets`,
      value,
      unit: 'ms',
      target: name === 'p50' ? undefined : t({ op: '<=', value: 250 }),
      ratios: ceilingRatios(value, [['bare socket.io', bound]]),
      note: name === 'last' ? roundsNote(inbox) : undefined,
    });
  // The socket client processes count as `other`.
  rows.push(
    ...cpuRow(section, '  CPU from each 201 to its last event', inbox.cpu, {
      units: inbox.topicSize * inbox.rounds.length,
      unit: 'delivery',
    }),
  );
  const list = inbox.list;
  rows.push({ section, metric: 'inbox list p50', value: list.p50Ms, unit: 'ms' });
  rows.push({
    section,
    metric: 'inbox list p99',
    value: list.p99Ms,
    unit: 'ms',
    target: t({ op: '<=', value: 20 }),
    ratios: ceilingRatios(list.requestsPerSecond, [
      ['bare Fastify (req/s)', ceilings.fastifyInboxList?.requestsPerSecond],
    ]),
    note: [
      `${list.requestsPerSecond.toFixed(0)} req/s, non-2xx ${list.non2xx + list.errors}${list.firstError ? `: ${list.firstError}` : ''}`,
      `~${inbox.listNotificationsPerSubscriber} notifications per listed subscriber, ${inbox.listSessions} sessions in turn`,
    ].join('; '),
  });
  return rows;
}
