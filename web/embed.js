// vramcalc web: embedding and sharing, for the full page (index.html) and the widget (widget.html,
// <html data-vramcalc="widget">). Loaded after vramcalc.js (which creates window.Module), before app.js.
//   URL fragment   #config=<JSON config patch>&lock=batch,seq&theme=light|dark|auto&origins=<origin>,...&id=<name>
//   page           the Embed button (shell) copies an <iframe> snippet of the current inputs
//   widget         compact layout, locked fields, theme, and postMessage protocol version 1 with the
//                  hosts listed in `origins` (docs/embed.md); messages from anywhere else are ignored
// Nothing here stores anything (storage throws in a sandboxed iframe) or makes a request.
'use strict';

(function () {
    const kProtocol = 1;
    const widget = document.documentElement.dataset.vramcalc === 'widget';
    const status = document.getElementById('status');
    const state = readFragment(location.hash);
    const darkScheme = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
    let ready = false;
    let defaults = null;        // the app's starting config: snippets carry only what differs
    let lastRevision = -1;
    let lastHeight = 0;
    let lastSnippet = null;
    const early = [];           // host messages that came before the engine was ready

    // [SECTION] fragment -------------------------------------------------------------------------
    function readFragment(hash) {
        const p = new URLSearchParams(hash.replace(/^#/, ''));
        const list = (s) => (s || '').split(',').map((x) => x.trim()).filter(Boolean);
        const out = {
            config: null,
            configError: null,
            locked: list(p.get('lock')),
            theme: p.get('theme') || (widget ? 'auto' : 'dark'),
            origins: [],
            id: p.get('id') || '',
        };
        if (p.has('config')) {
            try {
                out.config = JSON.parse(p.get('config'));
            } catch (e) {
                out.configError = { field: 'config', message: 'the config in the link is not valid JSON' };
            }
        }
        // Only exact origins ("https://docs.example.com"); "*" and the opaque "null" are not accepted.
        for (const o of list(p.get('origins'))) {
            try {
                if (new URL(o).origin === o) out.origins.push(o);
            } catch (e) { /* not an origin: ignored */ }
        }
        return out;
    }

    function isLight() {
        if (state.theme === 'light') return true;
        if (state.theme === 'dark') return false;
        return darkScheme ? !darkScheme.matches : false;
    }

    // The page's background follows the theme before the first frame, so an iframe does not flash.
    function paintBackground() {
        document.documentElement.style.background = isLight() ? '#f0f0f0' : '#14171c';
        document.body.style.background = document.documentElement.style.background;
    }

    function applyOptions() {
        paintBackground();
        Module.setEmbedOptions(JSON.stringify({ compact: widget, light: isLight(), locked: state.locked }));
    }

    function showProblem(error) {
        status.textContent = `The link's inputs were not applied: ${error.field}: ${error.message}`;
        setTimeout(() => { status.textContent = ''; }, 8000);
    }

    // [SECTION] start ----------------------------------------------------------------------------
    // Runs after the app's main(), before its first frame (Emscripten's postRun).
    function start() {
        defaults = JSON.parse(Module.defaultInputs());
        applyOptions();
        if (state.configError) showProblem(state.configError);
        if (state.config !== null) {
            const r = applyInputs(state.config);
            if (!r.ok) showProblem(r.error);
        }
        if (darkScheme && darkScheme.addEventListener) darkScheme.addEventListener('change', () => { if (state.theme === 'auto') applyOptions(); });
        ready = true;
        if (widget) {
            // The result goes out now: a frame scrolled out of view draws (and measures) nothing yet.
            lastRevision = Module.stateRevision();
            post({ type: 'ready', version: kProtocol });
            post(resultMessage({}));
            for (const m of early.splice(0)) handle(m);
        }
    }

    // A config patch (object) applied to the app: {ok:true} or {ok:false, error} with nothing changed.
    function applyInputs(patch) {
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
        return JSON.parse(Module.setInputs(text));
    }

    // [SECTION] widget protocol ------------------------------------------------------------------
    function post(message) {
        if (window.parent === window) return;
        const full = Object.assign({ vramcalc: kProtocol, widget: state.id }, message);
        for (const origin of state.origins) window.parent.postMessage(full, origin);
    }

    function resultMessage(extra) {
        const s = JSON.parse(Module.shellState());
        return Object.assign({ type: 'result', config: s.inputs, result: s.result, error: s.error }, extra);
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
            const r = m.inputs === undefined ? { ok: true } : applyInputs(m.inputs);
            lastRevision = Module.stateRevision();  // this reply is the change's result message
            post(resultMessage(Object.assign({ requestId, applied: r.ok }, r.ok ? {} : { rejected: r.error })));
        } else {
            post({ type: 'error', requestId, error: { field: 'type', message: `unknown message type ${JSON.stringify(m.type)} (accepted: set, get)` } });
        }
    }

    window.addEventListener('message', (event) => {
        if (!widget || event.source !== window.parent || !state.origins.includes(event.origin)) return;
        const m = event.data;
        if (m === null || typeof m !== 'object' || !('vramcalc' in m)) return;
        if (m.vramcalc !== kProtocol) {
            post({ type: 'error', requestId: m.requestId, error: { field: 'vramcalc', message: `this widget speaks protocol version ${kProtocol}` } });
            return;
        }
        if (ready) handle(m);
        else early.push(m);
    });

    // [SECTION] embed snippet (full page) --------------------------------------------------------
    const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

    // A JSON merge patch that turns `base` into `current`.
    function configPatch(base, current) {
        const out = {};
        for (const k of Object.keys(current)) {
            const b = base[k], c = current[k];
            if (isObject(b) && isObject(c)) {
                const d = configPatch(b, c);
                if (Object.keys(d).length) out[k] = d;
            } else if (JSON.stringify(b) !== JSON.stringify(c)) {
                out[k] = c;
            }
        }
        for (const k of Object.keys(base)) if (!(k in current)) out[k] = null;
        return out;
    }

    const escapeAttribute = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

    function snippet() {
        const patch = configPatch(defaults, JSON.parse(Module.shellState()).inputs);
        const params = new URLSearchParams();
        if (Object.keys(patch).length) params.set('config', JSON.stringify(patch));
        const src = new URL('widget.html', location.href);
        src.hash = params.toString();
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
