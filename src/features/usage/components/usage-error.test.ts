import { describe, expect, it } from 'vitest';
import { HttpError } from '@/lib/http-error';
import { describeUsageError } from './usage-error';

describe('describeUsageError', () => {
  const refused = () => new HttpError(401, 'Invalid API key.', 'Invalid API key.');

  it('on a first run (empty embedded database) names the command that creates a key', () => {
    const { title, body } = describeUsageError(refused(), { firstRun: true });
    expect(title).toBe('This console has no usage API key yet');
    expect(body).toContain('npm run -s usage:create-key');
    expect(body).toContain('USAGE_CONSOLE_API_KEY');
    expect(body).not.toContain('demo');
  });

  it('otherwise asks to check the key', () => {
    expect(describeUsageError(refused()).body).toContain('Check the key under Connection.');
  });
});
