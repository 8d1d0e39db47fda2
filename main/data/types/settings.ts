export interface SettingsRepository {
  get(key: string): string | null;
  set(key: string, value: string): void;
  /** The stored value, or `create()`'s, stored first; concurrent callers all see one winner. */
  getOrCreate(key: string, create: () => string): string;
  remove(key: string): boolean;
}
