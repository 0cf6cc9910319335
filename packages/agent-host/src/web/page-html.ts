/** The page's HTML: a shell that the page's own script fills in (no inline script or style, for the CSP). */
export const pageHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>mcpkit-host web</title>
<link rel="stylesheet" href="/assets/style.css">
<script type="module" src="/assets/main.js"></script>
</head>
<body>
<header class="top">
  <h1>mcpkit-host</h1>
  <span id="model" class="muted"></span>
  <span id="status" class="status" role="status" aria-live="polite">Connecting…</span>
  <button id="stop" type="button" disabled title="Cancel the run (Escape)">Stop</button>
</header>
<main class="layout">
  <aside class="servers" aria-labelledby="servers-title">
    <h2 id="servers-title">Servers <span id="tool-count" class="muted"></span></h2>
    <ul id="servers"></ul>
    <h2 id="catalog-title">Prompts and resources</h2>
    <div id="catalog" aria-labelledby="catalog-title"></div>
  </aside>
  <section class="chat" aria-labelledby="chat-title">
    <h2 id="chat-title">Conversation</h2>
    <ol id="messages" class="messages" aria-live="polite"></ol>
    <div id="questions" class="questions" aria-live="assertive"></div>
    <ul id="attachments" class="attachments" aria-label="Attached to your next message"></ul>
    <form id="composer" class="composer">
      <label for="input" class="visually-hidden">Message</label>
      <textarea id="input" rows="3" placeholder="Ask something (Enter sends, Shift+Enter for a new line)"></textarea>
      <button id="send" type="submit">Send</button>
    </form>
  </section>
  <section class="timeline" aria-labelledby="timeline-title">
    <h2 id="timeline-title">Steps and tool calls</h2>
    <ol id="timeline"></ol>
  </section>
</main>
</body>
</html>
`;
