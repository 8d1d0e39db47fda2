import { useId, type ReactElement } from 'react';
import { useT } from '../../i18n/i18n';
import { useAppStore } from '../../stores/app-store';
import { targetLabel } from '../catalog/target-label';

/**
 * Several sizes from one run: the template's other ratios, each row drawn in every one ticked
 * (one credit per image, files named {name}-{size}).
 */
export function MoreSizes(): ReactElement | null {
  const t = useT();
  const hintId = useId();
  const template = useAppStore((s) => s.wizard.template);
  const target = useAppStore((s) => s.wizard.target);
  const more = useAppStore((s) => s.wizard.moreTargets);
  const patch = useAppStore((s) => s.wizardPatch);
  if (!template) return null;
  const first = target ?? template.ratios[0] ?? 'square';
  const others = template.ratios.filter((r) => r !== first);
  if (others.length === 0) return null;
  const toggle = (ratio: string, on: boolean) =>
    patch({
      moreTargets: on
        ? [...more.filter((r) => r !== ratio), ratio]
        : more.filter((r) => r !== ratio),
      preflight: null,
    });
  return (
    <fieldset className="more-sizes" aria-describedby={hintId} data-testid="more-sizes">
      <legend className="field-label">{t('wizard.output.moreSizes')}</legend>
      <div className="row wrap">
        {others.map((ratio) => (
          <label key={ratio} className="check">
            <input
              type="checkbox"
              checked={more.includes(ratio)}
              onChange={(e) => toggle(ratio, e.target.checked)}
            />
            {targetLabel(t, template, ratio)}
          </label>
        ))}
      </div>
      <p className="small muted" id={hintId}>
        {t('wizard.output.moreSizes.hint', { size: targetLabel(t, template, first) })}
      </p>
    </fieldset>
  );
}
