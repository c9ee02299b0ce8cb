import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// CI clones the repository with the shared folder beside it.
const ROOT = process.cwd();
const SPEC_PATH = resolve(ROOT, '../shared/spec/api-spec.md');
const README_PATH = join(ROOT, 'README.md');

type FieldsByItem = Map<string, Set<string>>;

// Words that open a note rather than name a field in the spec's inline lists ("all required", "written as ...").
const NOT_FIELD_NAMES = new Set(['all', 'each', 'both', 'written', 'required', 'min', 'enum', 'optional']);
const LABEL_RENAMES: Record<string, string> = { 'Item fields': 'Notification list item', 'Job fields': 'Job' };

function add(fields: FieldsByItem, item: string, names: Iterable<string>): void {
  const set = fields.get(item) ?? new Set<string>();
  for (const name of names) set.add(name);
  fields.set(item, set);
}

/** Splits on commas and semicolons that are not inside brackets. */
function splitTopLevel(text: string): string[] {
  const pieces: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if ('({['.includes(char)) depth++;
    if (')}]'.includes(char)) depth--;
    if (depth === 0 && (char === ',' || char === ';')) {
      pieces.push(current);
      current = '';
    } else current += char;
  }
  return [...pieces, current].map((piece) => piece.trim()).filter(Boolean);
}

/** The nested field list a piece describes: `{a, b}`, `(object: a, b)`, `(object with a, b)`, `(step shape with a)`. */
function nestedList(rest: string): string | undefined {
  const inner = /^\((.*)\)$/s.exec(rest.trim())?.[1] ?? rest;
  const words = /(?:object:|\bobject with|\bshape with)\s+(.*)$/s.exec(inner);
  const braces = /\{(.*)\}/s.exec(inner);
  // The outer form wins: `(object: a, timed {b})` lists a and timed; timed's braces are its own.
  if (words && (!braces || words.index < braces.index)) return words[1];
  return braces?.[1];
}

/** Field names of an inline list; nested lists give dotted names (`subscriber.firstName`). */
function listFields(text: string, nest: boolean, prefix = ''): string[] {
  const names: string[] = [];
  for (const piece of splitTopLevel(text)) {
    const match = /^([A-Za-z_$][\w$-]*)\??(.*)$/s.exec(piece);
    if (!match) continue;
    const [, name, rest] = match;
    // A nested list ends where its enumeration of values starts ("textAlign, enum center, left, right").
    if (prefix && name === 'enum') break;
    if (NOT_FIELD_NAMES.has(name)) continue;
    names.push(prefix + name);
    const nested = nest ? nestedList(rest) : undefined;
    if (nested) names.push(...listFields(nested, true, `${prefix}${name}.`));
  }
  return names;
}

