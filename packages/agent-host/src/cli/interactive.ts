import type { ApprovalAnswer, ApprovalRequest } from '../approvals/approval-handler.js';
import type { ConfigInput } from '../config/parse-config.js';
import type { ElicitationAnswer, ElicitationRequest, SamplingRequest } from '../connection/client-requests.js';
import { errorMessage } from '../errors.js';
import type { LineReader } from './line-reader.js';
import { writeError } from './output.js';

type FieldValue = string | number | boolean | string[];

/** Reads one form field from the user; undefined when left empty. Throws on a value of the wrong type. */
function convert(raw: string, field: Record<string, unknown>): FieldValue | undefined {
  if (raw === '') return undefined;
  const type = field.type;
  if (type === 'number' || type === 'integer') {
    const number = Number(raw);
    if (!Number.isFinite(number) || (type === 'integer' && !Number.isInteger(number))) {
      throw new Error(`expected ${type === 'integer' ? 'a whole number' : 'a number'}`);
    }
    return number;
  }
  if (type === 'boolean') {
    if (/^(y|yes|true)$/i.test(raw)) return true;
    if (/^(n|no|false)$/i.test(raw)) return false;
    throw new Error('expected yes or no');
  }
  if (type === 'array') return raw.split(',').map((item) => item.trim());
  const choices = Array.isArray(field.enum) ? field.enum.map(String) : undefined;
  if (choices && !choices.includes(raw)) throw new Error(`expected one of ${choices.join(', ')}`);
  return raw;
}

/** Asks the user to fill in a server's form, field by field; an empty answer to "Send?" declines. */
export async function askForm(prompt: LineReader, request: ElicitationRequest): Promise<ElicitationAnswer> {
  writeError(`\n[${request.server}] asks: ${request.message}\n`);
  const content: Record<string, FieldValue> = {};
  const required = new Set(request.schema.required ?? []);
  try {
    for (const [name, field] of Object.entries(request.schema.properties ?? {})) {
      const label = String(field.title ?? name);
      const hints = [
        String(field.type ?? 'string'),
        ...(Array.isArray(field.enum) ? [`one of ${field.enum.join('/')}`] : []),
        ...(required.has(name) ? ['required'] : []),
      ];
      for (;;) {
        const raw = (await prompt.question(`  ${label} (${hints.join(', ')}): `)).trim();
        try {
          const value = convert(raw, field);
          if (value === undefined && required.has(name)) throw new Error('a value is required');
          if (value !== undefined) content[name] = value;
          break;
        } catch (error) {
          writeError(`  ${errorMessage(error)}\n`);
        }
      }
    }
    const send = (await prompt.question('  Send this answer? [Y/n] ')).trim();
    return /^n/i.test(send) ? { action: 'decline' } : { action: 'accept', content };
  } catch {
    // The prompt was closed (Ctrl-D): the user walked away from the form.
    return { action: 'cancel' };
  }
}

/** Asks whether a server may use the host's model for a completion. */
export async function confirmSampling(prompt: LineReader, request: SamplingRequest): Promise<boolean> {
  const preview = request.messages.at(-1)?.text.slice(0, 200) ?? '';
  writeError(`\n[${request.server}] wants to use the model (up to ${request.maxTokens} tokens): ${preview}\n`);
  const answer = (await prompt.question('  Allow? [y/N] ').catch(() => '')).trim();
  return /^y/i.test(answer);
}

/** Asks for the value of a VS Code input the config uses. */
export async function askInput(prompt: LineReader, input: ConfigInput): Promise<string | undefined> {
  const fallback = input.default !== undefined && !input.password ? ` [${input.default}]` : '';
  const answer = await prompt.question(`${input.description ?? input.id}${fallback}: `, {
    hidden: input.password === true,
  });
  return answer === '' ? input.default : answer;
}

/** What a tool's annotations say about it, in a few words for the approval question. */
function toolNature(request: ApprovalRequest): string {
  const hints = request.annotations;
  if (hints?.readOnlyHint === true) return 'says it only reads';
  if (hints?.destructiveHint === false) return 'may change things, not destructively';
  return hints?.destructiveHint === true ? 'may change or delete things' : 'may change things (not marked read-only)';
}

/**
 * Asks whether a tool call may run, showing the server, the tool and the arguments; "a" runs it and every later call
 * of the same tool in this session.
 */
export async function confirmToolCall(prompt: LineReader, request: ApprovalRequest): Promise<ApprovalAnswer> {
  const json = JSON.stringify(request.arguments, null, 2);
  const shown = json.length > 2000 ? `${json.slice(0, 2000)}\n  … (${json.length - 2000} more characters)` : json;
  writeError(
    `\n[${request.server}] tool ${request.tool} ${toolNature(request)}. It would run with:\n` +
      `${shown.replace(/^/gm, '  ')}\n`,
  );
  for (;;) {
    // Ctrl-C cancels the run, which withdraws the question: the call is not run.
    const options = request.signal ? { signal: request.signal } : {};
    const answer = (await prompt.question('  Run it? [y]es, [n]o, [a]lways for this tool: ', options).catch(() => 'n'))
      .trim()
      .toLowerCase();
    if (answer === 'y' || answer === 'yes') return 'yes';
    if (answer === 'a' || answer === 'always') return 'always';
    if (answer === '' || answer === 'n' || answer === 'no') return 'no';
  }
}
