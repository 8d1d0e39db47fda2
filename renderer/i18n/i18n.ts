import { useCallback } from 'react';
import { useAppStore } from '../stores/app-store';
import type { Language } from '../stores/ui-slice';
import { en, type MessageKey } from './en';
import { vi } from './vi';

export type { MessageKey };
export type Vars = Record<string, string | number>;
export type Translate = (key: MessageKey, vars?: Vars) => string;

const catalogs: Record<Language, Record<MessageKey, string>> = { en, vi };

export function translate(language: Language, key: MessageKey, vars?: Vars): string {
  const messages = catalogs[language];
  let text = messages[key];
  if (vars && vars.count === 1) {
    const singular = `${key}.one` as MessageKey;
    if (singular in messages) text = messages[singular];
  }
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (match, name: string) => {
    const value = vars[name];
    if (value === undefined) return match;
    return typeof value === 'number' ? formatNumber(language, value) : value;
  });
}

export function locale(language: Language): string {
  return language === 'vi' ? 'vi-VN' : 'en-US';
}

export function formatNumber(language: Language, value: number, digits = 0): string {
  return new Intl.NumberFormat(locale(language), { maximumFractionDigits: digits }).format(value);
}

export function formatDateTime(language: Language, iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale(language), {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(date);
}

export function formatDate(language: Language, iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale(language), { dateStyle: 'medium' }).format(date);
}

export function formatDuration(t: Translate, seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return t('time.s', { n: s });
  if (s < 3600) return t('time.m', { n: Math.round(s / 60) });
  return t('time.h', { n: Math.floor(s / 3600), m: Math.round((s % 3600) / 60) });
}

/** The translate function for the current language. */
export function useT(): Translate {
  const language = useAppStore((s) => s.language);
  return useCallback((key: MessageKey, vars?: Vars) => translate(language, key, vars), [language]);
}

export function useLanguage(): Language {
  return useAppStore((s) => s.language);
}
