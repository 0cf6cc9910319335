import { KitError } from './errors.js';

/** The spec's rule for tool names (2025-11-25, "Tool names"). */
const toolNamePattern = /^[A-Za-z0-9._-]{1,128}$/;

/** Throws a KitError naming the offender when `name` is not a valid tool name. */
export function assertToolName(name: string): void {
  if (!toolNamePattern.test(name)) {
    throw new KitError(
      'INVALID_NAME',
      `Tool name ${JSON.stringify(name)} is invalid: use 1 to 128 characters from A-Z, a-z, 0-9, "_", "-" and ".".`,
    );
  }
}

/** Throws a KitError when a prompt name is empty or contains whitespace or control characters. */
export function assertPromptName(name: string): void {
  if (name.length === 0 || name.length > 128 || /[\s\p{Cc}]/u.test(name)) {
    throw new KitError(
      'INVALID_NAME',
      `Prompt name ${JSON.stringify(name)} is invalid: use 1 to 128 characters without spaces or control characters.`,
    );
  }
}
