import { useEffect, useState, type ReactElement } from 'react';
import { Icon } from '../../components/Icon';
import { Button } from '../../components/ui';
import { useT } from '../../i18n/i18n';
import { useAppStore } from '../../stores/app-store';

const DISMISSED = 'render-desk.brand-invite-dismissed';

/**
 * First run: the brand kit starts empty, so templates leave their brand name, logo and links
 * blank (the API's rule, spec 2.4). This says so once and leads to the brand kit.
 */
export function BrandKitInvite(): ReactElement | null {
  const t = useT();
  const brand = useAppStore((s) => s.brand);
  const loadBrand = useAppStore((s) => s.loadBrand);
  const navigate = useAppStore((s) => s.navigate);
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(DISMISSED) === '1');

  useEffect(() => {
    void loadBrand().catch(() => {});
  }, [loadBrand]);

  const empty = brand !== null && brand.name.trim() === '' && brand.logo === null;
  if (!empty || dismissed) return null;
  return (
    <section className="banner brand-invite" aria-labelledby="brand-invite-title">
      <Icon name="palette" />
      <div className="grow stack gap-2">
        <div>
          <h2 className="banner-title" id="brand-invite-title">
            {t('brandInvite.title')}
          </h2>
          <p>{t('brandInvite.detail')}</p>
        </div>
        <div className="row wrap">
          <Button size="sm" variant="primary" onClick={() => navigate({ name: 'brand' })}>
            {t('brandInvite.fill')}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              localStorage.setItem(DISMISSED, '1');
              setDismissed(true);
            }}
          >
            {t('brandInvite.later')}
          </Button>
        </div>
      </div>
    </section>
  );
}
