#!/usr/bin/env node
// The cold-start peer of mcpkit-search: a raw SDK 2.x McpServer over stdio offering the same five tools (names,
// titles, descriptions, input schemas, annotations) as `mcpkit-search --no-watch DIR`, written as one would with
// the SDK alone. It only lists them: the bench times spawn to the answer of tools/list, and the handlers say so.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const listedOnly = () => ({ content: [{ type: 'text', text: 'This bench peer only lists its tools.' }] });

serveStdio(() => {
  const server = new McpServer(
    { name: 'bench-sdk-search', version: '1.0.0', title: 'Document and Web Search' },
    {
      instructions:
        'Search the local documents with `search` (results give path:line), read them with `get_document`. ' +
        'Fetch web pages with `fetch_url`.',
    },
  );
  server.registerTool(
    'search',
    {
      title: 'Search local documents',
      description:
        'Full-text search over the local documents (BM25 ranking; matches in titles and paths count more). Plain ' +
        'words or a question match any of the words; also "exact phrase", prefix*, AND / OR / NOT, title:word. ' +
        'Results give path:line and a snippet with matches in **bold**; read more with get_document.',
      inputSchema: z.object({
        query: z.string().min(1).max(1000).describe('Words, a question, or an FTS5 query'),
        limit: z.number().int().min(1).max(50).optional().describe('Results per page (default 10, at most 50)'),
        cursor: z.string().optional().describe('The nextCursor of an earlier answer, for the next page'),
        path_glob: z
          .string()
          .max(500)
          .optional()
          .describe('Only files whose path relative to its directory matches this glob, e.g. "docs/**/*.md"'),
      }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    listedOnly,
  );
  server.registerTool(
    'get_document',
    {
      title: 'Read a local document',
      description:
        'Read a text document inside the indexed directories by lines, with line numbers. Use the path:line of a ' +
        'search result: offset is the first line to show (1-based), limit how many lines.',
      inputSchema: z.object({
        path: z.string().min(1).describe('Absolute path, or relative to the first indexed directory'),
        offset: z.number().int().min(1).optional().describe('First line to show, 1-based (default 1)'),
        limit: z.number().int().min(1).max(2000).optional().describe('Lines to show (default 200, at most 2000)'),
      }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    listedOnly,
  );
  server.registerTool(
    'index_path',
    {
      title: 'Index a directory',
      description:
        'Add or refresh the index of a directory inside the allowed directories (only changed files are read). ' +
        'The server already indexes its directories at start and watches them; use this after large changes.',
      inputSchema: z.object({
        path: z.string().min(1).describe('Directory to index: absolute, or relative to the first allowed directory'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    listedOnly,
  );
  server.registerTool(
    'index_status',
    {
      title: 'Index status',
      description:
        'Show which directories are indexed, how many documents the index holds, and any indexing in progress.',
      inputSchema: z.object({}),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    listedOnly,
  );
  server.registerTool(
    'fetch_url',
    {
      title: 'Fetch a web page',
      description:
        'Fetch a public http(s) URL and return its main content as Markdown (HTML) or as text (plain text, JSON). ' +
        'Long pages come in pieces: call again with start_index to continue. raw=true returns the HTML itself.',
      inputSchema: z.object({
        url: z.string().min(1).max(4000).describe('Absolute http:// or https:// URL'),
        max_length: z
          .number()
          .int()
          .min(100)
          .max(100_000)
          .optional()
          .describe('Characters to return (default 8000, at most 100000)'),
        start_index: z
          .number()
          .int()
          .min(0)
          .optional()
          .describe('Character to start at, for the next piece (default 0)'),
        raw: z.boolean().optional().describe('Return the page as received instead of Markdown'),
      }),
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    listedOnly,
  );
  return server;
});
