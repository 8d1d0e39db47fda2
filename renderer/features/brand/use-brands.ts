import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { Brand } from '../../api/types';
import { useAppStore } from '../../stores/app-store';

export interface BrandKit {
  brands: Brand[] | null;
  loadError: unknown;
  reload: () => Promise<Brand[]>;
  create: (name: string, from?: Brand) => Promise<Brand>;
  rename: (brand: Brand, name: string) => Promise<Brand>;
  save: (brand: Brand, profile: Brand['profile']) => Promise<Brand>;
  makeDefault: (brand: Brand) => Promise<Brand>;
  remove: (brand: Brand) => Promise<void>;
}

/**
 * The brand kit with its actions. Every change reloads the list from the store, so the template
 * screen and the batch wizard see the same brands (and the same default) straight away.
 */
export function useBrands(): BrandKit {
  const brands = useAppStore((s) => s.brands);
  const loadBrands = useAppStore((s) => s.loadBrands);
  const [loadError, setLoadError] = useState<unknown>(null);

  const reload = useCallback(async () => {
    try {
      const list = await loadBrands();
      setLoadError(null);
      return list;
    } catch (error) {
      setLoadError(error);
      throw error;
    }
  }, [loadBrands]);

  useEffect(() => {
    reload().catch(() => {});
  }, [reload]);

  const after = useCallback(
    async <T>(change: Promise<T>): Promise<T> => {
      const result = await change;
      await reload().catch(() => {});
      return result;
    },
    [reload],
  );

  return {
    brands,
    loadError,
    reload,
    create: (name, from) =>
      after(api.brands.create({ name, ...(from ? { profile: { ...from.profile, name } } : {}) })),
    rename: (brand, name) => after(api.brands.update(brand.id, { name, profile: brand.profile })),
    save: (brand, profile) => after(api.brands.update(brand.id, { profile })),
    makeDefault: (brand) => after(api.brands.makeDefault(brand.id)),
    remove: (brand) => after(api.brands.remove(brand.id)),
  };
}

/**
 * The brand a render is made with: `null` until the user picks one, which means the default
 * brand (the request then names none, as before brands had names).
 */
export function useBrandChoice(): {
  brands: Brand[] | null;
  brandId: string | null;
  setBrandId: (id: string | null) => void;
  /** The chosen brand, or the default one. */
  chosen: Brand | null;
} {
  const brands = useAppStore((s) => s.brands);
  const loadBrands = useAppStore((s) => s.loadBrands);
  const [brandId, setBrandId] = useState<string | null>(null);
  useEffect(() => {
    loadBrands().catch(() => {});
  }, [loadBrands]);
  const chosen = brands?.find((b) => b.id === brandId) ?? brands?.find((b) => b.isDefault) ?? null;
  return { brands, brandId: chosen && brandId === chosen.id ? brandId : null, setBrandId, chosen };
}
