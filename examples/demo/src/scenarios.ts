import { join } from 'node:path';
import type { ScriptStep } from '@mcpkit/agent-host/testing';
import type { SampleData } from './server-config.js';

/** One question of the demo, and what the scripted model does with it when no real model is configured. */
export interface Scenario {
  title: string;
  question: string;
  /**
   * The scripted model's turns: which tools it calls, then its answer. The answer is built from the real tool
   * results the host sent back (`{{tool_results}}`), so every fact in it comes from the servers, not from the script.
   */
  script: ScriptStep[];
}

/** The four scenarios of the demo, in the order they are played. */
export function demoScenarios(data: SampleData): Scenario[] {
  return [
    {
      title: 'Show me all users in the database',
      question: 'Show me all users in the database.',
      script: [
        { toolCalls: [{ name: 'database__query', arguments: { sql: 'SELECT * FROM users ORDER BY id' } }] },
        { text: 'These are all the users in the database:\n\n{{tool_results}}' },
      ],
    },
    {
      title: "What is our company's vacation policy?",
      question: "What is our company's vacation policy?",
      script: [
        { toolCalls: [{ name: 'search__search', arguments: { query: 'vacation policy', limit: 3 } }] },
        {
          text: 'The search points at the handbook; reading the vacation policy page.',
          toolCalls: [
            {
              name: 'files__read_text_file',
              arguments: { path: join(data.documentsDirectory, 'handbook', 'vacation-policy.md') },
            },
          ],
        },
        { text: 'Here is the vacation policy from the company handbook:\n\n{{tool_results}}' },
      ],
    },
    {
      title: 'Two independent questions, answered with parallel tool calls in one turn',
      question: 'How many orders do we have, and what does the handbook say about remote work?',
      script: [
        {
          text: 'These two questions are independent, so both tools run at once.',
          toolCalls: [
            { name: 'database__query', arguments: { sql: 'SELECT COUNT(*) AS order_count FROM orders' } },
            { name: 'search__search', arguments: { query: 'remote work', limit: 2 } },
          ],
        },
        { text: 'Both answers, from the database and from the documents:\n\n{{tool_results}}' },
      ],
    },
    {
      title: 'Error recovery: a table that does not exist, then list_tables, then the corrected query',
      question: 'What are our five most expensive products?',
      script: [
        {
          toolCalls: [
            {
              name: 'database__query',
              arguments: { sql: 'SELECT name, price FROM product ORDER BY price DESC LIMIT 5' },
            },
          ],
        },
        {
          text: 'That table does not exist; listing the tables to find the right name.',
          toolCalls: [{ name: 'database__list_tables', arguments: {} }],
        },
        {
          text: 'The table is called products.',
          toolCalls: [
            {
              name: 'database__query',
              arguments: { sql: 'SELECT name, price FROM products ORDER BY price DESC LIMIT 5' },
            },
          ],
        },
        { text: 'The five most expensive products:\n\n{{tool_results}}' },
      ],
    },
  ];
}
