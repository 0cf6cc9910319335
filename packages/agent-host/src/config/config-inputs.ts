import { HostError } from '../errors.js';

/** A VS Code `inputs` entry: a value asked of the user once and referred to as `${input:ID}`. */
export interface ConfigInput {
  id: string;
  type: string;
  description?: string;
  password?: boolean;
  default?: string;
}

/** Where the values of VS Code inputs come from besides the config's defaults. */
export interface InputSources {
  /** Values given on the command line (`--input id=value`), by id; they win over everything else. */
  values?: Record<string, string>;
  /** Environment holding `MCPKIT_INPUT_<ID>` variables. */
  environment: NodeJS.ProcessEnv;
  /** Asks a person; undefined means no answer (then the default, if any). */
  ask?(input: ConfigInput): Promise<string | undefined>;
}

/**
 * The environment variable that gives an input its value when no one can be asked: `MCPKIT_INPUT_` and the id in
 * capitals, every other character as `_` (`api-key` is `MCPKIT_INPUT_API_KEY`).
 */
export function inputVariableName(id: string): string {
  return `MCPKIT_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * Returns a function that gives each input's value, working it out once per id on first use: the command-line value,
 * then the environment variable, then the person asked, then the input's default. An input with none of them is a
 * CONFIG_INPUT_MISSING HostError saying the three ways to give it.
 */
export function inputResolver(
  declared: ReadonlyMap<string, ConfigInput>,
  sources: InputSources,
): (id: string) => Promise<string> {
  const resolved = new Map<string, Promise<string>>();
  const resolve = async (input: ConfigInput): Promise<string> => {
    const value =
      sources.values?.[input.id] ??
      sources.environment[inputVariableName(input.id)] ??
      (await sources.ask?.(input)) ??
      input.default;
    if (value !== undefined) return value;
    throw new HostError(
      'CONFIG_INPUT_MISSING',
      `input "${input.id}" (${input.description ?? 'no description'}) needs a value: set ${inputVariableName(input.id)}, ` +
        `pass --input ${input.id}=VALUE, or run at a terminal to be asked.`,
    );
  };
  return (id) => {
    const input = declared.get(id);
    if (!input) {
      return Promise.reject(
        new HostError('CONFIG_INVALID', `refers to input "${id}", which "inputs" does not declare.`),
      );
    }
    let value = resolved.get(id);
    if (!value) {
      value = resolve(input);
      resolved.set(id, value);
    }
    return value;
  };
}
