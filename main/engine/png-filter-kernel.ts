import { PNG_FILTER_WASM } from './png-filter-wasm.js';

/**
 * The PNG row filters (png-filter.wat, WebAssembly SIMD) with the memory they work in. The caller
 * copies RGBA rows in, filters them into another part of the memory, and deflates a view of it.
 */
export interface FilterKernel {
  /** The kernel's memory, at least `bytes` long (a fresh view: growing detaches the old one). */
  reserve(bytes: number): Uint8Array;
  /**
   * Filters `rows` rows of `width` RGBA pixels at `src` with `filter` (the PNG filter type) into
   * `dst`; the row above the first is at `above`. Writes up to 16 bytes past the last row.
   */
  filterRows(
    src: number,
    above: number,
    dst: number,
    width: number,
    rows: number,
    filter: number,
  ): void;
}

/** Bytes after each output that the kernel may write (a group of 4 pixels is stored as 16 bytes). */
export const KERNEL_SLACK = 16;

/** The little of the WebAssembly API used here (the project's TypeScript libs do not declare it). */
interface WasmMemory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
const { Module, Instance } = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

const PAGE = 65536;
let compiled: object | undefined;

/** A kernel with memory of its own (each thread keeps one; see png-writer.ts). */
export function createFilterKernel(): FilterKernel {
  compiled ??= new Module(Buffer.from(PNG_FILTER_WASM, 'base64'));
  const instance = new Instance(compiled);
  const memory = instance.exports.memory as WasmMemory;
  const filterRows = instance.exports.filterRows as FilterKernel['filterRows'];
  let view = new Uint8Array(memory.buffer);
  return {
    reserve(bytes) {
      if (bytes > memory.buffer.byteLength)
        memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / PAGE));
      if (view.buffer !== memory.buffer || view.byteLength !== memory.buffer.byteLength)
        view = new Uint8Array(memory.buffer);
      return view;
    },
    filterRows,
  };
}
