/** The one graph the embedded deployment serves; its traces go to a project of this name. */
export const AGENT_GRAPH_ID = 'agent';
