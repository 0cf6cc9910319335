import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';

/** `test_elicitation_sep1034_defaults`: a form whose fields carry defaults (scenario elicitation-sep1034-defaults). */
export const elicitationDefaults = defineTool({
  name: 'test_elicitation_sep1034_defaults',
  description: 'Asks the user for a form whose every field has a default value.',
  async handler(_args, { elicit }) {
    const answer = await elicit(
      'Please review your profile.',
      z.object({
        name: z.string().default('John Doe').describe('Your name'),
        age: z.number().int().default(30).describe('Your age'),
        score: z.number().default(95.5).describe('Your score'),
        status: z.enum(['active', 'inactive', 'pending']).default('active').describe('Account status'),
        verified: z.boolean().default(true).describe('Whether the account is verified'),
      }),
    );
    const content = answer.action === 'accept' ? JSON.stringify(answer.content) : '{}';
    return `Elicitation completed: action=${answer.action}, content=${content}`;
  },
});

/** A titled option: zod turns a literal with a title into `{ const, title }`. */
const titled = (value: string, title: string) => z.literal(value).meta({ title });

/** `test_elicitation_sep1330_enums`: the five enum shapes of SEP-1330 (scenario elicitation-sep1330-enums). */
export const elicitationEnums = defineTool({
  name: 'test_elicitation_sep1330_enums',
  description: 'Asks the user for a form with every kind of single and multiple choice field.',
  async handler(_args, { elicit }) {
    const answer = await elicit(
      'Please choose your options.',
      z.object({
        untitledSingle: z.enum(['option1', 'option2', 'option3']),
        titledSingle: z
          .xor([titled('value1', 'First Option'), titled('value2', 'Second Option'), titled('value3', 'Third Option')])
          .meta({ type: 'string' }),
        legacyEnum: z.enum(['opt1', 'opt2', 'opt3']).meta({ enumNames: ['Option One', 'Option Two', 'Option Three'] }),
        untitledMulti: z.array(z.enum(['option1', 'option2', 'option3'])),
        titledMulti: z.array(
          z.union([
            titled('value1', 'First Choice'),
            titled('value2', 'Second Choice'),
            titled('value3', 'Third Choice'),
          ]),
        ),
      }),
    );
    const content = answer.action === 'accept' ? JSON.stringify(answer.content) : '{}';
    return `Elicitation completed: action=${answer.action}, content=${content}`;
  },
});
