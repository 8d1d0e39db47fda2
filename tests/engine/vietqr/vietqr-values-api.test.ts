import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatch, fullManifest, waitForBatch } from '../../helpers/batch-helpers.js';
import { expectProblem } from '../../helpers/expect-problem.js';
import { buildInjectServer, type InjectServer } from '../../helpers/inject-server.js';
import type { Json } from '../../helpers/test-server.js';

/**
 * A VietQR whose fields cannot make a payload is refused before drawing, naming the value and
 * saying why: a 422 for one render, a failed row in a batch and its pre-flight. A workspace
 * template may carry a VietQR layer of its own, its fields literal or bound to variables.
 */

let server: InjectServer;

const VALUES = {
  bank: '970436',
  accountNumber: '1023456789',
  accountName: 'Trần Thị Mơ',
  amount: 125000,
  message: 'Thanh toán đơn 1024',
};

beforeAll(async () => {
  server = await buildInjectServer({ workers: 1 });
});
afterAll(() => server.stop());

const render = (values: Record<string, unknown>, templateId = 'tmpl_payment_qr') =>
  server.api('/v1/render', {
    method: 'POST',
    json: { templateId, target: 'square', values: { ...VALUES, ...values } },
  });

describe('VietQR values', () => {
  it('render the sample, and without an amount or message', async () => {
    expect((await render({})).status).toBe(200);
    expect((await render({ amount: null, message: '' })).status).toBe(200);
  });

  it('are a 422 naming the value for a bad account, amount or message', async () => {
    const problem = await expectProblem(
      await render({ accountNumber: '0071-0012', amount: 1250.5, message: 'Đơn #1024' }),
      422,
      'vietqr-invalid',
    );
    expect(problem.errors).toEqual([
      {
        path: 'values.accountNumber',
        code: 'vietqr-invalid',
        message: '"0071-0012" is not an account number: digits only, without spaces or dashes',
      },
      {
        path: 'values.amount',
        code: 'vietqr-invalid',
        message: '1250.5 has decimals; an amount in đồng is a whole number',
      },
      {
        path: 'values.message',
        code: 'vietqr-invalid',
        message:
          '"Đơn #1024" holds "#", which transfer descriptions do not take: use letters, digits and spaces',
      },
    ]);
  });

  it('fail their own rows in a pre-flight and in a batch, the others valid', async () => {
    const records = [VALUES, { ...VALUES, accountNumber: '12345' }, { ...VALUES, amount: 0 }];
    const body = {
      templateId: 'tmpl_payment_qr',
      target: 'square',
      format: 'png',
      sourceType: 'json-array',
    };
    const res = await server.api('/v1/render-batches/preflight', {
      method: 'POST',
      json: { ...body, source: { records } },
    });
    expect(res.status).toBe(200);
    const result: Json = await res.json();
    expect(result).toMatchObject({ total: 3, valid: 1, invalid: 2 });
    expect(result.problems.map((p: Json) => [p.rowIndex, p.errors[0].path])).toEqual([
      [1, 'values.accountNumber'],
      [2, 'values.amount'],
    ]);
    const created = await createBatch(server, { ...body, source: { records } });
    const batch = await waitForBatch(server, created.id);
    expect(batch).toMatchObject({ total: 3, succeeded: 1, failed: 2 });
    const failed = (await fullManifest(server, created.id)).filter((r) => r.status === 'failed');
    expect(failed[0].error).toContain('values.accountNumber: "12345" has 5 digits');
  });

  it('can be a layer of a workspace template, a typed-in field refused at save by its place', async () => {
    const fork = await server.api('/v1/catalog/tmpl_product_promo/fork', {
      method: 'POST',
      json: {},
    });
    const created: Json = await fork.json();
    const square = created.template.layouts.square;
    const pay = (bank: string) => ({
      kind: 'qr',
      id: 'pay',
      x: 700,
      y: 700,
      width: 320,
      height: 320,
      value: { vietqr: { bank, account: { var: 'account' }, amount: { var: 'price' } } },
    });
    const save = (bank: string, variables: Json[]) =>
      server.api(`/v1/templates/${created.id}`, {
        method: 'PATCH',
        json: {
          variables,
          layouts: {
            ...created.template.layouts,
            square: { ...square, layers: [...square.layers, pay(bank)] },
          },
        },
      });
    const undeclared = await save('VCB', created.template.variables);
    expect(undeclared.status).toBe(422);
    expect(JSON.stringify(await undeclared.json())).toContain('no variable is named \\"account\\"');
    const account = { name: 'account', type: 'text' };
    // A bank typed into the template would fail every row: saving says so, at its place.
    const unknownBank = await expectProblem(
      await save('Ngân hàng Mặt Trăng', [...created.template.variables, account]),
      422,
      'validation-failed',
    );
    expect(unknownBank.errors?.map((e) => e.path)).toEqual([
      `layouts.square.layers[${square.layers.length}].value.vietqr.bank`,
    ]);
    expect(unknownBank.errors?.[0]?.message).toMatch(/is not a bank a VietQR knows/);
    const values = {
      photo: 'asset:product.jpg',
      headline: 'Ceramic mug',
      price: 240000,
      account: '1023456789',
    };
    expect((await save('VCB', [...created.template.variables, account])).status).toBe(200);
    const ok = await server.api('/v1/render', {
      method: 'POST',
      json: { templateId: created.id, target: 'square', values },
    });
    expect(ok.status, await ok.clone().text()).toBe(200);
  });
});
