import { audio, combine, defineTool, embeddedResource, image, text } from '@mcpkit/server-kit';
import { redPixelPng, silentWav } from '../media.js';

/** `test_simple_text`: one text block (scenario tools-call-simple-text). */
export const simpleText = defineTool({
  name: 'test_simple_text',
  description: 'Returns a fixed sentence as text.',
  annotations: { readOnlyHint: true },
  handler: () => 'This is a simple text response for testing.',
});

/** `test_image_content`: one PNG image block (scenario tools-call-image). */
export const imageContent = defineTool({
  name: 'test_image_content',
  description: 'Returns a 1x1 red PNG image.',
  annotations: { readOnlyHint: true },
  handler: () => image(redPixelPng, 'image/png'),
});

/** `test_audio_content`: one WAV audio block (scenario tools-call-audio). */
export const audioContent = defineTool({
  name: 'test_audio_content',
  description: 'Returns a short silent WAV clip.',
  annotations: { readOnlyHint: true },
  handler: () => audio(silentWav, 'audio/wav'),
});

/** `test_embedded_resource`: one embedded text resource (scenario tools-call-embedded-resource). */
export const embeddedResourceContent = defineTool({
  name: 'test_embedded_resource',
  description: 'Returns an embedded text resource.',
  annotations: { readOnlyHint: true },
  handler: () =>
    embeddedResource({
      uri: 'test://embedded-resource',
      mimeType: 'text/plain',
      text: 'This is an embedded resource content.',
    }),
});

/** `test_multiple_content_types`: text, image and resource in one result (scenario tools-call-mixed-content). */
export const multipleContentTypes = defineTool({
  name: 'test_multiple_content_types',
  description: 'Returns text, an image and an embedded JSON resource together.',
  annotations: { readOnlyHint: true },
  handler: () =>
    combine(
      text('Multiple content types test:'),
      image(redPixelPng, 'image/png'),
      embeddedResource({
        uri: 'test://mixed-content-resource',
        mimeType: 'application/json',
        text: JSON.stringify({ test: 'data', value: 123 }),
      }),
    ),
});
