import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import type { Layer } from '../../api/types';
import { useSignedLink } from '../../api/use-signed-link';
import type { KeepBox } from '../../../shared/template-format';
import { useEditorStore } from './editor-store';

type ImageLayer = Extract<Layer, { kind: 'image' }>;

/** Wide enough to mark a subject on in the inspector, small enough to load at once. */
const PICTURE_WIDTH = 480;

export interface KeepSource {
  /** Format 2 reads keep-boxes; format 1 ignores them. */
  supported: boolean;
  /** The image variable the layer shows, if any. */
  variable: string | null;
  /** The keep-box the engine uses: the layer's, else its variable's. */
  keep: KeepBox | undefined;
  /** True when `keep` is the variable's (the layer has none of its own). */
  inherited: boolean;
  /** A signed link to the image a keep-box describes: the fixed asset or the sample image. */
  url: string | undefined;
  /** False when a variable has no sample image of the template's own to mark on. */
  hasPicture: boolean;
}

/**
 * What a layer's keep-box describes, as the engine reads it: a fixed asset, or the template's
 * sample (or default) image of the bound variable; other images carry no keep-box.
 */
export function useKeepSource(layer: ImageLayer): KeepSource {
  const id = useEditorStore((s) => s.id);
  const supported = useEditorStore((s) => (s.draft?.schemaVersion ?? 1) >= 2);
  const variableName = 'var' in layer.source ? layer.source.var : null;
  const variable = useEditorStore((s) =>
    s.draft?.variables.find((v) => v.name === variableName && v.type === 'image'),
  );
  const sample = useEditorStore((s) =>
    variableName === null ? undefined : s.draft?.sampleValues[variableName],
  );
  const fromVariable = variable?.type === 'image' ? variable.keep : undefined;
  const candidates = [sample, variable?.type === 'image' ? variable.default : undefined];
  const sampleAsset = candidates
    .find((v): v is string => typeof v === 'string' && v.startsWith('asset:'))
    ?.slice('asset:'.length);
  const asset = 'asset' in layer.source ? layer.source.asset : sampleAsset;
  const url = useSignedLink(id && asset ? api.workspace.assetPath(id, asset, PICTURE_WIDTH) : null);
  return {
    supported,
    variable: variableName,
    keep: layer.keep ?? fromVariable,
    inherited: layer.keep === undefined && fromVariable !== undefined,
    url,
    hasPicture: asset !== undefined,
  };
}

/** The natural size of the image at `url` once it has loaded (only its shape matters). */
export function useImageSize(url: string | undefined): { width: number; height: number } | null {
  const [size, setSize] = useState<{ url: string; width: number; height: number } | null>(null);
  useEffect(() => {
    if (!url) return;
    const image = new Image();
    image.onload = () => setSize({ url, width: image.naturalWidth, height: image.naturalHeight });
    image.src = url;
    return () => {
      image.onload = null;
    };
  }, [url]);
  return size && size.url === url ? { width: size.width, height: size.height } : null;
}
