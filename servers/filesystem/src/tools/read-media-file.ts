import { pathToFileURL } from 'node:url';
import { audio, defineTool, embeddedResource, image, ToolError } from '@mcpkit/server-kit';
import { z } from 'zod';
import type { ToolDependencies } from '../dependencies.js';
import { reading } from '../loaded-on-first-use.js';

/** read_media_file: an image or audio file as base64 with its mime type (other files as an embedded resource). */
export function readMediaFile(dependencies: ToolDependencies) {
  return defineTool({
    name: 'read_media_file',
    title: 'Read Media File',
    description:
      'Read an image or audio file inside the allowed directories and return it as base64 with its MIME type; ' +
      'other binary files come back as an embedded resource. Files over the size cap are refused.',
    input: z.object({
      path: z.string().describe('File path, absolute or relative to the first allowed directory'),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    async handler({ path }, context) {
      const { readAtMost, mimeTypeOf } = await reading();
      const scope = await dependencies.guard.scope(context);
      const file = await scope.openFile(path);
      try {
        const cap = dependencies.limits.mediaBytes;
        const overCap = (size: string) =>
          new ToolError(`${path} is ${size}, over the ${cap.toLocaleString('en-US')}-byte cap for media files.`);
        if (file.stats.size > cap) throw overCap(`${file.stats.size.toLocaleString('en-US')} bytes`);
        // Read from the same descriptor with a hard limit: a file growing since the check still cannot pass the cap.
        const data = await readAtMost(file.handle, cap, context.signal);
        if (!data) throw overCap('growing');
        const mimeType = mimeTypeOf(file.path);
        if (mimeType.startsWith('image/')) return image(data, mimeType);
        if (mimeType.startsWith('audio/')) return audio(data, mimeType);
        return embeddedResource({ uri: pathToFileURL(file.path).href, mimeType, blob: data });
      } finally {
        await file.handle.close();
      }
    },
  });
}
