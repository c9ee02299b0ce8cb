import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseConfig } from '#common';
import { TemplateEngine, type TemplateVariables } from './template-engine.js';
import { TemplateLimitError, TemplateRenderError } from './template-errors.js';

const engine = new TemplateEngine(parseConfig({}));
/** Renders large-but-allowed templates without tripping the wall-clock limit on a loaded machine. */
const unhurried = new TemplateEngine(parseConfig({ TEMPLATE_RENDER_TIME_LIMIT_MS: '10000' }));
const variables = (
  firstName = 'Ann',
  payload: Record<string, unknown> = { count: 2, items: ['a', 'b'] },
): TemplateVariables => ({
  subscriber: { firstName },
  payload,
  actor: null,
  tenant: null,
  step: {},
});

/** Text of files a template might try to reach: none of it may ever come out of a render or an error. */
const secrets = [readFileSync('package.json', 'utf8').slice(0, 60), readFileSync('README.md', 'utf8').slice(0, 60)];

const FILE_PROBES = [
  `{% render 'package.json' %}`,
  `{% render ".data/encryption.key" %}`,
  `{% include 'README.md' %}`,
  `{% include "package.json" %}`,
  `{% layout 'README.md' %}x`,
  `{% render '/etc/passwd' %}`,
  `{% include '../main/package.json' %}`,
  `{% render payload.file %}`,
  `{%- render 'package' -%}`,
  `{% liquid\n render 'package.json'\n %}`,
];

async function outcome(source: string, vars = variables()): Promise<{ output?: string; error?: Error }> {
  try {
    return { output: await engine.renderString(source, vars) };
  } catch (error) {
    return { error: error as Error };
  }
}

