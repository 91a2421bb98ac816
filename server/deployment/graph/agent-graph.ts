import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { abortableSleep } from './abortable-sleep';
import { ScriptedChatModel } from './scripted-chat-model';
import { createWeatherTool } from './weather-tool';

interface AgentGraphOptions {
  checkpointer: BaseCheckpointSaver;
  /**
   * Time each model step (and the tool) takes; ends at once when the run is stopped (the
   * `signal` LangGraph gives each node and tool: the one the run's stream was given).
   */
  stepMs: number;
}

/** The demo `agent` graph: a ReAct loop of the scripted model and the `get_weather` tool. */
export function createAgentGraph({ checkpointer, stepMs }: AgentGraphOptions) {
  const model = new ScriptedChatModel();
  return (
    new StateGraph(MessagesAnnotation)
      .addNode('agent', async (state, config) => {
        await abortableSleep(stepMs, config.signal);
        return { messages: [await model.invoke(state.messages, config)] };
      })
      // Tool errors (a stop among them) end the run rather than becoming tool messages.
      .addNode('tools', new ToolNode([createWeatherTool(stepMs)], { handleToolErrors: false }))
      .addEdge(START, 'agent')
      .addConditionalEdges('agent', toolsCondition, ['tools', END])
      .addEdge('tools', 'agent')
      .compile({ checkpointer, name: 'agent' })
  );
}

export type AgentGraph = ReturnType<typeof createAgentGraph>;
