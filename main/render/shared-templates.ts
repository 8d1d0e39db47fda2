import v8 from 'node:v8';
import type { Template } from '../../shared/template-format.js';

/**
 * Templates reach the render workers once, not with every job. A job carries a reference to the
 * template serialised into shared memory; each worker deserialises a template the first time it
 * sees it and keeps it. Cloning the reference template (14 KB of small objects) into every job
 * took ~8 % of the API thread's time under load, and as much again in the worker.
 *
 * Templates are never changed in place (a new version is a new object), so an object's
 * serialised form stays valid for as long as the object lives.
 */
export interface SharedTemplate {
  key: number;
  bytes: SharedArrayBuffer;
}

const sharedByTemplate = new WeakMap<Template, SharedTemplate>();
let nextKey = 1;

/** Main thread: the shared form of `template`, serialised on first use. */
export function shareTemplate(template: Template): SharedTemplate {
  let shared = sharedByTemplate.get(template);
  if (!shared) {
    const serialised = v8.serialize(template);
    const bytes = new SharedArrayBuffer(serialised.byteLength);
    new Uint8Array(bytes).set(serialised);
    shared = { key: nextKey++, bytes };
    sharedByTemplate.set(template, shared);
  }
  return shared;
}

/** Templates a worker keeps; the least recently used goes first (drafts previewed in the editor). */
const KEEP_IN_WORKER = 64;
const received = new Map<number, Template>();

/** Worker thread: the template behind `shared`, deserialised once per worker. */
export function receiveTemplate(shared: SharedTemplate): Template {
  const known = received.get(shared.key);
  if (known) {
    received.delete(shared.key);
    received.set(shared.key, known);
    return known;
  }
  const template = v8.deserialize(new Uint8Array(shared.bytes)) as Template;
  received.set(shared.key, template);
  if (received.size > KEEP_IN_WORKER) {
    const oldest = received.keys().next().value;
    if (oldest !== undefined) received.delete(oldest);
  }
  return template;
}