describe('TemplateEngine', () => {
  it('renders every string of a template, keeping its shape; a template parsed once renders for each set of variables', async () => {
    const template = {
      type: 'in_app',
      content: 'Hi {{subscriber.firstName}}, {{payload.count}} new',
      cta: { data: { url: '/x/{{payload.items | join: "-"}}' } },
    };
    expect(await engine.render(template, variables('Ann'))).toEqual({
      type: 'in_app',
      content: 'Hi Ann, 2 new',
      cta: { data: { url: '/x/a-b' } },
    });
    expect(await engine.render(template, variables('Bo'))).toEqual({
      type: 'in_app',
      content: 'Hi Bo, 2 new',
      cta: { data: { url: '/x/a-b' } },
    });
  });

  it('unknown variables render empty; a syntax error or an unknown filter is a TemplateRenderError naming the field, every time', async () => {
    expect(await engine.render({ content: '[{{nope.deeper}}]' }, variables())).toEqual({ content: '[]' });
    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(engine.render({ content: 'Hi {{ subscriber.firstName ' }, variables())).rejects.toThrow(
        TemplateRenderError,
      );
      await expect(engine.render({ subject: '{{ payload.count | no_such_filter }}' }, variables())).rejects.toThrow(
        /template\.subject/,
      );
    }
  });

  it('escapes variables in HTML fields unless the last filter is raw; other fields stay text', async () => {
    const hostile = variables('<b>Ann</b>', { html: '<script>alert(1)</script>', name: 'Tom & "Jerry"' });
    const template = {
      subject: 'Hi {{ subscriber.firstName }}',
      content: '<p>{{ payload.html }} {{ payload.name | upcase }}</p>{{ payload.html | raw }}',
      cta: { data: { url: '/u/{{ payload.name }}' } },
    };
    expect(await engine.render(template, hostile, { htmlFields: ['content'] })).toEqual({
      subject: 'Hi <b>Ann</b>',
      content: '<p>&lt;script&gt;alert(1)&lt;/script&gt; TOM &amp; &#34;JERRY&#34;</p><script>alert(1)</script>',
      cta: { data: { url: '/u/Tom & "Jerry"' } },
    });
    expect(await engine.render(template, hostile)).toMatchObject({
      content: '<p><script>alert(1)</script> TOM & "JERRY"</p><script>alert(1)</script>',
    });
  });

  it('refuses every tag that loads a file or another template, at parse, without reading anything', async () => {
    for (const probe of FILE_PROBES) {
      expect(engine.check(probe)).toMatch(/is not available: templates cannot load files/);
      const { output, error } = await outcome(probe);
      expect(output).toBeUndefined();
      expect(error).toBeInstanceOf(TemplateRenderError);
      for (const secret of secrets) expect(error!.message).not.toContain(secret);
    }
  });

  it('names each field that does not parse, by its path, and accepts valid ones', () => {
    const template = {
      type: 'email',
      subject: '{% if %}x',
      content: [
        { type: 'text', content: 'ok {{ payload.x }}' },
        { type: 'text', content: '{% render "a" %}' },
      ],
      cta: { data: { url: '{{ x | nope }}' } },
    };
    expect(Object.keys(engine.errorsOf(template, 'steps[0].template')).sort()).toEqual([
      'steps[0].template.content[1].content',
      'steps[0].template.cta.data.url',
      'steps[0].template.subject',
    ]);
    expect(
      engine.errorsOf(
        { content: 'Hi {{ subscriber.firstName | upcase }}{% for i in payload.items %}{{ i }}{% endfor %}' },
        't',
      ),
    ).toEqual({});
  });

  it.each([
    ['a huge loop', '{% for i in (1..100000000) %}x{% endfor %}', /memory limit/],
    [
      'nested loops',
      '{% for i in (1..3000) %}{% for j in (1..3000) %}{% for k in (1..3000) %}x{% endfor %}{% endfor %}{% endfor %}',
      /render time limit|memory limit/,
    ],
    [
      'a string doubled by assign',
      '{% assign s = "xxxxxxxxxx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s }}',
      /memory limit/,
    ],
    [
      'a long filter chain',
      `{{ "x"${' | append: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"'.repeat(3000)} }}`,
      /render time limit|memory limit/,
    ],
    ['a loop printing a large value', '{% for i in (1..100000) %}{{ payload.big }}{% endfor %}', /memory limit/],
    [
      'capture of a loop',
      '{% capture c %}{% for i in (1..100000) %}{{ payload.big }}{% endfor %}{% endcapture %}{{ c | size }}',
      /memory limit/,
    ],
    [
      'sorting a large array again and again',
      `{{ payload.many${' | sort | reverse'.repeat(400)} | size }}`,
      /render time limit|memory limit/,
    ],
    ['output beyond the size cap', '{% for i in (1..30) %}{{ payload.big }}{% endfor %}', /output size limit/],
  ])('stops %s with a limit error within a bounded time', async (_name, source, limit) => {
    const payload = { big: 'y'.repeat(10_000), many: Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 20_000) };
    const started = performance.now();
    const { output, error } = await outcome(source, variables('Ann', payload));
    expect(output).toBeUndefined();
    expect(error).toBeInstanceOf(TemplateLimitError);
    expect(error!.message).toMatch(/^Template of content exceeded the /);
    expect(error!.message).toMatch(limit);
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it.each([
    ['blocks', `${'{% if true %}'.repeat(5_000)}x${'{% endif %}'.repeat(5_000)}`],
    ['cases', `${'{% case x %}{% when 1 %}'.repeat(3_000)}${'{% endcase %}'.repeat(3_000)}`],
    ['tags of a liquid tag', `{% liquid\n${'if true\n'.repeat(5_000)}echo 1\n${'endif\n'.repeat(5_000)}%}`],
    ['ranges', `{% for i in ${'('.repeat(5_000)}1..2${')'.repeat(5_000)} %}{% endfor %}`],
    ['lookups', `{{ payload${'[payload'.repeat(5_000)}${']'.repeat(5_000)} }}`],
  ])('refuses %s nested deeper than the limit, at save and at render, as a limit error', async (_name, deep) => {
    expect(engine.check(deep)).toMatch(/nesting depth limit exceeded \(100 levels\)/);
    await expect(engine.renderString(deep, variables())).rejects.toThrow('nesting depth limit (100 levels)');
  });

  it('renders nesting up to the limit', async () => {
    const atLimit = `${'{% if true %}'.repeat(100)}x${'{% endif %}'.repeat(100)}`;
    await expect(engine.renderString(atLimit, variables())).resolves.toBe('x');
    const siblings = '{% if true %}a{% endif %}'.repeat(500);
    await expect(engine.renderString(siblings, variables())).resolves.toBe('a'.repeat(500));
    expect(engine.check(`${'{% for i in (1..2) %}'.repeat(101)}${'{% endfor %}'.repeat(101)}`)).toMatch(/nesting/);
  });

  it('applies the configured limits', async () => {
    const strict = new TemplateEngine(
      parseConfig({
        TEMPLATE_MEMORY_LIMIT: '10000',
        TEMPLATE_OUTPUT_LIMIT_BYTES: '1000',
        TEMPLATE_SOURCE_LIMIT_CHARS: '1000',
      }),
    );
    await expect(strict.renderString('{% for i in (1..20000) %}{% endfor %}', variables())).rejects.toThrow(
      'memory limit (10000)',
    );
    await expect(
      strict.renderString('{{ "abcdefghij" | append: "x" }}{% for i in (1..1000) %}{{ i }}{% endfor %}', variables()),
    ).rejects.toThrow('output size limit (1000 bytes)');
    expect(strict.check(`{{ x }}${' '.repeat(1000)}`)).toMatch(/parse length limit/);
    // The same source passes the default memory limit.
    await expect(unhurried.renderString('{% for i in (1..20000) %}{% endfor %}', variables())).resolves.toBe('');
  });

  it('lets the event loop run between renders', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const source = '{% for i in (1..20000) %}{% endfor %}{{ subscriber.firstName }}';
    const started = performance.now();
    try {
      for (let i = 0; i < 40; i++) await unhurried.renderString(source, variables(`n${i}`));
    } finally {
      clearInterval(timer);
    }
    const elapsed = performance.now() - started;
    // One timer turn at least every ~20 ms of rendering (plus one render).
    expect(ticks).toBeGreaterThanOrEqual(Math.floor(elapsed / 100));
  });

  it('finishes generated templates within the limits or fails with a template error; never reads a file', async () => {
    const fragment = fc.oneof(
      fc.constantFrom(
        '{{ payload.items }}',
        '{{ subscriber.firstName | upcase }}',
        '{% for i in (1..5000) %}',
        '{% for x in payload.items %}',
        '{% endfor %}',
        '{% if payload.count > 1 %}',
        '{% endif %}',
        '{% assign s = s | append: payload.big %}',
        '{{ s }}',
        '{% capture c %}',
        '{% endcapture %}',
        '{{ c }}',
        '{% render "package.json" %}',
        '{% include "README.md" %}',
        '{% layout "README.md" %}',
        '{{ payload.big | split: "" | join: "," }}',
        '{% tablerow i in (1..3000) %}{{ i }}{% endtablerow %}',
        '{% cycle "a", "b" %}',
        '{{ "now" | date: "%Y" }}',
      ),
      fc.string({ maxLength: 8 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fragment, { maxLength: 12 }), async (fragments) => {
        const started = performance.now();
        const { output, error } = await outcome(
          fragments.join(''),
          variables('Ann', { count: 2, items: ['a', 'b', 'c'], big: 'z'.repeat(5_000) }),
        );
        expect(performance.now() - started).toBeLessThan(2_000);
        if (error) expect(error).toBeInstanceOf(TemplateRenderError);
        for (const secret of secrets) expect(`${output ?? ''}${error?.message ?? ''}`).not.toContain(secret);
      }),
      { numRuns: 300 },
    );
  });
});
