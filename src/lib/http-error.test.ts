import { describe, expect, it } from 'vitest';
import { readErrorDetail, toHttpError } from './http-error';

describe('toHttpError', () => {
  it.each([
    ['FastAPI string detail', 401, '{"detail":"Invalid API key"}', 'Invalid API key'],
    [
      'FastAPI validation list',
      422,
      '{"detail":[{"loc":["query","end_time"],"msg":"must be after start_time","type":"value_error"}]}',
      'end_time: must be after start_time',
    ],
    ['plain text body', 502, 'Bad gateway', 'Bad gateway'],
    ['empty body', 500, '', 'The server answered 500.'],
    ['JSON without detail', 404, '{}', 'The server answered 404.'],
  ])('%s', async (_case, status, body, message) => {
    const error = await toHttpError(new Response(body, { status }));
    expect(error.status).toBe(status);
    expect(error.message).toBe(message);
  });
});

describe('readErrorDetail', () => {
  it.each([
    ['a string detail', '{"detail":"Thread not found"}', 'Thread not found'],
    ['a list detail', '{"detail":[{"msg":"x"}]}', [{ msg: 'x' }]],
    ['JSON without detail', '{"error":"x"}', null],
    ['a body that is not JSON', 'upstream timed out', 'upstream timed out'],
  ])('%s', (_case, body, detail) => {
    expect(readErrorDetail(body)).toEqual(detail);
  });
});
