import { randomUUID } from 'node:crypto';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { abortableSleep } from './abortable-sleep';
import { scriptedReply } from './scripted-model';
import type { StopSignalOf } from './stop-signals';
import { createWeatherTool } from './weather-tool';

interface AgentGraphOptions {
  checkpointer: BaseCheckpointSaver;
  /** Time each model step (and the tool) takes; aborts at once with the run's signal. */
  stepMs: number;
  /** The stop signal of the run a node executes for (see stop-signals.ts). */
  signalOf: StopSignalOf;
}

/** The demo `agent` graph: a ReAct loop of the scripted model and the `get_weather` tool. */
export function createAgentGraph({ checkpointer, stepMs, signalOf }: AgentGraphOptions) {
  return (
    new StateGraph(MessagesAnnotation)
      .addNode('agent', async (state, config) => {
        await abortableSleep(stepMs, signalOf(config));
        return { messages: [scriptedReply(state.messages, `call_${randomUUID()}`)] };
      })
      // Tool errors (a stop among them) end the run rather than becoming tool messages.
      .addNode(
        'tools',
        new ToolNode([createWeatherTool(stepMs, signalOf)], { handleToolErrors: false }),
      )
      .addEdge(START, 'agent')
      .addConditionalEdges('agent', toolsCondition, ['tools', END])
      .addEdge('tools', 'agent')
      .compile({ checkpointer, name: 'agent' })
  );
}

export type AgentGraph = ReturnType<typeof createAgentGraph>;
