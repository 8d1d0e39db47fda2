/** One finished render, single or batch row; the ledger debit refers to it by id. */
export interface RenderRecord {
  id: string;
  templateId: string;
  ratio: string;
  format: string;
  apiKeyId: string | null;
  batchId: string | null;
  rowIndex: number | null;
  outputKey: string | null;
  bytes: number;
  createdAt: string;
}

/** A render to record; `id` and `createdAt` are generated when omitted. */
export type NewRender = Omit<
  RenderRecord,
  'id' | 'createdAt' | 'apiKeyId' | 'batchId' | 'rowIndex' | 'outputKey'
> &
  Partial<
    Pick<RenderRecord, 'id' | 'createdAt' | 'apiKeyId' | 'batchId' | 'rowIndex' | 'outputKey'>
  >;

/** Renders as services read them; they are recorded by the commands that charge them. */
export interface RenderLookup {
  get(id: string): RenderRecord | null;
}
