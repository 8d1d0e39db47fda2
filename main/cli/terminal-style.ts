/**
 * Colour only for people: when the stream is a terminal and NO_COLOR (no-color.org) is unset.
 * Logs, pipes and CI files get plain text.
 */
export interface TerminalStyle {
  readonly colour: boolean;
  readonly interactive: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
}

export function terminalStyle(
  stream: { isTTY?: boolean } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): TerminalStyle {
  const interactive = stream.isTTY === true;
  const colour = interactive && (env.NO_COLOR === undefined || env.NO_COLOR === '');
  const paint = (open: number, close: number) => (text: string) =>
    colour ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    colour,
    interactive,
    bold: paint(1, 22),
    dim: paint(2, 22),
    red: paint(31, 39),
    green: paint(32, 39),
    yellow: paint(33, 39),
  };
}
