import type pg from 'pg';

/**
 * Spends a UI launch token for the whole cluster: true the first time, false when any node spent
 * it before. Tokens past their expiry are forgotten on the way (they are refused by their
 * signature's expiry anyway).
 */
export async function spendLaunchToken(
  pool: pg.Pool,
  digest: string,
  expiresAt: Date,
): Promise<boolean> {
  await pool.query('DELETE FROM ui_launch_tokens_spent WHERE expires_at < now()');
  const result = await pool.query(
    `INSERT INTO ui_launch_tokens_spent (digest, expires_at) VALUES ($1, $2)
     ON CONFLICT (digest) DO NOTHING`,
    [digest, expiresAt.toISOString()],
  );
  return result.rowCount === 1;
}
