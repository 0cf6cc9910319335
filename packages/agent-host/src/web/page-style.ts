/** The page's style sheet: light and dark follow the system (prefers-color-scheme). */
export const pageStyle = `
:root {
  --background: #ffffff; --surface: #f4f5f7; --border: #d0d4da; --text: #1b1f24; --muted: #5c6570;
  --accent: #0b5cad; --error: #b3261e; --error-surface: #fdecea; --ok: #1d7a3a; --code: #eef0f3;
  font-family: system-ui, -apple-system, "Segoe UI", sans-serif; font-size: 15px; color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root {
    --background: #15181c; --surface: #1e2227; --border: #363c44; --text: #e6e8eb; --muted: #9aa3ad;
    --accent: #6cb0f5; --error: #f28b82; --error-surface: #3a1f1d; --ok: #7fd196; --code: #262b31;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--background); color: var(--text); height: 100vh; display: flex; flex-direction: column; }
h1 { font-size: 1.1rem; margin: 0; }
h2 { font-size: 0.95rem; margin: 0 0 0.5rem; text-transform: uppercase; letter-spacing: 0.04em; color: var(--muted); }
button { font: inherit; padding: 0.35rem 0.9rem; border-radius: 6px; border: 1px solid var(--border); background: var(--surface); color: var(--text); cursor: pointer; }
button.primary, #send { background: var(--accent); color: var(--background); border-color: var(--accent); }
button:disabled { opacity: 0.5; cursor: default; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.muted { color: var(--muted); }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
.top { display: flex; gap: 1rem; align-items: center; padding: 0.6rem 1rem; border-bottom: 1px solid var(--border); }
.top .status { margin-left: auto; color: var(--muted); }
.layout { flex: 1; display: grid; grid-template-columns: 16rem minmax(20rem, 1fr) minmax(24rem, 1.3fr); min-height: 0; }
.layout > * { padding: 0.8rem 1rem; overflow: auto; min-height: 0; }
.servers { border-right: 1px solid var(--border); }
.servers ul { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.5rem; }
.server { background: var(--surface); border: 1px solid var(--border); border-radius: 6px; padding: 0.4rem 0.6rem; }
.server .state-ready { color: var(--ok); }
.server .state-failed, .server .state-closed { color: var(--error); }
.servers h2 + div, .servers ul { margin-bottom: 1rem; }
.catalog-item { border-top: 1px solid var(--border); padding: 0.4rem 0; display: grid; gap: 0.3rem; }
.catalog-item form { display: grid; gap: 0.3rem; }
.catalog-item input { font: inherit; padding: 0.2rem; border: 1px solid var(--border); border-radius: 4px; background: var(--background); color: var(--text); min-width: 0; }
.catalog-item button { justify-self: start; padding: 0.15rem 0.6rem; }
.catalog-item .uri { font-family: ui-monospace, monospace; font-size: 0.8em; overflow-wrap: anywhere; }
.attachments { list-style: none; margin: 0.4rem 0 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.3rem; }
.attachments li, .message .attachment { font-size: 0.8em; border: 1px solid var(--border); border-radius: 999px; padding: 0.1rem 0.5rem; background: var(--surface); color: var(--text); }
.message .attachment { display: inline-block; margin: 0.2rem 0.3rem 0 0; }
.chat { display: flex; flex-direction: column; border-right: 1px solid var(--border); }
.messages { list-style: none; margin: 0; padding: 0; flex: 1; display: flex; flex-direction: column; gap: 0.6rem; }
.message { padding: 0.5rem 0.7rem; border-radius: 8px; max-width: 95%; overflow-wrap: anywhere; }
.message.user { align-self: flex-end; background: var(--accent); color: var(--background); white-space: pre-wrap; }
.message.assistant { align-self: flex-start; background: var(--surface); border: 1px solid var(--border); }
.message.error { background: var(--error-surface); color: var(--error); }
.composer { display: flex; gap: 0.5rem; margin-top: 0.6rem; }
.composer textarea { flex: 1; font: inherit; padding: 0.4rem; border-radius: 6px; border: 1px solid var(--border); background: var(--background); color: var(--text); resize: vertical; }
.questions { display: grid; gap: 0.6rem; margin-top: 0.6rem; }
.question { border: 2px solid var(--accent); border-radius: 8px; padding: 0.6rem 0.8rem; background: var(--surface); }
.question.destructive { border-color: var(--error); }
.question form { display: grid; gap: 0.5rem; }
.question label { display: grid; gap: 0.2rem; }
.question input, .question select { font: inherit; padding: 0.3rem; border: 1px solid var(--border); border-radius: 4px; background: var(--background); color: var(--text); }
.question input[type='checkbox'] { justify-self: start; width: 1.1rem; height: 1.1rem; }
.question .actions { display: flex; gap: 0.5rem; flex-wrap: wrap; }
.timeline ol { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.8rem; }
.step > header { font-weight: 600; margin-bottom: 0.3rem; display: flex; gap: 0.6rem; }
.calls { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: 0.5rem; align-items: start; }
.call { border: 1px solid var(--border); border-radius: 6px; padding: 0.4rem 0.6rem; background: var(--surface); min-width: 0; }
.call.error { border-color: var(--error); background: var(--error-surface); }
.call.running { border-style: dashed; }
.call header { display: flex; gap: 0.5rem; align-items: baseline; flex-wrap: wrap; }
.call .tool { font-weight: 600; }
.call .duration { margin-left: auto; color: var(--muted); font-size: 0.85em; }
.call .badge { color: var(--error); font-weight: 600; font-size: 0.85em; }
.call img { max-width: 100%; min-width: 3rem; height: auto; border-radius: 4px; image-rendering: pixelated; }
pre, code { font-family: ui-monospace, "SF Mono", Menlo, monospace; font-size: 0.85em; background: var(--code); border-radius: 4px; }
pre { padding: 0.4rem; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; margin: 0.3rem 0; }
code { padding: 0 0.2em; }
pre code { padding: 0; background: none; }
details > summary { cursor: pointer; color: var(--muted); }
.markdown p { margin: 0.3rem 0; }
.markdown ul, .markdown ol { margin: 0.3rem 0; padding-left: 1.3rem; }
.markdown a { color: var(--accent); }
@media (max-width: 900px) { .layout { grid-template-columns: 1fr; } .servers, .chat { border-right: none; } }
`;
