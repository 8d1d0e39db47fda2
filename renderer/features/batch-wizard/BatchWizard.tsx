import { useEffect, useRef, type ReactElement } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { Icon } from '../../components/Icon';
import { Button } from '../../components/ui';
import { useT, type MessageKey } from '../../i18n/i18n';
import { useAppStore } from '../../stores/app-store';
import { WIZARD_STEPS, type WizardStep } from '../../stores/wizard-slice';
import { variableLabel } from '../template/VariableField';
import { badSerials, unmappedRequired } from './mapping';
import { MappingStep } from './MappingStep';
import { OutputStep } from './OutputStep';
import { ReviewStep } from './ReviewStep';
import { SourceStep } from './SourceStep';

const STEP_LABELS: Record<WizardStep, MessageKey> = {
  source: 'wizard.step.source',
  mapping: 'wizard.step.mapping',
  output: 'wizard.step.output',
  review: 'wizard.step.review',
};

export function BatchWizard({ templateId }: { templateId: string | null }): ReactElement {
  const t = useT();
  const step = useAppStore((s) => s.wizard.step);
  const hasTemplate = useAppStore((s) => s.wizard.template !== null);
  const hasFile = useAppStore((s) => s.wizard.upload !== null);
  const wizardTemplateId = useAppStore((s) => s.wizard.templateId);
  const setTemplate = useAppStore((s) => s.wizardSetTemplate);
  const patch = useAppStore((s) => s.wizardPatch);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const missing = useAppStore(
    useShallow((s) =>
      s.wizard.template && s.wizard.upload
        ? unmappedRequired(s.wizard.template, s.wizard.mapping, s.wizard.upload.fields ?? []).map(
            variableLabel,
          )
        : [],
    ),
  );
  // A serial the API would refuse stops the wizard here, where its fields are.
  const serials = useAppStore(
    useShallow((s) => {
      const { template, upload, mapping } = s.wizard;
      if (!template || !upload) return [];
      const rows = upload.rows ?? upload.preview?.length ?? 0;
      return badSerials(template, mapping, Math.max(0, rows - 1)).map(variableLabel);
    }),
  );
  const blocked = missing.length > 0 || serials.length > 0;

  useEffect(() => {
    const id = templateId ?? wizardTemplateId;
    if (id) void setTemplate(id).catch(() => {});
  }, [templateId, wizardTemplateId, setTemplate]);

  const ready: Record<WizardStep, boolean> = {
    source: true,
    mapping: hasTemplate && hasFile,
    output: hasTemplate && hasFile && !blocked,
    review: hasTemplate && hasFile && !blocked,
  };
  const index = WIZARD_STEPS.indexOf(step);
  const go = (next: WizardStep) => {
    patch({ step: next });
    // Move focus to the step's heading so keyboard and screen-reader users follow along.
    requestAnimationFrame(() => headingRef.current?.focus());
  };
  const next = WIZARD_STEPS[index + 1];
  const previous = WIZARD_STEPS[index - 1];

  return (
    <div className="page wide">
      <header className="page-header">
        <div>
          <h1>{t('wizard.title')}</h1>
          <p>{t('wizard.subtitle')}</p>
        </div>
      </header>

      <nav aria-label={t('wizard.steps')}>
        <ol className="stepper">
          {WIZARD_STEPS.map((s, i) => (
            <li key={s}>
              <button
                type="button"
                className="step"
                aria-current={s === step ? 'step' : undefined}
                disabled={!ready[s]}
                data-done={i < index || undefined}
                onClick={() => go(s)}
              >
                <span className="step-num" aria-hidden>
                  {i < index ? <Icon name="check" size={12} /> : i + 1}
                </span>
                {t(STEP_LABELS[s])}
              </button>
            </li>
          ))}
        </ol>
      </nav>

      <section className="wizard-body" aria-labelledby="wizard-step-title">
        <h2 id="wizard-step-title" ref={headingRef} tabIndex={-1} className="visually-hidden">
          {t(STEP_LABELS[step])}
        </h2>
        {step === 'source' ? <SourceStep /> : null}
        {step === 'mapping' ? <MappingStep onJump={go} /> : null}
        {step === 'output' ? <OutputStep /> : null}
        {step === 'review' ? <ReviewStep onJump={go} /> : null}
      </section>

      <footer className="wizard-footer">
        <div>
          {previous ? (
            <Button icon="arrowLeft" onClick={() => go(previous)}>
              {t('common.back')}
            </Button>
          ) : null}
        </div>
        <div className="row">
          {!hasTemplate ? <span className="small muted">{t('wizard.needTemplate')}</span> : null}
          {hasTemplate && !hasFile ? (
            <span className="small muted">{t('wizard.needFile')}</span>
          ) : null}
          {missing.length > 0 && index > 0 ? (
            <span className="field-error" role="status" data-testid="wizard-missing">
              <Icon name="alert" size={14} />
              {t('wizard.mapping.blocked', { fields: missing.join(', ') })}
            </span>
          ) : null}
          {serials.length > 0 && index > 0 ? (
            <span className="field-error" role="status" data-testid="wizard-bad-serial">
              <Icon name="alert" size={14} />
              {t('wizard.mapping.serialBlocked', { fields: serials.join(', ') })}
            </span>
          ) : null}
          {next ? (
            <Button variant="primary" onClick={() => go(next)} disabled={!ready[next]}>
              {t('common.next')}
              <Icon name="arrowRight" />
            </Button>
          ) : null}
        </div>
      </footer>
    </div>
  );
}
