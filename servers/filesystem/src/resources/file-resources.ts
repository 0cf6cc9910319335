import { fileURLToPath, pathToFileURL } from 'node:url';
import { defineResource, ToolError } from '@mcpkit/server-kit';
import type { ToolDependencies } from '../dependencies.js';
import { reading } from '../loaded-on-first-use.js';

/** Files and directories inside the roots as `file://` resources: text, binary (base64) or a directory listing. */
export function fileResources(dependencies: ToolDependencies) {
  return defineResource({
    template: 'file://{+path}',
    name: 'file',
    title: 'Files in the allowed directories',
    description:
      'A file (its text, or base64 for binary files) or a directory (its listing) inside the allowed directories.',
    async read(uri, _variables, context) {
      const { budgetedPage, readAtMost, mimeTypeOf, readLines, kindLabel, listDirectoryEntries } = await reading();
      const scope = await dependencies.guard.scope(context);
      let requested: string;
      try {
        requested = fileURLToPath(uri);
      } catch {
        throw new ToolError(`${uri} is not a file URI of this machine.`);
      }
      const real = await scope.existing(requested);
      const opened = await scope.openFile(real).catch((error: unknown) => {
        if (ToolError.isInstance(error) && error.message.includes('is a directory')) return undefined;
        throw error;
      });
      if (!opened) {
        const { entries } = await listDirectoryEntries(scope, real);
        // The first page, by entries and by characters (names run to 255 characters); list_directory has the rest.
        const { lines } = budgetedPage(
          entries,
          undefined,
          dependencies.limits.pageSize,
          dependencies.limits.readBudget - 100,
          (entry) => `${kindLabel(entry.kind)} ${entry.name}`,
        );
        if (entries.length > lines.length)
          lines.push(`[${entries.length - lines.length} more entries: use list_directory]`);
        return { uri, mimeType: 'text/plain', text: lines.join('\n') };
      }
      try {
        const mimeType = mimeTypeOf(real);
        const content = { uri: pathToFileURL(real).href, mimeType };
        const head = Buffer.alloc(8192);
        const { bytesRead } = await opened.handle.read(head, 0, head.length, 0);
        if (!head.subarray(0, bytesRead).includes(0)) {
          const read = await readLines(opened.handle, {
            budget: dependencies.limits.readBudget,
            signal: context.signal,
            size: opened.stats.size,
          });
          const note = read.more
            ? `\n[truncated at line ${read.lastLine}: use read_text_file with offset for the rest]`
            : '';
          return {
            ...content,
            mimeType: mimeType.startsWith('text/') ? mimeType : 'text/plain',
            text: read.text + note,
          };
        }
        const overCap = new ToolError(
          `${requested} is over the ${dependencies.limits.mediaBytes}-byte cap for binary resources.`,
        );
        if (opened.stats.size > dependencies.limits.mediaBytes) throw overCap;
        const blob = await readAtMost(opened.handle, dependencies.limits.mediaBytes, context.signal);
        if (!blob) throw overCap;
        return { ...content, blob };
      } finally {
        await opened.handle.close();
      }
    },
    async list() {
      return dependencies.guard.configured.map((directory) => ({
        uri: pathToFileURL(directory).href,
        name: directory,
        mimeType: 'text/plain',
        description: 'An allowed directory (its listing)',
      }));
    },
  });
}