function tableRows(lines: string[], start: number): string[][] {
  const rows: string[][] = [];
  for (let i = start; i < lines.length && lines[i].startsWith('|'); i++) {
    rows.push(
      lines[i]
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows.filter((row) => !row.every((cell) => /^:?-+:?$/.test(cell)));
}

/** Every field the spec names, by spec item (resource, operation, or `All operations` / `Limits`). */
function specFields(spec: string): FieldsByItem {
  const fields: FieldsByItem = new Map();
  const lines = spec.split('\n');
  let section = '';
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('## ')) [section, heading] = [line.slice(3).trim(), ''];
    else if (line.startsWith('### ')) {
      heading = line.slice(4).split(' (')[0].split(' and ')[0].trim();
      // An operation is a spec item even when it takes no parameters.
      if (section === 'Endpoints') add(fields, heading, []);
    } else if (line.startsWith('|') && !lines[i - 1].startsWith('|')) {
      const [header, ...rows] = tableRows(lines, i);
      if (header[0] === 'Field' || header[0] === 'Parameter')
        add(
          fields,
          heading,
          rows.map((row) => row[0]).flatMap((cell) => listFields(cell, false)),
        );
      if (header[0] === 'Limit')
        add(
          fields,
          'Limits',
          rows.map((row) => row[0]),
        );
      if (header[0] === 'Form')
        for (const row of rows) add(fields, `Step metadata: ${row[0]}`, ['type', ...listFields(row[2], false)]);
      if (header[0] === 'Type') for (const row of rows) add(fields, row[0], listFields(row[1], false));
    } else if (section === 'Endpoints' || section === 'Authentication') {
      for (const header of line.matchAll(/header `([\w-]+)/g)) add(fields, 'All operations', [header[1]]);
      const parameters = /^- (?:Path|Query|Body \(JSON[^)]*\)): (.*)$/.exec(line)?.[1];
      if (parameters && heading) add(fields, heading, listFields(parameters.replace(/\. No body\.$/, ''), false));
      if (line.startsWith('- A recipient object of subscriber form has:'))
        add(fields, 'Trigger recipient', listFields(line.split(':').slice(1).join(':'), true));
    } else if (section === 'Resources and their fields') {
      const credentials = /^IntegrationCredentials \(all optional\)\. (.*)$/.exec(line)?.[1];
      if (credentials) {
        for (const group of credentials.matchAll(/(?:String|Boolean|Object) fields?: ([^.]*)\./g))
          add(fields, 'IntegrationCredentials', listFields(group[1], false));
        continue;
      }
      const inline = /^([A-Z][A-Za-z ]*?)(?: \(all optional\))?: (.+)$/.exec(line);
      if (!inline || inline[2].endsWith('not shown.') || /^(Conventions|Allowed values)/.test(inline[1])) continue;
      add(fields, LABEL_RENAMES[inline[1]] ?? inline[1], listFields(inline[2], true));
    }
  }
  return fields;
}

interface CoverageRow {
  item: string;
  fields: string[];
  shownBy: string;
}

function coverageRows(readme: string): CoverageRow[] {
  const section = /\n## Spec coverage\n([\s\S]*?)(?=\n## |$)/.exec(readme)?.[1];
  if (!section) throw new Error('README.md has no "## Spec coverage" section');
  const lines = section.split('\n');
  const start = lines.findIndex((line) => line.startsWith('|'));
  const [, ...rows] = tableRows(lines, start);
  return rows.map(([item, fields, , shownBy]) => ({
    item: item.replace(/`/g, '').trim(),
    fields: [...fields.matchAll(/`([^`]+)`/g)].map((match) => match[1]),
    shownBy,
  }));
}

function specText(): string {
  if (!existsSync(SPEC_PATH)) throw new Error(`The API specification is missing: expected it at ${SPEC_PATH}`);
  return readFileSync(SPEC_PATH, 'utf8');
}

describe('README "Spec coverage" covers every field of the API specification', () => {
  const spec = specFields(specText());
  const rows = coverageRows(readFileSync(README_PATH, 'utf8'));

  it('the parser finds the spec items and their fields', () => {
    expect(spec.get('Subscriber')).toContain('subscriberId');
    expect(spec.get('Job')).toContain('digest.timed.cronExpression');
    expect(spec.get('IntegrationCredentials')).toContain('tlsOptions');
    expect(spec.get('10. Get notifications')).toContain('topicKey');
    expect(spec.get('All operations')).toContain('idempotency-key');
  });

  it('names every spec field in a row of its spec item', () => {
    const listed = new Map<string, Set<string>>();
    for (const row of rows) add(listed, row.item, row.fields);
    const missing = [...spec].flatMap(([item, names]) =>
      [...names].filter((name) => !listed.get(item)?.has(name)).map((name) => `${item}: ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('names only spec items and their fields', () => {
    const unknown = rows.flatMap((row) =>
      spec.has(row.item)
        ? row.fields.filter((name) => !spec.get(row.item)!.has(name)).map((name) => `${row.item}: ${name}`)
        : [`unknown spec item: ${row.item}`],
    );
    expect(unknown).toEqual([]);
  });

  it('says for every row what shows it, and every test file it names exists', () => {
    expect(rows.filter((row) => row.shownBy === '').map((row) => row.item)).toEqual([]);
    const named = rows.flatMap((row) =>
      [...row.shownBy.matchAll(/[\w./-]+\.(?:e2e|spec)\.ts/g)].map((match) => match[0]),
    );
    expect(named.length).toBeGreaterThan(0);
    expect([...new Set(named)].filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });
});
