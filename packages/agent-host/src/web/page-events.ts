import type { AgentEvent } from '../loop/agent-events.js';
import type { ResultCut } from '../loop/result-budget.js';
import type { ContentPart } from '../models/messages.js';
import type { PageAgentEvent, PagePart } from './protocol.js';

/** Image types the page shows as images; any other type is described in words. */
const imageTypes = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

/** A result's parts for the page: images of a known raster type kept, anything else described. */
export function pageParts(parts: readonly ContentPart[]): PagePart[] {
  return parts.map((part) =>
    part.type === 'image' && !imageTypes.has(part.mimeType)
      ? { type: 'text', text: `[image of type ${part.mimeType} not shown]` }
      : part,
  );
}

/** The page's view of a loop event: the same facts, minus the server's uncut result and the usage counts. */
export function pageEvent(event: AgentEvent): PageAgentEvent | undefined {
  switch (event.type) {
    case 'step-start':
    case 'text-delta':
      return event;
    case 'model-response':
      return undefined;
    case 'tool-call-start':
      return {
        type: 'tool-call-start',
        step: event.step,
        callId: event.callId,
        name: event.name,
        arguments: event.arguments,
        ...(event.server ? { server: event.server } : {}),
        ...(event.tool ? { tool: event.tool } : {}),
      };
    case 'tool-call-progress':
      return {
        type: 'tool-call-progress',
        step: event.step,
        callId: event.callId,
        progress: event.progress,
        ...(event.total !== undefined ? { total: event.total } : {}),
        ...(event.message !== undefined ? { message: event.message } : {}),
      };
    case 'tool-call-end':
      return {
        type: 'tool-call-end',
        step: event.step,
        callId: event.callId,
        durationMs: event.durationMs,
        isError: event.isError,
        refused: event.refused ?? false,
        parts: pageParts(event.content),
        ...(event.result?.structuredContent !== undefined ? { structured: event.result.structuredContent } : {}),
        ...(event.cut ? { cutNote: describeCut(event.cut) } : {}),
      };
    case 'step-end':
      return { type: 'step-end', step: event.step, durationMs: event.durationMs };
    case 'answer':
      return { type: 'answer', text: event.text, stoppedBy: event.stoppedBy, durationMs: event.durationMs };
  }
}

function describeCut(cut: ResultCut): string {
  return (
    `The model got about ${cut.maxTokens} of ${cut.tokens} tokens: ${cut.shownCharacters} of ` +
    `${cut.totalCharacters} characters of text, ${cut.omittedImages} images left out.`
  );
}
