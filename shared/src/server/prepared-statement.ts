import type { Knex } from 'knex';
import type { QueryResult, QueryResultRow } from 'pg';
import { namedStatementsAllowed } from './db';

/**
 * A statement Postgres parses and plans once per connection instead of on every call
 * (knex only sends unnamed statements). For hot paths with a large fixed statement.
 * Write the SQL with `:name` placeholders (a `::type` cast is left alone); values are
 * passed by name. Through a transaction pooler it goes unnamed (planned on every call): a
 * name prepared on one server connection does not exist on the next.
 */
export function preparedStatement<Row extends QueryResultRow>(name: string, sql: string) {
  const order: string[] = [];
  const text = sql.replace(/(?<!:):(\w+)/g, (_match, key: string) => {
    if (!order.includes(key)) order.push(key);
    return `$${order.indexOf(key) + 1}`;
  });
  return async function execute(db: Knex, values: Record<string, unknown>): Promise<QueryResult<Row>> {
    const connection = (await db.client.acquireConnection()) as {
      query(config: { name?: string; text: string; values: unknown[] }): Promise<QueryResult<Row>>;
    };
    try {
      const named = namedStatementsAllowed(db) ? { name } : {};
      return await connection.query({ ...named, text, values: order.map((key) => values[key]) });
    } finally {
      await db.client.releaseConnection(connection);
    }
  };
}
