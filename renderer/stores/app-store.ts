import { create } from 'zustand';
import {
  createBrandSlice,
  createCatalogSlice,
  type BrandSlice,
  type CatalogSlice,
} from './data-slices';
import { createUiSlice, type UiSlice } from './ui-slice';
import { createWizardSlice, type WizardSlice } from './wizard-slice';

/**
 * One bound store built from slices; components select narrowly (`useAppStore((s) => s.x)`).
 * Server state that screens keep fresh (account, batches, webhooks, team service) lives in the
 * query cache (api/query-client.ts) instead.
 */
export type AppState = UiSlice & CatalogSlice & BrandSlice & WizardSlice;

export const useAppStore = create<AppState>()((...args) => ({
  ...createUiSlice(...args),
  ...createCatalogSlice(...args),
  ...createBrandSlice(...args),
  ...createWizardSlice(...args),
}));
