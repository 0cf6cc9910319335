import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer } from './create-server.js';
import { defineTool } from './define-tool.js';
import { KitError } from './errors.js';
import { checkParamHeaders, scanParamHeaders } from './param-headers.js';

const schema = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    count: { type: 'integer', 'x-mcp-header': 'Count' },
    options: { type: 'object', properties: { dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' } } },
    note: { type: 'string' },
  },
};

function headersOf(values: Record<string, string>) {
  const lower = Object.fromEntries(Object.entries(values).map(([name, value]) => [name.toLowerCase(), value]));
  return (name: string) => lower[name];
}

describe('scanParamHeaders', () => {
  it('finds declarations at any depth of properties', () => {
    expect(scanParamHeaders(schema)).toEqual({
      headers: [
        { path: ['region'], name: 'Region', type: 'string' },
        { path: ['count'], name: 'Count', type: 'integer' },
        { path: ['options', 'dry'], name: 'Dry-Run', type: 'boolean' },
      ],
    });
  });

  it('refuses declarations the revision forbids, each with a sentence', () => {
    const faults = [
      { type: 'object', properties: { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } } },
      { type: 'object', anyOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] },
      { type: 'object', properties: { a: { type: 'object', 'x-mcp-header': 'A' } } },
      { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'has space' } } },
      {
        type: 'object',
        properties: { a: { type: 'string', 'x-mcp-header': 'Same' }, b: { type: 'string', 'x-mcp-header': 'same' } },
      },
      { type: 'object', 'x-mcp-header': 'Root' },
      { type: 'object', $defs: { a: { type: 'string', 'x-mcp-header': 'A' } } },
    ];
    const sentences = faults.map((fault) => {
      const scan = scanParamHeaders(fault);
      return 'fault' in scan ? scan.fault : 'accepted';
    });
    expect(sentences).toEqual([
      expect.stringMatching(/^list\.<items> has x-mcp-header, which is only allowed on a property reached through/),
      expect.stringMatching(/^<anyOf>\.a has x-mcp-header, which is only allowed/),
      expect.stringMatching(/^a has x-mcp-header but is of type object/),
      expect.stringMatching(/^a has x-mcp-header "has space", which is not a valid HTTP header name/),
      'x-mcp-header "same" is declared twice (also as "Same").',
      expect.stringMatching(/^the arguments has x-mcp-header/),
      expect.stringMatching(/^<\$defs>\.a has x-mcp-header/),
    ]);
  });

  it('makes a tool with a forbidden declaration a definition error, and reads zod metadata', () => {
    const bad = defineTool({
      name: 'bad',
      description: 'Bad.',
      inputJsonSchema: { type: 'object', properties: { a: { type: 'array', 'x-mcp-header': 'A' } } },
      handler: () => 'never',
    });
    expect(() => createServer({ name: 't', version: '1', tools: [bad] })).toThrow(KitError);
    const zodTool = defineTool({
      name: 'by_region',
      description: 'Routes by region.',
      input: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) }),
      handler: ({ region }) => region,
    });
    const server = createServer({ name: 't', version: '1', tools: [zodTool] });
    expect(server.paramHeadersOf('by_region')).toEqual([{ path: ['region'], name: 'Region', type: 'string' }]);
    expect(server.paramHeadersOf('unknown')).toEqual([]);
  });
});

describe('checkParamHeaders', () => {
  const scan = scanParamHeaders(schema);
  const declared = 'headers' in scan ? scan.headers : [];

  it('accepts agreeing headers, base64-encoded ones and equal numbers, and needs none for absent arguments', () => {
    const args = { region: 'eu-west', count: 42, options: { dry: true } };
    expect(
      checkParamHeaders(
        declared,
        args,
        headersOf({ 'Mcp-Param-Region': 'eu-west', 'Mcp-Param-Count': '42.0', 'Mcp-Param-Dry-Run': 'true' }),
      ),
    ).toBeUndefined();
    const encoded = `=?base64?${Buffer.from('Zürich').toString('base64')}?=`;
    expect(
      checkParamHeaders(declared, { region: 'Zürich' }, headersOf({ 'Mcp-Param-Region': encoded })),
    ).toBeUndefined();
    expect(checkParamHeaders(declared, { region: null, note: 'x' }, headersOf({}))).toBeUndefined();
  });

  it('names the header that is missing, disagrees or is badly encoded', () => {
    expect(checkParamHeaders(declared, { region: 'eu' }, headersOf({}))).toEqual({
      header: 'Mcp-Param-Region',
      sentence: 'the body carries region but the Mcp-Param-Region header is absent',
    });
    expect(checkParamHeaders(declared, { region: 'eu' }, headersOf({ 'Mcp-Param-Region': 'us' }))?.sentence).toBe(
      'the Mcp-Param-Region header says "us" but the body carries region="eu"',
    );
    expect(checkParamHeaders(declared, { count: 42 }, headersOf({ 'Mcp-Param-Count': '0x2a' }))?.header).toBe(
      'Mcp-Param-Count',
    );
    expect(
      checkParamHeaders(declared, { region: 'eu' }, headersOf({ 'Mcp-Param-Region': '=?base64?ZXU?=' }))?.sentence,
    ).toBe('the Mcp-Param-Region header is not valid base64-encoded UTF-8');
  });
});
