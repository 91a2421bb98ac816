import { DEMO_PROJECT_NAMES, DEMO_WORKSPACES, demoUserEmail } from './demo-catalog';
import type { SeedProfile } from './seed-profiles';
import { stableUuid } from './stable-uuid';

/**
 * Dimension rows of a profile. Projects, users and API keys are dealt round-robin to
 * workspaces (item `i` belongs to workspace `i % workspaces`, as number `floor(i / workspaces)`
 * there), which is what lets the trace generator pick them with integer arithmetic.
 */
export interface SeedDimensions {
  workspaces: { idx: number; id: string; name: string; weight: number }[];
  projects: { wsIdx: number; localIdx: number; id: string; name: string }[];
  users: { wsIdx: number; localIdx: number; id: string; email: string | null }[];
  apiKeys: { wsIdx: number; localIdx: number; id: string; shortKey: string; description: string }[];
}

export function buildDimensions(profile: SeedProfile): SeedDimensions {
  const { seed, demoNames } = profile;
  const deal = (i: number) => ({
    wsIdx: i % profile.workspaces,
    localIdx: Math.floor(i / profile.workspaces),
  });
  const workspaces = range(profile.workspaces).map((idx) => ({
    idx,
    id: stableUuid(seed, 'workspace', idx),
    name:
      profile.workspaceNames?.[idx] ??
      (demoNames ? DEMO_WORKSPACES[idx] : undefined) ??
      `Workspace ${idx + 1}`,
    // Zipf-like: the first workspace carries the most traffic.
    weight: 1 / (idx + 1),
  }));
  const projects = range(profile.projects).map((i) => {
    const { wsIdx, localIdx } = deal(i);
    const demoName = DEMO_PROJECT_NAMES[localIdx % DEMO_PROJECT_NAMES.length];
    return {
      wsIdx,
      localIdx,
      id: stableUuid(seed, 'project', i),
      name:
        demoNames && demoName
          ? `${demoName}${localIdx >= 8 ? ` ${localIdx}` : ''}`
          : `project-${i + 1}`,
    };
  });
  const users = range(profile.users).map((i) => ({
    ...deal(i),
    id: stableUuid(seed, 'user', i),
    email: demoNames ? demoUserEmail(i) : i % 50 === 7 ? null : `user${i + 1}@example.com`,
  }));
  const apiKeys = range(profile.apiKeys).map((i) => {
    const id = stableUuid(seed, 'api_key', i);
    return {
      ...deal(i),
      id,
      shortKey: i === 5 && demoNames ? '-legacy-key' : `lsv2_pt_...${id.slice(0, 4)}`,
      description: `Key ${i + 1}`,
    };
  });
  return { workspaces, projects, users, apiKeys };
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
