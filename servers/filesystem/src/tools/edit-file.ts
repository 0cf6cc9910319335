import { isUtf8 } from 'node:buffer';
import { defineTool, ToolError } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { ToolDependencies } from '../dependencies.js';
import type { EditTaskInput, EditTaskOutput } from '../editing/edit-task.js';
import { editing, reading } from '../loaded-on-first-use.js';

/** Largest file edit_file loads whole, and the most characters an edit may make it. */
const maxEditBytes = 10 * 1024 * 1024;
/** Milliseconds matching the edits and diffing may take, in a worker that is stopped after. */
const editTimeMs = 15_000;
/** Matching and diffing run in the server's workers, never on the main thread. */
const editTask = { module: new URL('../editing/edit-task.js', import.meta.url), name: 'editText' };

/** edit_file: exact-text replacements with a unified diff; keeps line endings and BOM; dryRun previews. */
export function editFile(dependencies: ToolDependencies) {
  return defineTool({
    name: 'edit_file',
    title: 'Edit File',
    description:
      'Replace exact text in a file inside the allowed directories and return a git-style diff. Each edit must match ' +
      'exactly one place unless replaceAll is set. Line endings (CRLF/LF) and a BOM are preserved. Use dryRun to ' +
      'preview the diff without writing.',
    input: z.object({
      path: z.string().describe('File path, absolute or relative to the first allowed directory'),
      edits: z
        .array(
          z.object({
            oldText: z.string().describe('Text to search for - must match exactly'),
            newText: z.string().describe('Text to replace with'),
            replaceAll: z.boolean().optional().describe('Replace every occurrence instead of requiring one'),
          }),
        )
        .min(1),
      dryRun: z.boolean().default(false).describe('Preview changes using git-style diff format'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async handler({ path, edits, dryRun }, context) {
      const { writeAtomically } = await editing();
      const { readAtMost } = await reading();
      const scope = await dependencies.guard.scope(context);
      // The target is checked as a write first, so an edit never follows a symlink, like write_file.
      const target = await scope.writeTarget(path);
      if (!target.existing) throw new ToolError(`${path} does not exist; create it with write_file.`);
      const file = await scope.openFile(target.path);
      let raw: Buffer | undefined;
      try {
        raw = file.stats.size > maxEditBytes ? undefined : await readAtMost(file.handle, maxEditBytes, context.signal);
      } finally {
        await file.handle.close();
      }
      if (!raw) throw new ToolError(`${path} is over ${maxEditBytes / 1024 / 1024} MB; edit_file loads files whole.`);
      if (raw.subarray(0, 8192).includes(0)) throw new ToolError(`${path} looks binary; edit_file edits text files.`);
      // Decoded and written back, every byte that is not UTF-8 would become U+FFFD, in lines the edit never touches.
      if (!isUtf8(raw)) {
        throw new ToolError(
          `${path} is not valid UTF-8 (another encoding, such as Latin-1?); edit_file edits UTF-8 text and would change the bytes it cannot decode. Replace the file whole with write_file, or convert it to UTF-8 first.`,
        );
      }
      // Decoding, the layout (CRLF, BOM), the edits, the diff and the encoding all run in a worker: each costs time in
      // proportion to the file or the change, and the file's content is untrusted.
      const { content, diff } = await dependencies.workers.run<EditTaskOutput>(
        editTask,
        { path: file.path, raw, edits, maxChars: maxEditBytes } satisfies EditTaskInput,
        { signal: context.signal, timeoutMs: editTimeMs, label: 'the edit' },
      );
      if (!dryRun) await writeAtomically(scope, target, content, path);
      let fence = '```';
      while (diff.includes(fence)) fence += '`';
      return `${fence}diff\n${diff}${fence}\n\n`;
    },
  });
}
