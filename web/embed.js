// vramcalc web: embedding and sharing, for the full page (index.html) and the widget (widget.html,
// <html data-vramcalc="widget">). Loaded after vramcalc.js (which creates window.Module), before app.js.
//   URL fragment   the state as a link writes it (the full UI's format, shell/state/url.hpp):
//                    #v=1&method=quick&batch=8&model.preset=llama-3.1-8b&units=gib&theme=light
//                  config fields by dotted path (JSON scalar values, strings bare), units and theme;
//                  the widget adds lock=batch,seq (fields the visitor cannot edit), origins=<origin>,...
//                  (who may message it) and id=<name> (echoed in its messages); view=planner
//                  shows the Cluster planner (plan.* keys) and its result messages carry the plan
//   page           the Embed button (shell) copies an <iframe> snippet of the current inputs
//   widget         compact layout, locked fields, theme, and postMessage protocol version 1 with the
//                  hosts listed in `origins` (docs/embed.md); messages from anywhere else are ignored
// Nothing here stores anything (storage throws in a sandboxed iframe) or makes a request.
'use strict';

(function () {
    const kProtocol = 1;            // postMessage protocol version
    const widget = document.documentElement.dataset.vramcalc === 'widget';
    const status = document.getElementById('status');
    // The link's embedding state: the theme as the shell read it, the widget's lock, origins
    // and id (docs/embed.md); filled from the wasm at start (Module.embedLink(): shell/state/url.hpp
    // reads the whole fragment, this file reads none of it). Until then: the browser's colours.
    const state = { theme: 'auto', locked: [], origins: [], id: '', error: null };
    const darkScheme = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
    let ready = false;
    let lastRevision = -1;
    let lastHeight = 0;
    let lastSnippet = null;
    const early = [];           // messages from the parent that came before the engine was ready

    function isLight() {
        if (state.theme === 'light') return true;
        if (state.theme === 'dark') return false;
        return darkScheme ? !darkScheme.matches : false;
    }

    // The page's background follows the theme before the first frame, so an iframe does not flash.
    function paintBackground() {
        document.documentElement.style.background = isLight() ? '#f5f6f8' : '#0f1318';  // shell/ui_style.cpp
        document.body.style.background = document.documentElement.style.background;
    }

    function applyOptions() {
        paintBackground();
        // The shell read the units and theme from the link itself (shell/state/url.hpp): the full
        // page needs options only for locked fields, and skips the call (JSON in the engine) otherwise.
        if (!widget && state.locked.length === 0) return;
        Module.setEmbedOptions(JSON.stringify({ compact: widget, light: isLight(), locked: state.locked }));
    }

    function showProblem(error) {
        status.textContent = `The link's inputs were not applied: ${error.field}: ${error.message}`;
        setTimeout(() => { status.textContent = ''; }, 8000);
    }

    // [SECTION] start ----------------------------------------------------------------------------
    // Runs after the app's main(), before its first frame (Emscripten's postRun).
    function start() {
        const link = JSON.parse(Module.embedLink());
        Object.assign(state, { theme: link.theme, locked: link.lock, origins: link.origins, id: link.id, error: link.error });
        applyOptions();
        // The page shows a link's problem itself, under its header and beside each field it names
        // (the text form's status reads it out): no HTML line over the canvas's header. The
        // widget's compact header has no room for it: there the line shows for a while.
        const linkError = Module.linkError();
        if (linkError) { if (widget) showProblem({ field: 'link', message: linkError }); }
        else if (state.error) showProblem(state.error);
        if (darkScheme && darkScheme.addEventListener) darkScheme.addEventListener('change', () => { if (state.theme === 'auto') applyOptions(); });
        ready = true;
        if (widget) {
            // The result goes out now: a frame scrolled out of view draws (and measures) nothing yet.
            lastRevision = Module.stateRevision();
            post({ type: 'ready', version: kProtocol });
            post(resultMessage({}));
            for (const e of early.splice(0)) accept(e);
        }
    }

    // A config patch (object) applied to the app: {ok:true, refused:[{field, message}, ...]} (each
    // value that could not be read keeps its value; the rest applied), or {ok:false, error} with
    // nothing changed (not an object, not JSON, over the size limit).
    function applyInputs(patch, from = 'the embedding page') {
        if (patch === null || typeof patch !== 'object' || Array.isArray(patch))
            return { ok: false, error: { field: 'inputs', message: 'inputs must be an object: a config patch (docs/config.md)' } };
        let text;
        try {
            text = JSON.stringify(patch, (key, v) => {
                if (typeof v === 'number' && !Number.isFinite(v)) throw new RangeError(`${key || 'inputs'} must be a finite number, got ${v}`);
                return v;
            });
        } catch (e) {
            return { ok: false, error: { field: 'inputs', message: `inputs cannot be written as JSON: ${e.message}` } };
        }
        // The size is checked before the text goes into the engine's memory (and again there).
        const limit = Module.messageLimit();
        if (text.length > limit || (text.length * 3 > limit && new TextEncoder().encode(text).length > limit))
            return { ok: false, error: { field: 'inputs', message: `the inputs are ${text.length} characters of JSON; at most ${limit} bytes are read` } };
        return JSON.parse(Module.setInputs(text, from));
    }

    // The page's text form (web/vramcalc.js) applies its edits the same way.
    window.vramcalcApplyInputs = applyInputs;

    // [SECTION] widget protocol ------------------------------------------------------------------
    function post(message) {
        if (window.parent === window) return;
        const full = Object.assign({ vramcalc: kProtocol, widget: state.id }, message);
        for (const origin of state.origins) window.parent.postMessage(full, origin);
    }

    // The result message's body, read from the engine once per recompute (stateRevision) and reused
    // by every `get` until the inputs change (postMessage clones it: the host cannot alter it).
    let cached = null, cachedRevision = -1;
    function resultMessage(extra) {
        const revision = Module.stateRevision();
        if (cached === null || revision !== cachedRevision) {
            cached = JSON.parse(Module.widgetResult());
            cachedRevision = revision;
        }
        const body = { type: 'result', config: cached.config, result: cached.result, error: cached.error };
        // A widget showing the planner (view=planner in its link) sends the plan too (docs/embed.md).
        if (cached.view === 'planner') Object.assign(body, { view: 'planner', plan: cached.plan, planError: cached.plan_error });
        return Object.assign(body, extra);
    }

    function handle(m) {
        const requestId = m.requestId;
        if (m.type === 'get') {
            post(resultMessage({ requestId }));
        } else if (m.type === 'set') {
            if (m.theme === 'light' || m.theme === 'dark' || m.theme === 'auto') {
                state.theme = m.theme;
                applyOptions();
            }
            const r = m.inputs === undefined ? { ok: true, refused: [] } : applyInputs(m.inputs);
            const refused = r.ok ? r.refused : [r.error];
            lastRevision = Module.stateRevision();  // this reply is the change's result message
            // applied: the whole patch; refused: each value left out (field, why with its range);
            // rejected: the first of them (as replies had it before `refused`).
            post(resultMessage(Object.assign({ requestId, applied: refused.length === 0, refused },
                refused.length ? { rejected: refused[0] } : {})));
        } else {
            post({ type: 'error', requestId, error: { field: 'type', message: `unknown message type ${JSON.stringify(m.type)} (accepted: set, get)` } });
        }
    }

    // Whatever a message holds, the host gets a reply and the next message is read as usual.
    function handleSafely(m) {
        try {
            handle(m);
        } catch (e) {
            post({ type: 'error', requestId: m.requestId, error: { field: 'message', message: `the message could not be handled: ${e && e.message}` } });
        }
    }

    // A message from the parent: read once the engine is ready (it knows the link's origins).
    function accept(event) {
        if (!state.origins.includes(event.origin)) return;
        const m = event.data;
        if (m === null || typeof m !== 'object' || !('vramcalc' in m)) return;
        if (m.vramcalc !== kProtocol) {
            post({ type: 'error', requestId: m.requestId, error: { field: 'vramcalc', message: `this widget speaks protocol version ${kProtocol}` } });
            return;
        }
        handleSafely(m);
    }

    window.addEventListener('message', (event) => {
        if (!widget || event.source !== window.parent) return;
        if (ready) accept(event);
        else early.push({ origin: event.origin, data: event.data });
    });

    // [SECTION] embed snippet (full page) --------------------------------------------------------
    const escapeAttribute = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

    function snippet() {
        const s = JSON.parse(Module.shellState());
        const src = new URL('widget.html', location.href);
        src.hash = s.fragment;  // the page's own link state (shell/state/url.hpp): what differs from the defaults
        return `<iframe src="${escapeAttribute(src.href)}" title="GPU memory calculator (vramcalc)" width="100%" height="600"` +
            ' style="border:0;max-width:720px" sandbox="allow-scripts" loading="lazy"></iframe>';
    }

    // Emscripten's GLFW clipboard is a stub: the browser's clipboard, then a selection copy.
    async function copyText(text) {
        try {
            if (navigator.clipboard && navigator.clipboard.writeText) {
                await navigator.clipboard.writeText(text);
                return true;
            }
        } catch (e) { /* not allowed here: try the selection */ }
        const area = document.createElement('textarea');
        area.value = text;
        area.setAttribute('readonly', '');
        area.style.position = 'fixed';
        area.style.opacity = '0';
        document.body.appendChild(area);
        area.select();
        let copied = false;
        try {
            copied = document.execCommand('copy');
        } catch (e) { /* no clipboard at all: the panel shows the text */ }
        area.remove();
        return copied;
    }

    // A small panel with the snippet, selected, so it can be copied by hand when the clipboard failed.
    function showSnippet(text, copied) {
        let panel = document.getElementById('embed-panel');
        if (!panel) {
            panel = document.createElement('div');
            panel.id = 'embed-panel';
            Object.assign(panel.style, {
                position: 'fixed', right: '16px', bottom: '16px', width: 'min(36em, calc(100% - 32px))', padding: '12px',
                background: '#1f232b', color: '#d8dce4', border: '1px solid #3a3f4b', borderRadius: '6px', font: '14px system-ui, sans-serif',
            });
            const note = document.createElement('p');
            note.style.margin = '0 0 8px';
            const area = document.createElement('textarea');
            area.readOnly = true;
            area.rows = 5;
            Object.assign(area.style, { width: '100%', boxSizing: 'border-box', font: '12px ui-monospace, monospace' });
            const close = document.createElement('button');
            close.textContent = 'Close';
            close.style.marginTop = '8px';
            close.addEventListener('click', () => panel.remove());
            panel.append(note, area, close);
            document.body.appendChild(panel);
        }
        panel.querySelector('p').textContent = copied
            ? 'Embed snippet copied to the clipboard. Add &origins=https://your.site to its URL to receive results by postMessage (docs/embed.md).'
            : 'Copy this snippet into your page (Ctrl+C):';
        const area = panel.querySelector('textarea');
        area.value = text;
        area.select();
    }

    async function embedRequested() {
        const text = snippet();
        lastSnippet = text;
        showSnippet(text, await copyText(text));
    }

    // [SECTION] after each frame -----------------------------------------------------------------
    function afterFrame() {
        if (!ready) return;
        const revision = Module.stateRevision();
        if (revision !== lastRevision) {
            lastRevision = revision;
            if (widget) post(resultMessage({}));
        }
        const height = Math.ceil(Module.contentHeight());
        if (widget && height > 0 && height !== lastHeight) {
            lastHeight = height;
            post({ type: 'height', height });
        }
        if (!widget && Module.takeEmbedRequest()) embedRequested();
    }

    paintBackground();
    const previousPostMainLoop = Module.postMainLoop;
    Module.postMainLoop = function () {
        if (previousPostMainLoop) previousPostMainLoop();
        afterFrame();
    };
    Module.postRun = (Module.postRun || []).concat([start]);

    if (window.vramcalcTest) {
        window.vramcalcTest.embedSnippet = () => lastSnippet;
        window.vramcalcTest.contentHeight = () => (ready ? Module.contentHeight() : 0);
        window.vramcalcTest.embedState = () => ({ widget, locked: state.locked.slice(), theme: state.theme, light: isLight(), origins: state.origins.slice(), id: state.id });
    }
})();
