import { describe, expect, it } from 'vitest';
import { layerRuns } from '../../../main/engine/text/layer-runs.js';
import {
  parseMarkup,
  PLAIN_STYLE,
  runsText,
  splitCurrency,
  type Run,
} from '../../../main/engine/text/text-runs.js';

const styled = (runs: Run[]) =>
  runs.map((run) => {
    const flags = (['bold', 'italic', 'strike', 'underline', 'currency'] as const).filter(
      (key) => run.style[key],
    );
    return [run.text, [...flags, ...(run.style.colour ? [run.style.colour] : [])].join('+')];
  });

describe('markup', () => {
  it('reads bold, italic, strikethrough, underline and colour runs', () => {
    expect(
      styled(parseMarkup('Giá **chỉ** *hôm nay* ~~1.290.000~~ __mới__ [990K]{#e53935}')),
    ).toEqual([
      ['Giá ', ''],
      ['chỉ', 'bold'],
      [' ', ''],
      ['hôm nay', 'italic'],
      [' ', ''],
      ['1.290.000', 'strike'],
      [' ', ''],
      ['mới', 'underline'],
      [' ', ''],
      ['990K', '#E53935'],
    ]);
  });

  it('nests runs: bold inside a colour run, italic inside bold', () => {
    expect(styled(parseMarkup('[**Tết** sale]{#C62828} and **bold *italic* too**'))).toEqual([
      ['Tết', 'bold+#C62828'],
      [' sale', '#C62828'],
      [' and ', ''],
      ['bold ', 'bold'],
      ['italic', 'bold+italic'],
      [' too', 'bold'],
    ]);
  });

  it('reads ***both*** as bold italic, also when it closes an inner italic', () => {
    expect(styled(parseMarkup('***both*** x'))).toEqual([
      ['both', 'bold+italic'],
      [' x', ''],
    ]);
    expect(styled(parseMarkup('**bold *italic***'))).toEqual([
      ['bold ', 'bold'],
      ['italic', 'bold+italic'],
    ]);
    expect(runsText(parseMarkup('*** not'))).toBe('*** not');
    expect(runsText(parseMarkup('a***b'))).toBe('a***b');
  });

  it('keeps escaped and unmatched delimiters as written', () => {
    expect(runsText(parseMarkup('5 \\* 3 = 15, 2 * 3 = 6, a*b'))).toBe(
      '5 * 3 = 15, 2 * 3 = 6, a*b',
    );
    expect(runsText(parseMarkup('\\*\\*not bold\\*\\* \\[x\\]{#FFFFFF} [y]'))).toBe(
      '**not bold** [x]{#FFFFFF} [y]',
    );
    expect(runsText(parseMarkup('**never closed'))).toBe('**never closed');
    expect(parseMarkup('\\**literal**')[0]!.text.startsWith('*')).toBe(true);
  });

  it('splits currency symbols into runs of their own', () => {
    const runs = splitCurrency([
      { text: 'Chỉ 990.000đ, $5 hoặc 10 VND; đi đâu', style: PLAIN_STYLE },
    ]);
    expect(runs.filter((r) => r.style.currency).map((r) => r.text)).toEqual(['đ', '$', 'VND']);
    expect(runsText(runs)).toBe('Chỉ 990.000đ, $5 hoặc 10 VND; đi đâu');
  });
});

describe('case transforms over runs', () => {
  it('capitalise words, not runs', () => {
    const layer = { markup: true, transform: 'capitalize' } as Parameters<typeof layerRuns>[0];
    expect(layerRuns(layer, 'super**sale** tết **vui** vẻ', 'vi-VN').map((r) => r.text)).toEqual([
      'Super',
      'sale',
      ' Tết ',
      'Vui',
      ' Vẻ',
    ]);
  });
});
