/**
 * A batch's progress on stderr: a bar redrawn in place on a terminal, or a plain line every 10 %
 * (and at most every 5 s) in a log, where carriage returns would pile up.
 */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export interface ProgressState {
  done: number;
  total: number;
  failed: number;
  rowsPerSecond: number;
}

const BAR_WIDTH = 28;

export function formatEta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '--:--';
  const whole = Math.max(0, Math.round(seconds));
  const minutes = Math.floor(whole / 60);
  const rest = whole % 60;
  if (minutes >= 60) return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
  return `${String(minutes).padStart(2, '0')}:${String(rest).padStart(2, '0')}`;
}

export class ProgressBar {
  private lastLoggedTenth = -1;
  private lastLoggedAt = 0;
  private drawn = false;

  constructor(
    private readonly stream: ProgressStream,
    private readonly label: string,
  ) {}

  update(state: ProgressState): void {
    const { done, total, failed, rowsPerSecond } = state;
    const fraction = total > 0 ? Math.min(1, done / total) : 1;
    const eta = rowsPerSecond > 0 ? (total - done) / rowsPerSecond : null;
    const figures = `${done}/${total}${failed > 0 ? ` (${failed} failed)` : ''}  ${rowsPerSecond.toFixed(1)} rows/s  ETA ${formatEta(eta)}`;
    if (this.stream.isTTY) {
      const filled = Math.round(fraction * BAR_WIDTH);
      const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
      const line = `${this.label} ${bar} ${Math.floor(fraction * 100)}%  ${figures}`;
      const width = this.stream.columns ?? 100;
      this.stream.write(`\r${line.slice(0, width - 1).padEnd(width - 1)}`);
      this.drawn = true;
      return;
    }
    const tenth = Math.floor(fraction * 10);
    const now = Date.now();
    if (
      tenth > this.lastLoggedTenth &&
      (now - this.lastLoggedAt >= 5000 || tenth === 10 || this.lastLoggedTenth < 0)
    ) {
      this.lastLoggedTenth = tenth;
      this.lastLoggedAt = now;
      this.stream.write(`${this.label} ${Math.floor(fraction * 100)}%  ${figures}\n`);
    }
  }

  /** Ends the bar's line so what follows starts on its own. */
  finish(): void {
    if (this.drawn) this.stream.write('\n');
    this.drawn = false;
  }
}
