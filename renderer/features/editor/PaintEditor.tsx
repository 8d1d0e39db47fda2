import type { ReactElement } from 'react';
import type { Paint } from '../../api/types';
import { Button } from '../../components/ui';
import { useT } from '../../i18n/i18n';
import { ColourField, NumberField, SelectField, type ColourValueT } from './inspector-fields';

type PaintKind = 'solid' | 'linear' | 'radial';
type Gradient = Extract<Paint, { type: 'linear' } | { type: 'radial' }>;
type Stop = Gradient['stops'][number];

function kindOf(paint: Paint): PaintKind {
  return typeof paint === 'object' && 'type' in paint ? paint.type : 'solid';
}

/** The first colour of a paint, to carry over when its kind changes. */
function firstColour(paint: Paint): ColourValueT {
  if (typeof paint === 'object' && 'type' in paint) return paint.stops[0]?.colour ?? '#000000';
  return paint;
}

/** A fill: a solid colour (literal or bound) or a linear/radial gradient with its stops. */
export function PaintEditor({
  label,
  value,
  onChange,
  suggestedName,
  error,
}: {
  label: string;
  value: Paint;
  onChange: (paint: Paint) => void;
  suggestedName: string;
  error?: string | undefined;
}): ReactElement {
  const t = useT();
  const kind = kindOf(value);
  const change = (next: PaintKind) => {
    if (next === kind) return;
    const colour = firstColour(value);
    const stops: Stop[] =
      typeof value === 'object' && 'type' in value
        ? value.stops
        : [
            { offset: 0, colour },
            { offset: 1, colour: '#FFFFFF' },
          ];
    if (next === 'solid') onChange(colour);
    else if (next === 'linear') onChange({ type: 'linear', angle: 180, stops });
    else onChange({ type: 'radial', cx: 0.5, cy: 0.5, radius: 0.75, stops });
  };

  return (
    <div className="ed-paint wide" role="group" aria-label={label}>
      <SelectField
        label={t('editor.paint.kind', { label })}
        value={kind}
        options={(['solid', 'linear', 'radial'] as const).map((k) => ({
          value: k,
          label: t(`editor.paint.${k}`),
        }))}
        onChange={change}
      />
      {typeof value === 'string' || !('type' in value) ? (
        <ColourField
          label={label}
          value={value}
          suggestedName={suggestedName}
          error={error}
          onChange={onChange}
        />
      ) : (
        <GradientFields gradient={value} onChange={onChange} suggestedName={suggestedName} />
      )}
    </div>
  );
}

function GradientFields({
  gradient,
  onChange,
  suggestedName,
}: {
  gradient: Gradient;
  onChange: (paint: Paint) => void;
  suggestedName: string;
}): ReactElement {
  const t = useT();
  const setStop = (index: number, stop: Stop) =>
    onChange({ ...gradient, stops: gradient.stops.map((s, i) => (i === index ? stop : s)) });
  return (
    <div className="ed-grid">
      {gradient.type === 'linear' ? (
        <NumberField
          label={t('editor.paint.angle')}
          value={gradient.angle}
          suffix="°"
          onChange={(angle) => angle !== undefined && onChange({ ...gradient, angle })}
        />
      ) : (
        <>
          <NumberField
            label={t('editor.paint.cx')}
            value={gradient.cx}
            min={0}
            max={1}
            step={0.05}
            onChange={(cx) => cx !== undefined && onChange({ ...gradient, cx })}
          />
          <NumberField
            label={t('editor.paint.cy')}
            value={gradient.cy}
            min={0}
            max={1}
            step={0.05}
            onChange={(cy) => cy !== undefined && onChange({ ...gradient, cy })}
          />
          <NumberField
            label={t('editor.paint.radius')}
            value={gradient.radius}
            min={0.05}
            max={4}
            step={0.05}
            onChange={(radius) => radius !== undefined && onChange({ ...gradient, radius })}
          />
        </>
      )}
      <ol className="ed-stops wide" aria-label={t('editor.paint.stops')}>
        {gradient.stops.map((stop, index) => (
          <li key={index} className="ed-stop">
            <ColourField
              label={t('editor.paint.stop', { n: index + 1 })}
              value={stop.colour}
              suggestedName={`${suggestedName}Stop${index + 1}`}
              onChange={(colour) => setStop(index, { ...stop, colour })}
            />
            <NumberField
              label={t('editor.paint.offset')}
              value={stop.offset}
              min={0}
              max={1}
              step={0.05}
              onChange={(offset) => offset !== undefined && setStop(index, { ...stop, offset })}
            />
            <Button
              size="sm"
              variant="ghost"
              icon="x"
              disabled={gradient.stops.length <= 2}
              aria-label={t('editor.paint.removeStop', { n: index + 1 })}
              onClick={() =>
                onChange({ ...gradient, stops: gradient.stops.filter((_, i) => i !== index) })
              }
            />
          </li>
        ))}
      </ol>
      <div className="wide">
        <Button
          size="sm"
          icon="plus"
          disabled={gradient.stops.length >= 16}
          onClick={() =>
            onChange({
              ...gradient,
              stops: [...gradient.stops, { offset: 1, colour: '#FFFFFF' }],
            })
          }
        >
          {t('editor.paint.addStop')}
        </Button>
      </div>
    </div>
  );
}
