import type { Knex } from 'knex';
import type { QueryResult, QueryResultRow } from 'pg';

/**
 * A statement Postgres parses and plans once per connection instead of on every call
 * (knex only sends unnamed statements). For hot paths with a large fixed statement.
 * Write the SQL with `:name` placeholders (a `::type` cast is left alone); values are
 * passed by name.
 */
export function preparedStatement<Row extends QueryResultRow>(name: string, sql: string) {
  const order: string[] = [];
  const text = sql.replace(/(?<!:):(\w+)/g, (_match, key: string) => {
    if (!order.includes(key)) order.push(key);
    return `$${order.indexOf(key) + 1}`;
  });
  return async function execute(db: Knex, values: Record<string, unknown>): Promise<QueryResult<Row>> {
    const connection = (await db.client.acquireConnection()) as {
      query(config: { name: string; text: string; values: unknown[] }): Promise<QueryResult<Row>>;
    };
    try {
      return await connection.query({ name, text, values: order.map((key) => values[key]) });
    } finally {
      await db.client.releaseConnection(connection);
    }
  };
}
