import { describe, expect, it } from 'vitest';
import { ToolRegistry } from '../registry/tool-registry.js';
import { searchTerms, stem } from './search-terms.js';
import { ToolIndex } from './tool-index.js';
import { searchToolsName, ToolSelection } from './tool-selection.js';

const tool = (name: string, description: string, parameters: string[] = [], title?: string) => ({
  name,
  description,
  ...(title ? { title } : {}),
  inputSchema: { type: 'object' as const, properties: Object.fromEntries(parameters.map((key) => [key, {}])) },
});

const registry = ToolRegistry.from([
  {
    name: 'tracker',
    tools: [
      tool('create_issue', 'Create a new issue in a project.', ['project_id', 'title', 'body']),
      tool('list_issues', 'List the issues of a project, newest first.', ['project_id', 'cursor']),
      tool('add_comment', 'Add a comment to an issue.', ['issue_id', 'body']),
    ],
    pin: ['list_*'],
  },
  {
    name: 'calendar',
    tools: [
      tool('createEvent', 'Schedule a meeting on a calendar.', ['calendarId', 'startTime', 'attendees'], 'New event'),
      tool('delete_event', 'Delete an event permanently.', ['event_id']),
    ],
  },
]);

describe('searchTerms', () => {
  it('splits identifiers, drops stop words and stems both sides alike', () => {
    expect(searchTerms('readTextFile read_text_file HTTPServer')).toEqual([
      'read',
      'text',
      'fil',
      'read',
      'text',
      'fil',
      'http',
      'server',
    ]);
    expect(searchTerms('I want to create the issues')).toEqual(['creat', 'issu']);
    for (const [left, right] of [
      ['create', 'creating'],
      ['created', 'creates'],
      ['query', 'queries'],
      ['status', 'statuses'],
      ['box', 'boxes'],
    ] as const) {
      expect(stem(left)).toBe(stem(right));
    }
  });
});

describe('ToolIndex', () => {
  it('ranks by name, title, parameter names and description, best first', () => {
    const index = new ToolIndex(registry.list());
    expect(index.search('create an issue', 3)[0]?.entry.modelName).toBe('tracker__create_issue');
    expect(index.search('schedule meeting with attendees', 3)[0]?.entry.tool).toBe('createEvent');
    expect(index.search('new event', 1)[0]?.entry.tool).toBe('createEvent');
    expect(index.search('comment', 5).map((match) => match.entry.tool)).toEqual(['add_comment']);
    expect(index.search('zebra', 5)).toEqual([]);
  });
});

describe('ToolSelection', () => {
  it('offers every tool below the threshold, and search_tools plus pinned and found tools above it', () => {
    expect(new ToolSelection(registry).searching).toBe(false);
    expect(new ToolSelection(registry).specs()).toHaveLength(5);
    const selection = new ToolSelection(registry, { mode: 'always' });
    expect(selection.specs().map((spec) => spec.name)).toEqual([searchToolsName, 'tracker__list_issues']);
    const found = selection.search({ query: 'delete calendar event', limit: 1 });
    expect(found).toMatchObject({ isError: false, found: ['calendar__delete_event'] });
    expect(found.text).toContain('- calendar__delete_event (server calendar): Delete an event permanently.');
    expect(selection.specs().map((spec) => spec.name)).toEqual([
      searchToolsName,
      'tracker__list_issues',
      'calendar__delete_event',
    ]);
    expect(selection.search({}).isError).toBe(true);
    expect(new ToolSelection(registry, { mode: 'auto', threshold: 4 }).searching).toBe(true);
    expect(new ToolSelection(registry, { mode: 'never', threshold: 0 }).isSearchCall(searchToolsName)).toBe(false);
  });
});
