import type { StateCreator } from 'zustand';
import { api } from '../api/client';
import type { Brand, BrandProfile, CatalogListItem, Taxonomy } from '../api/types';
import type { AppState } from './app-store';

/** Catalog links to thumbnails are signed for 15 minutes; refresh the list well before. */
const CATALOG_MAX_AGE_MS = 10 * 60_000;

export interface CatalogFilters {
  search: string;
  category: string;
  subCategory: string;
  market: '' | 'global' | 'vietnam';
  sort: 'newest' | 'name';
}

export interface CatalogSlice {
  catalog: CatalogListItem[] | null;
  catalogLoadedAt: number;
  catalogError: unknown;
  taxonomy: Taxonomy | null;
  catalogFilters: CatalogFilters;
  setCatalogFilters: (patch: Partial<CatalogFilters>) => void;
  loadCatalog: (force?: boolean) => Promise<void>;
}

export const createCatalogSlice: StateCreator<AppState, [], [], CatalogSlice> = (set, get) => ({
  catalog: null,
  catalogLoadedAt: 0,
  catalogError: null,
  taxonomy: null,
  catalogFilters: { search: '', category: '', subCategory: '', market: '', sort: 'newest' },
  setCatalogFilters: (patch) => {
    const next = { ...get().catalogFilters, ...patch };
    if (patch.category !== undefined && patch.subCategory === undefined) next.subCategory = '';
    set({ catalogFilters: next });
  },
  loadCatalog: async (force = false) => {
    const { catalog, catalogLoadedAt } = get();
    if (!force && catalog && Date.now() - catalogLoadedAt < CATALOG_MAX_AGE_MS) return;
    try {
      const [items, taxonomy] = await Promise.all([
        api.catalog.list({ sort: 'newest' }),
        api.catalog.taxonomy(),
      ]);
      set({ catalog: items, taxonomy, catalogLoadedAt: Date.now(), catalogError: null });
    } catch (error) {
      set({ catalogError: error });
    }
  },
});

export interface BrandSlice {
  /** The default brand's profile. */
  brand: BrandProfile | null;
  /** Every brand of the kit, the default first (null until loaded). */
  brands: Brand[] | null;
  loadBrand: () => Promise<void>;
  saveBrand: (profile: BrandProfile) => Promise<void>;
  /** Reloads the kit (and with it the default profile) after any change to it. */
  loadBrands: () => Promise<Brand[]>;
}

export const createBrandSlice: StateCreator<AppState, [], [], BrandSlice> = (set) => ({
  brand: null,
  brands: null,
  loadBrand: async () => {
    set({ brand: await api.brand.get() });
  },
  saveBrand: async (profile) => {
    set({ brand: await api.brand.put(profile) });
  },
  loadBrands: async () => {
    const brands = await api.brands.list();
    const byDefault = brands.find((b) => b.isDefault);
    set(byDefault ? { brands, brand: byDefault.profile } : { brands });
    return brands;
  },
});
