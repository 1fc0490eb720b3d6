// What a tool answers, on its own so that every part of the registry can name it without a cycle.

/** What a tool answers: the text a model reads, the same as data, and images (screenshots). */
export interface ToolResult {
  text: string;
  data: unknown;
  images?: Array<{ data: string; mimeType: string }>;
  /** The tool ran but failed (an action refused, an ID gone): the text says what to do. */
  isError?: boolean;
  /**
   * pagelens's own lines about the call (an earlier call still at work), kept apart from `text` so
   * that an answer written as JSON stays JSON; MCP sends each as its own text item.
   */
  notes?: string[];
}
