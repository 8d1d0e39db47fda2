import { create } from 'zustand';
import {
  createAccountSlice,
  createBatchesSlice,
  createBrandSlice,
  createCatalogSlice,
  type AccountSlice,
  type BatchesSlice,
  type BrandSlice,
  type CatalogSlice,
} from './data-slices';
import { createUiSlice, type UiSlice } from './ui-slice';
import { createWizardSlice, type WizardSlice } from './wizard-slice';

/** One bound store built from slices; components select narrowly (`useAppStore((s) => s.x)`). */
export type AppState = UiSlice &
  CatalogSlice &
  AccountSlice &
  BatchesSlice &
  BrandSlice &
  WizardSlice;

export const useAppStore = create<AppState>()((...args) => ({
  ...createUiSlice(...args),
  ...createCatalogSlice(...args),
  ...createAccountSlice(...args),
  ...createBatchesSlice(...args),
  ...createBrandSlice(...args),
  ...createWizardSlice(...args),
}));
