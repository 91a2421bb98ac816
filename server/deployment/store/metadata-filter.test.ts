import { describe, expect, it } from 'vitest';
import { type MetadataFilter, matchesFilters } from './metadata-filter';

const metadata = { owner: 'alice', tags: ['a', 'b'], team: 'red' };

describe('matchesFilters', () => {
  it.each<[string, MetadataFilter | undefined, boolean]>([
    ['no filters', undefined, true],
    ['equal string', { owner: 'alice' }, true],
    ['other owner', { owner: 'bob' }, false],
    ['missing key', { missing: 'x' }, false],
    ['$eq', { owner: { $eq: 'alice' } }, true],
    ['$eq other', { owner: { $eq: 'bob' } }, false],
    ['$contains one', { tags: { $contains: 'a' } }, true],
    ['$contains all', { tags: { $contains: ['a', 'b'] } }, true],
    ['$contains absent', { tags: { $contains: ['a', 'c'] } }, false],
    ['$contains on a string', { owner: { $contains: 'a' } }, false],
    ['$or one matches', { $or: [{ owner: 'bob' }, { team: 'red' }] }, true],
    ['$or none matches', { $or: [{ owner: 'bob' }, { team: 'blue' }] }, false],
    ['$and all match', { $and: [{ owner: 'alice' }, { team: 'red' }] }, true],
    ['$and one fails', { $and: [{ owner: 'alice' }, { team: 'blue' }] }, false],
    ['key and $or', { owner: 'alice', $or: [{ team: 'blue' }] }, false],
  ])('%s', (_name, filters, expected) => {
    expect(matchesFilters(metadata, filters)).toBe(expected);
  });
});
