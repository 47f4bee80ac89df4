// @ts-check
/**
 * The machine's yardstick for bench/leads.ts: the least an express + PostgreSQL lead
 * endpoint can do (parse JSON, insert one row with a prepared statement, answer 201),
 * without validation, limits, queues, logging or security headers. Lead intake figures
 * read relative to it carry over between machines.
 */
import express from 'express';
import pg from 'pg';

const { DATABASE_URL, PORT } = process.env;
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
await pool.query(
  'CREATE TABLE IF NOT EXISTS bench_reference (id serial PRIMARY KEY, nome text, email text, telefono text, created_at timestamptz DEFAULT now())',
);

const app = express();
app.use(express.json());
app.post('/api/ebook-request', async (req, res) => {
  const { rows } = await pool.query({
    name: 'reference-insert',
    text: 'INSERT INTO bench_reference (nome, email, telefono) VALUES ($1, $2, $3) RETURNING id',
    values: [req.body.nome, req.body.email, req.body.telefono],
  });
  res.status(201).json({ id: rows[0].id, redirectTo: '/grazie-italia' });
});
const server = app.listen(Number(PORT), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
