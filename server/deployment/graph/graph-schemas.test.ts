import { describe, expect, it } from 'vitest';
import { withoutOverwrite } from './graph-schemas';

const OVERWRITE = '{__overwrite__:any[];}';
const overwriteRef = { $ref: `#/definitions/${OVERWRITE}` };

describe('withoutOverwrite', () => {
  it("drops a reducer channel's Overwrite alternative and its unused definition", () => {
    const schema = {
      type: 'object',
      properties: {
        messages: { anyOf: [{ type: 'array', items: { type: 'string' } }, overwriteRef] },
        total: { anyOf: [{ type: 'number' }, { type: 'string' }, overwriteRef] },
        place: { $ref: '#/definitions/Place' },
      },
      definitions: {
        [OVERWRITE]: { type: 'object', properties: { __overwrite__: { type: 'array' } } },
        Place: { type: 'object', properties: { city: { type: 'string' } } },
      },
    };
    expect(withoutOverwrite(schema)).toEqual({
      type: 'object',
      properties: {
        messages: { type: 'array', items: { type: 'string' } },
        total: { anyOf: [{ type: 'number' }, { type: 'string' }] },
        place: { $ref: '#/definitions/Place' },
      },
      definitions: { Place: { type: 'object', properties: { city: { type: 'string' } } } },
    });
  });

  it('leaves a schema without Overwrite as it is', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } } };
    expect(withoutOverwrite(schema)).toEqual(schema);
    expect(withoutOverwrite(undefined)).toBeUndefined();
  });
});
