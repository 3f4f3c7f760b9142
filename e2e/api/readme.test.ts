import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, newAccount, type TestAccount } from './support/api';

// The README's curl examples, run as a reader would paste them (sh, curl, $TOKEN), against the suite's server: each
// must answer 200 with the shape of the `# {...}` line under it: every key shown, each value of the type shown, every
// array item shaped as the one shown, and a string shown as `MAN-…` starting with `MAN-`.

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

interface Example {
  line: number;
  command: string;
  expected: string;
}

/** Every curl command of every ```sh block that has one, with the answer its `# ` line shows. */
function curlExamples(markdown: string): Example[] {
  const examples: Example[] = [];
  for (const block of markdown.matchAll(/^```sh\n([\s\S]*?)^```/gm)) {
    if (!/^curl /m.test(block[1])) continue;
    const firstLine = markdown.slice(0, block.index).split('\n').length + 1;
    let command: string[] = [];
    let start = 0;
    block[1].split('\n').forEach((text, i) => {
      if (command.length === 0) {
        if (text.trim() === '') return;
        if (!text.startsWith('curl '))
          throw new Error(`README.md:${firstLine + i}: a line of a curl block that is not a curl command`);
        start = firstLine + i;
      }
      if (text.startsWith('# ')) {
        examples.push({ line: start, command: command.join('\n'), expected: text.slice(2) });
        command = [];
      } else command.push(text);
    });
    if (command.length > 0) throw new Error(`README.md:${start}: a curl command with no "# {...}" answer under it`);
  }
  return examples;
}

/** The `# ` line as JSON: `,…` (more items like these) dropped; a `…` inside a string stays, read as a prefix. */
function shown(text: string): unknown {
  return JSON.parse(text.replace(/,\s*…(?=\s*[\]}])/g, ''));
}

function kind(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** Where `actual` departs from the shape of `expected`, one line per place. */
function departures(actual: unknown, expected: unknown, at = '$'): string[] {
  if (kind(actual) !== kind(expected))
    return [`${at}: ${kind(expected)} shown, ${kind(actual)} answered (${JSON.stringify(actual)})`];
  if (Array.isArray(expected)) {
    const items = actual as unknown[];
    if (expected.length === 0) return [];
    if (items.length === 0) return [`${at}: items shown, none answered`];
    return items.flatMap((item, i) => departures(item, expected[0], `${at}[${i}]`));
  }
  if (kind(expected) === 'object') {
    const record = actual as Record<string, unknown>;
    return Object.entries(expected as Record<string, unknown>).flatMap(([key, value]) =>
      key in record ? departures(record[key], value, `${at}.${key}`) : [`${at}.${key}: shown, not answered`],
    );
  }
  if (typeof expected === 'string' && expected.includes('…')) {
    const prefix = expected.slice(0, expected.indexOf('…'));
    return (actual as string).startsWith(prefix) ? [] : [`${at}: "${expected}" shown, "${actual as string}" answered`];
  }
  return [];
}

function sh(command: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('sh', ['-c', command], { env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command}\nfailed: ${stderr}`, { cause: error })) : resolve(stdout),
    );
  });
}

const examples = curlExamples(README);
let acme: TestAccount;
beforeAll(async () => {
  await sh('curl --version', {}).catch((error: unknown) => {
    throw new Error('the README examples run with curl, which this machine lacks', { cause: error });
  });
  acme = await newAccount('Acme Parcels');
});

describe("the README's curl examples", () => {
  it('are there to run', () => {
    expect(examples.length).toBeGreaterThanOrEqual(3);
  });

  it.each(examples)('README.md:$line answers 200 in the shape shown under it', async ({ command, expected }) => {
    expect(command).toContain('http://localhost:3000/');
    const runnable = command.replaceAll('http://localhost:3000', baseUrl).replace(/^curl /, `curl -w '\\n%{http_code}' `);
    const output = await sh(runnable, { TOKEN: acme.tokens.test });
    const status = output.slice(output.lastIndexOf('\n') + 1);
    const body = output.slice(0, output.lastIndexOf('\n'));
    expect(status, body).toBe('200');
    expect(departures(JSON.parse(body), shown(expected)), body).toEqual([]);
  });
});

describe('the shape check', () => {
  it('refuses a missing key, another type, a missing item, and a prefix that does not hold', () => {
    const shape = shown('{"rates":[{"amount":"28.12","zone":8},…],"ManifestID":"MAN-…","IsSuccess":true}');
    expect(departures({ rates: [{ amount: '1.00', zone: 2 }], ManifestID: 'MAN-1', IsSuccess: false }, shape)).toEqual([]);
    expect(departures({ rates: [{ zone: 2 }], ManifestID: 'MAN-1', IsSuccess: true }, shape)).toEqual([
      '$.rates[0].amount: shown, not answered',
    ]);
    expect(departures({ rates: [{ amount: 1, zone: 2 }], ManifestID: 'MAN-1', IsSuccess: 'true' }, shape)).toEqual([
      '$.rates[0].amount: string shown, number answered (1)',
      '$.IsSuccess: boolean shown, string answered ("true")',
    ]);
    expect(departures({ rates: [], ManifestID: 'PKG-1', IsSuccess: true }, shape)).toEqual([
      '$.rates: items shown, none answered',
      '$.ManifestID: "MAN-…" shown, "PKG-1" answered',
    ]);
  });

  it('reads every curl command of the README with the answer under it', () => {
    expect(() => curlExamples('```sh\ncurl -s http://localhost:3000/x\n```\n')).toThrow(/no "# \{...\}" answer/);
    expect(() => curlExamples('```sh\nnpm start\ncurl -s http://localhost:3000/x\n# {}\n```\n')).toThrow(/not a curl command/);
    expect(curlExamples('```sh\nnpm start\n```\n\n```sh\ncurl -s \\\n  http://localhost:3000/x\n# {"a":1}\n```\n')).toEqual([
      { line: 6, command: 'curl -s \\\n  http://localhost:3000/x', expected: '{"a":1}' },
    ]);
  });
});
