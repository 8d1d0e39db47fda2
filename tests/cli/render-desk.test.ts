import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

describe('render-desk', () => {
  it('answers --help on every command with exit 0 and the documented exit codes', async () => {
    for (const command of [[], ['render'], ['batch'], ['check'], ['templates'], ['mcp']]) {
      const result = await runCli([...command, '--help']);
      expect(result.code, command.join(' ')).toBe(0);
      expect(result.stdout, command.join(' ')).toMatch(/Exit codes:[\s\S]*3\s+not enough credits/);
    }
  });

  it('exits 2 with usage on an unknown command or option', async () => {
    const command = await runCli(['paint']);
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/unknown command "paint"/);
    const option = await runCli(['render', '--colour', 'red']);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/render: Unknown option '--colour'/);
  });

  it('prints no colour codes when stdout is not a terminal', async () => {
    const result = await runCli(['render', '--template', 'tmpl_product_promo']);
    expect(result.code).toBe(2);
    // eslint-disable-next-line no-control-regex -- the escape character is what must be absent
    expect(result.stdout + result.stderr).not.toMatch(/\u001b\[/);
  });
});
