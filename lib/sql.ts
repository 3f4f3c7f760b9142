import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

// The one way the code writes SQL by hand (docs/decisions/data-access.md): every interpolated value is a bind parameter
// and fragments compose (sql.join, sql.empty, sql.id). There is deliberately no way to splice a runtime string in as
// text: SQL text only ever comes from template literals in the source.

export type SqlScalar = string | number | bigint | boolean | Date | null;
export type SqlValue = SqlParam | Sql<unknown>;
export type SqlParam = SqlScalar | Buffer | readonly SqlScalar[];

export class Sql<Row = Record<string, unknown>> {
  readonly #parts: readonly string[];
  readonly #params: SqlParam[];
  readonly name: string | undefined;
  #text: string | undefined;
  /** Never set: carries the row type to queryRows(). */
  declare readonly rowType?: Row;

  /** @internal Use the sql`` tag. */
  constructor(parts: readonly string[], params: SqlParam[], name?: string) {
    if (parts.length !== params.length + 1) throw new Error('sql: one more text piece than parameters expected');
    this.#parts = parts;
    this.#params = params;
    this.name = name;
  }

  get text(): string {
    if (this.#text === undefined) {
      let text = this.#parts[0] ?? '';
      for (let i = 1; i < this.#parts.length; i++) text += `$${i}${this.#parts[i] ?? ''}`;
      this.#text = text;
    }
    return this.#text;
  }

  get values(): readonly SqlParam[] {
    return this.#params;
  }

  /** @internal The pieces, for splicing into another statement. */
  get parts(): readonly string[] {
    return this.#parts;
  }

  // Only for statements whose text never varies: pg refuses a name reused with another text.
  prepared(name: string): Sql<Row> {
    return new Sql<Row>(this.#parts, this.#params, name);
  }

  toQuery(): { text: string; values: unknown[]; name?: string } {
    const query: { text: string; values: unknown[]; name?: string } = { text: this.text, values: this.#params };
    if (this.name !== undefined) query.name = this.name;
    return query;
  }
}

function isTemplate(strings: TemplateStringsArray): boolean {
  // A real template's strings are frozen and carry `raw`; an array built at run time (maybe from input) is not.
  return (
    Array.isArray(strings) && Object.isFrozen(strings) && Array.isArray(strings.raw) && strings.length === strings.raw.length
  );
}

function refusal(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${String(value)}, not a finite number`;
    case 'object':
      if (value === null) return undefined;
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'an invalid Date' : undefined;
      return 'an object; pass JSON.stringify(value) and cast it, or a sql`` fragment';
    default:
      // undefined is a bug (a missing field), not NULL: say so rather than store NULL.
      return `${typeof value}; only strings, numbers, bigints, booleans, Dates, null, Buffers, arrays and sql\`\` fragments`;
  }
}

function checkValue(value: unknown, index: number): void {
  if (value instanceof Sql || Buffer.isBuffer(value)) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item instanceof Sql) throw new TypeError(`sql: value ${index + 1} is an array holding a fragment; use sql.join`);
      const why = refusal(item);
      if (why !== undefined) throw new TypeError(`sql: value ${index + 1}[${i}] is ${why}`);
    }
    return;
  }
  const why = refusal(value);
  if (why !== undefined) throw new TypeError(`sql: value ${index + 1} is ${why}`);
}

export function sql<Row = Record<string, unknown>>(strings: TemplateStringsArray, ...values: SqlValue[]): Sql<Row> {
  if (!isTemplate(strings)) throw new TypeError('sql must be used as a template tag: sql`…`');
  const first = strings[0] ?? '';
  if (values.length === 0) return new Sql<Row>([first], []);
  const parts: string[] = [first];
  const params: SqlParam[] = [];
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    checkValue(value, i);
    const after = strings[i + 1] ?? '';
    if (value instanceof Sql) {
      const inner = value.parts;
      const innerValues = value.values;
      parts[parts.length - 1] += inner[0] ?? '';
      for (let j = 0; j < innerValues.length; j++) {
        params.push(innerValues[j] ?? null);
        parts.push(inner[j + 1] ?? '');
      }
      parts[parts.length - 1] += after;
    } else {
      params.push(value ?? null);
      parts.push(after);
    }
  }
  return new Sql<Row>(parts, params);
}

sql.empty = new Sql<never>([''], []);

sql.join = function join(fragments: readonly Sql<unknown>[], separator: Sql<unknown> = sql`, `): Sql<never> {
  const parts: string[] = [''];
  const params: SqlParam[] = [];
  const append = (fragment: Sql<unknown>) => {
    const inner = fragment.parts;
    parts[parts.length - 1] += inner[0] ?? '';
    fragment.values.forEach((param, j) => {
      params.push(param);
      parts.push(inner[j + 1] ?? '');
    });
  };
  fragments.forEach((fragment, i) => {
    if (!(fragment instanceof Sql)) throw new TypeError(`sql.join: item ${i + 1} is not a sql\`\` fragment`);
    if (i > 0) append(separator);
    append(fragment);
  });
  return new Sql<never>(parts, params);
};

// Refuses what PostgreSQL would not keep as given: empty, NUL, over 63 bytes.
sql.id = function id(...names: string[]): Sql<never> {
  if (names.length === 0) throw new TypeError('sql.id: no name');
  const quoted = names.map((name) => {
    if (typeof name !== 'string' || name.length === 0) throw new TypeError('sql.id: an empty name');
    if (name.includes('\u0000')) throw new TypeError('sql.id: a name with NUL');
    if (Buffer.byteLength(name, 'utf8') > 63) throw new TypeError('sql.id: a name over 63 bytes (PostgreSQL would cut it)');
    return `"${name.replaceAll('"', '""')}"`;
  });
  return new Sql<never>([quoted.join('.')], []);
};

export interface Queryable {
  query<R extends pg.QueryResultRow>(config: pg.QueryConfig<unknown[]>): Promise<pg.QueryResult<R>>;
}

export async function queryRows<Row>(on: Queryable, statement: Sql<Row>): Promise<Row[]> {
  const result = await on.query<Row & pg.QueryResultRow>(statement.toQuery());
  return result.rows;
}

export async function queryRow<Row>(on: Queryable, statement: Sql<Row>): Promise<Row | undefined> {
  const result = await on.query<Row & pg.QueryResultRow>(statement.toQuery());
  return result.rows[0];
}

export async function execute(on: Queryable, statement: Sql<unknown>): Promise<number> {
  const result = await on.query(statement.toQuery());
  return result.rowCount ?? 0;
}

const guardedClients = new WeakSet<pg.ClientBase>();

// COPY takes no parameters, and holds its connection until the end.
export async function copyIn(client: pg.ClientBase, statement: Sql<unknown>, text: string | Buffer): Promise<void> {
  const query = statement.toQuery();
  if (query.values.length > 0) throw new Error('a COPY statement takes no parameters');
  // A backend dying mid-COPY makes the client emit 'error', and a pool's lent client has no listener: one per client.
  if (!guardedClients.has(client)) {
    guardedClients.add(client);
    client.on('error', () => undefined);
  }
  const stream = client.query(copyFrom(query.text));
  await new Promise<void>((resolve, reject) => {
    stream.on('error', reject);
    stream.on('finish', resolve);
    stream.end(typeof text === 'string' ? Buffer.from(text) : text);
  });
}
