import { createStore } from '../../main/store/create-store.js';

/** The reference template of the benchmarks and its sample values, as a source row. */
export const REFERENCE = 'tmpl_product_promo';

export function productRow(i: number): Record<string, string | number> {
  return {
    photo: 'asset:product.jpg',
    logo: 'asset:logo.png',
    headline: `Vitamin C Glow Serum #${i}`,
    subtitle: 'Brighter, even-toned skin in 14 days.',
    price: 29.9 + i,
    discount: 25,
    accentColor: '#A8481F',
  };
}

/** The balance in the data folder's own ledger (the one the app charges). */
export function ledgerBalance(dataDir: string): { balance: number; debited: number } {
  const store = createStore(dataDir);
  try {
    const { balance, debited } = store.ledger.account();
    return { balance, debited };
  } finally {
    store.close();
  }
}
