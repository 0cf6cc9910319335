import type { CallToolResult, JSONRPCMessage, ServerResult } from '@modelcontextprotocol/server';
import { isJsonObjectText } from './json-object-text.js';
import type { Logger } from './logger.js';
import { errorResult } from './results.js';

// A pre-rendered result's structured content travels as JSON text from the tool to the stdout line when the
// transport can write it in place (docs/decisions/0018-pre-rendered-results.md, "The stdio splice"):
// 1. `runTool` returns a deferred result: its `structuredContent` is parsed only when something reads it (middleware
//    that looks at it pays the parse; the rest never do).
// 2. After the middleware, `settleToolResult` either parses it (a transport that does not splice: HTTP, in memory,
//    or text that is not one JSON object on one line) or, for a splicing transport, puts a placeholder in its place:
//    `{ [placeholderKey]: holder }`, where `holder` carries the text under a symbol only this module knows. The
//    SDK's result check keeps it (2025-11-25 copies the record's top level and keeps its values; 2026-07-28 keeps the
//    value as it is).
// 3. The transport's `splicedLine` finds the holder in the response and writes the text where the placeholder was.
//
// The text was checked to be exactly one JSON object without control characters (`isJsonObjectText`) before its
// holder was made, so nothing in it can end the line, close the result early or add a member beside it; a holder is
// made nowhere else, and a transport that does not declare `splicesStructuredJson` never gets one.

/** Declared (as `true`) by a transport whose `send` writes spliced structured content in place of the placeholder. */
export const splicesStructuredJson: unique symbol = Symbol('mcpkit.splicesStructuredJson');

/** The key of the placeholder that stands for the structured content in the SDK's message object. */
export const placeholderKey = 'io.mcpkit/spliced-structured-content';

/** The state of a deferred result, kept under a symbol only this module knows (no WeakMap: its entries cost GC time). */
const deferredState: unique symbol = Symbol('mcpkit.deferredStructuredContent');

/** The JSON text a placeholder's holder stands for, under a symbol only this module knows: a holder cannot be forged. */
const holderJson: unique symbol = Symbol('mcpkit.splicedStructuredContent');

interface DeferredState {
  /** The JSON text while nobody has read or replaced the structured content; undefined after. */
  json: string | undefined;
  value: unknown;
  /** The accessor's getter, to tell that `structuredContent` is still the accessor (not deleted and set again). */
  getter: (() => unknown) | undefined;
}

/** SDK servers whose transport splices (the kit's stdio entry marks each instance it connects). */
const splicingServers = new WeakSet<object>();

/**
 * A tool result whose structured content is still JSON text: reading `structuredContent` parses it (once); setting
 * it replaces it. Until then the text can go to the client as it is.
 */
export function deferredResult(content: CallToolResult['content'], json: string): CallToolResult {
  const state: DeferredState = { json, value: undefined, getter: undefined };
  const result = {
    content,
    get structuredContent(): unknown {
      if (state.json !== undefined) {
        state.value = JSON.parse(state.json);
        state.json = undefined;
      }
      return state.value;
    },
    set structuredContent(next: unknown) {
      state.json = undefined;
      state.value = next;
    },
    [deferredState]: state,
  };
  state.getter = Object.getOwnPropertyDescriptor(result, 'structuredContent')?.get;
  return result as CallToolResult;
}

/** Marks an SDK server whose messages go out through `transport`, when that transport splices. */
export function markSplicing(server: object, transport: object): void {
  if ((transport as { [splicesStructuredJson]?: unknown })[splicesStructuredJson] === true) splicingServers.add(server);
}

/** Whether an SDK server's answers reach a transport that splices: marked by the kit's stdio entry, or connected to one. */
export function transportSplices(server: { transport?: object | undefined }): boolean {
  if (splicingServers.has(server)) return true;
  const transport = server.transport as { [splicesStructuredJson]?: unknown } | undefined;
  return transport?.[splicesStructuredJson] === true;
}

/** The result's own string-keyed fields but `structuredContent`, read without invoking its getter. */
function withoutStructured(result: object): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key in result) {
    if (key !== 'structuredContent' && Object.hasOwn(result, key))
      fields[key] = (result as Record<string, unknown>)[key];
  }
  return fields;
}

/**
 * The result of a tools/call as the SDK gets it, once the middleware is done with it. A deferred result whose
 * structured content nobody read becomes a placeholder for a splicing transport (when its text is one JSON object),
 * else a plain result with the text parsed. Text that is not a JSON object is the tool's bug: logged, and answered
 * like any internal error.
 */
export function settleToolResult(result: ServerResult, splices: boolean, log: Logger, toolName: string): ServerResult {
  const state = (result as { [deferredState]?: DeferredState })[deferredState];
  const json = state?.json;
  // Read or replaced by middleware (or a copy it made): the result is what it is now.
  if (json === undefined || Object.getOwnPropertyDescriptor(result, 'structuredContent')?.get !== state?.getter) {
    return result;
  }
  const settled = withoutStructured(result);
  if (splices && isJsonObjectText(json)) {
    settled.structuredContent = { [placeholderKey]: { [holderJson]: json } };
    return settled as ServerResult;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    parsed = error;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || parsed instanceof Error) {
    log.error(`Tool "${toolName}" returned pre-rendered structured content that is not a JSON object`, parsed);
    return errorResult(`The tool "${toolName}" failed with an internal error; the server's log has the details.`);
  }
  settled.structuredContent = parsed;
  return settled as ServerResult;
}

/**
 * The stdio line of a response whose result carries a placeholder, with the JSON text written in its place; undefined
 * for any other message (it is serialized as usual). Built by construction: the envelope and the result's other
 * fields are serialized by `JSON.stringify`, the checked text goes where `structuredContent`'s value belongs.
 */
export function splicedLine(message: JSONRPCMessage): string | undefined {
  const result = (message as { result?: unknown }).result;
  if (typeof result !== 'object' || result === null) return undefined;
  const placeholder = (result as { structuredContent?: unknown }).structuredContent;
  if (typeof placeholder !== 'object' || placeholder === null) return undefined;
  const holder = (placeholder as Record<string, unknown>)[placeholderKey];
  if (typeof holder !== 'object' || holder === null) return undefined;
  const json = (holder as { [holderJson]?: unknown })[holderJson];
  if (typeof json !== 'string') return undefined;
  const fields = JSON.stringify(withoutStructured(result));
  const body =
    fields === '{}' ? `{"structuredContent":${json}}` : `${fields.slice(0, -1)},"structuredContent":${json}}`;
  const { result: _result, ...envelope } = message as { result: unknown };
  return `${JSON.stringify(envelope).slice(0, -1)},"result":${body}}\n`;
}
