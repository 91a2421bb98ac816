import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { abortableSleep } from './abortable-sleep';

const FORECASTS: Record<string, string> = {
  sf: "It's 60 degrees and foggy in San Francisco.",
  nyc: "It's 90 degrees and sunny in New York.",
  la: "It's 75 degrees and clear in Los Angeles.",
  london: "It's 55 degrees and drizzling in London.",
  paris: "It's 68 degrees and cloudy in Paris.",
};

/** The demo tool: a fixed forecast per city, taking `stepMs` like a real lookup would. */
export function createWeatherTool(stepMs: number) {
  return tool(
    async ({ city }, config: LangGraphRunnableConfig) => {
      // Progress for clients streaming the `custom` mode.
      config.writer?.({ tool: 'get_weather', city, status: 'looking up' });
      await abortableSleep(stepMs, config.signal);
      return FORECASTS[city.toLowerCase()] ?? `It's 70 degrees and sunny in ${city}.`;
    },
    {
      name: 'get_weather',
      description: 'Get the current weather for a city.',
      schema: z.object({ city: z.string().describe('City name or short code, e.g. "sf"') }),
    },
  );
}
