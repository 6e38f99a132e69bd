// vramcalc web glue: the Emscripten Module's settings, the page's JS API over the engine, and the
// browser services the shell asks for (window.vramcalcHost, called from web/platform_web.cpp).
//   await vramcalc.ready
//   vramcalc.estimate(config) ...  the JS library's API (web/api.js, inside app.js; docs/embed.md):
//                              estimate, solve, suggest, resolveConfig, importModel, importFile, importFiles,
//                              presets, gpus, questions, plan, fabrics, version, schemaVersion
// Host services: clipboard, downloads (Blob URLs), the URL fragment and history (the state lives
// in the fragment, which browsers never send to a server), the accessible summary (#a11y, an
// aria-live region mirroring what the canvas shows, and the text form that edits the same inputs),
// touch input (a tap is a click), and which keys reach the calculator (README "Keyboard and screen readers").
// Test hook (read by tests/browser, no OCR): vramcalcTest.state(), .result(), .error(), .frameCount(), .idle(),
// .widget(id) (a widget's rectangle in CSS pixels), .firstFrameMs() (navigation to first drawn frame),
// .runtimeReadyMs() (navigation to the WebAssembly runtime ready, before main()), .completeFrameMs()
// (navigation to the first frame with every result: the comparison, answers and charts follow the first),
// .lastCopied(), .a11yText().
'use strict';

(function () {
    const status = document.getElementById('status');
    const canvas = document.getElementById('canvas');
    let resolveReady;
    const ready = new Promise((resolve) => { resolveReady = resolve; });
    let firstFrameMs = null;
    let runtimeReadyMs = null;
    let completeFrameMs = null;
    let runtimeReady = false;
    let lastCopied = null;

    window.Module = {
        canvas,
        print: (text) => console.log(text),
        printErr: (text) => {
            console.error(text);
            status.textContent = text;
        },
        onRuntimeInitialized: () => {
            runtimeReadyMs = performance.now();
            status.textContent = '';
            runtimeReady = true;
            Object.assign(window.vramcalc, vramcalcApi(Module));  // web/api.js, packed into app.js
            resolveReady();
        },
        // Called after each main-loop iteration (the loop is paused while the page is idle).
        postMainLoop: () => {
            if (firstFrameMs === null && Module.framesDrawn() > 0) firstFrameMs = performance.now();
            if (completeFrameMs === null && Module.completeFramesDrawn() > 0) completeFrameMs = performance.now();
        },
    };

    // Keyboard input goes to the canvas: focus it on any pointer press.
    canvas.addEventListener('pointerdown', () => canvas.focus());

    // Keys: Emscripten's GLFW reads them on the whole window and cancels Tab, a keyboard trap
    // (WCAG 2.1.2). They reach it only while the canvas has focus (a release: when it saw the press);
    // Escape with nothing to close, then Tab or Shift+Tab, leaves the canvas. Added before app.js's.
    const glfwKeys = new Set();
    let leaving = false;
    const gateKeys = (e) => {
        const onCanvas = document.activeElement === canvas;
        if (e.type === 'keydown' && onCanvas && !['Shift', 'Control', 'Alt', 'Meta'].includes(e.key)) {
            if (e.key === 'Tab' && leaving) return (leaving = false), e.stopImmediatePropagation();
            leaving = e.key === 'Escape' && runtimeReady && !Module.navBusy();
        }
        if (e.type === 'keyup' ? glfwKeys.delete(e.keyCode) : onCanvas) return e.type === 'keydown' && glfwKeys.add(e.keyCode);
        e.stopImmediatePropagation();
    };
    for (const type of ['keydown', 'keypress', 'keyup']) window.addEventListener(type, gateKeys, true);
    canvas.addEventListener('contextmenu', (e) => e.preventDefault());

    // Touch: Emscripten's GLFW takes a touch for a button press without moving the cursor there.
    // Each touch becomes the mouse events a click would send (move, press, release), and the
    // browser's own emulated mouse events and gestures are suppressed (preventDefault).
    let touchId = null;
    const sendMouse = (type, t) => canvas.dispatchEvent(new MouseEvent(type, {
        clientX: t.clientX, clientY: t.clientY, screenX: t.screenX, screenY: t.screenY,
        button: 0, buttons: type === 'mouseup' ? 0 : 1, bubbles: true, cancelable: true, view: window,
    }));
    const touchOf = (e) => Array.from(e.changedTouches).find((t) => touchId === null || t.identifier === touchId);
    const onTouch = (e) => {
        e.preventDefault();
        e.stopImmediatePropagation();
        const t = touchOf(e);
        if (!t) return;
        if (e.type === 'touchstart') {
            if (touchId !== null) return;
            touchId = t.identifier;
            canvas.focus();
            sendMouse('mousemove', t);
            sendMouse('mousedown', t);
        } else if (e.type === 'touchmove') {
            sendMouse('mousemove', t);
        } else {
            sendMouse('mouseup', t);
            touchId = null;
        }
    };
    for (const type of ['touchstart', 'touchmove', 'touchend', 'touchcancel'])
        canvas.addEventListener(type, onTouch, { capture: true, passive: false });

    // The accessible summary: the inputs and results as text, for screen readers and text search.
    const a11yTitle = document.getElementById('a11y-title');
    const a11yInputs = document.getElementById('a11y-inputs');
    const a11yResults = document.getElementById('a11y-results');
    const fillTable = (table, caption, rows) => {
        table.replaceChildren();
        const cap = document.createElement('caption');
        cap.textContent = caption;
        table.appendChild(cap);
        for (const [label, value] of rows) {
            const tr = document.createElement('tr');
            const th = document.createElement('th');
            th.scope = 'row';
            th.textContent = label;
            const td = document.createElement('td');
            td.textContent = value;
            tr.append(th, td);
            table.appendChild(tr);
        }
    };
    // The text form: the input rows the shell drew (labels, the field table's ranges, choices,
    // errors: shell/state/report.cpp) as HTML controls; a change applies by the widget's `set` path.
    const fields = document.getElementById('a11y-fields');
    const formStatus = document.getElementById('a11y-form-status');
    const formRows = new Map();  // path -> {wrap, label, c (control), note, kind, shown, options}
    // A number as JSON reads one ("1e30" goes to the engine, which names the range), else the text.
    const typed = (t) => (/^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(t) ? Number(t) : t.trim());
    // A row shown in another unit than the config's (a share as %) carries its scale: what is typed
    // is divided by it before it applies (75 -> 0.75).
    const applyRow = (path, c, scale) => {
        let value = c.type === 'checkbox' ? c.checked : c.tagName === 'SELECT' ? c.value : typed(c.value);
        if (scale && typeof value === 'number') value /= scale;
        const r = window.vramcalcApplyInputs(path.split('.').reduceRight((v, k) => ({ [k]: v }), value), 'the text form');
        if (!r.ok) formStatus.textContent = `${r.error.field}: ${r.error.message}`;
    };
    const el = (tag, props) => Object.assign(document.createElement(tag), props);
    const makeRow = (path, kind) => {
        const id = 'form-' + path.replace(/\W/g, '-');
        const r = { wrap: el('div'), label: el('label', { htmlFor: id }), note: el('small', { id: id + '-note' }), kind };
        r.c = kind === 'select' ? el('select', { id }) : el('input', { id, type: kind === 'bool' ? 'checkbox' : 'text', autocomplete: 'off' });
        r.c.setAttribute('aria-describedby', r.note.id);
        r.c.addEventListener('change', () => applyRow(path, r.c, r.scale));
        r.wrap.append(r.label, r.c, r.note);
        return r;
    };
    if (fields) fields.parentNode.addEventListener('submit', (e) => e.preventDefault());
    const renderForm = (rows) => {
        if (!fields) return;
        const seen = new Set();
        let last = null;
        for (const row of rows) {
            const kind = row.options ? 'select' : row.bool ? 'bool' : 'text';
            let r = formRows.get(row.path);
            if (!r || r.kind !== kind) {
                if (r) r.wrap.remove();
                formRows.set(row.path, (r = makeRow(row.path, kind)));
            }
            seen.add(row.path);
            if (r.wrap !== (last ? last.nextSibling : fields.firstChild)) fields.insertBefore(r.wrap, last ? last.nextSibling : fields.firstChild);
            last = r.wrap;
            r.label.textContent = row.label;
            r.scale = row.scale;
            const c = r.c, options = JSON.stringify(row.options);
            if (kind === 'select' && r.options !== options) {
                r.options = options;
                c.replaceChildren(...row.options.map(([v, text]) => el('option', { value: v, textContent: text, disabled: !v })));
            }
            if (kind === 'bool') c.checked = row.value === true;
            else if (document.activeElement !== c || c.value === r.shown) c.value = row.value ?? (kind === 'select' ? 'none' : '');  // typing stays
            r.shown = c.value;
            c.setAttribute('aria-invalid', !!row.error);
            r.note.textContent = [row.error, row.range && 'Accepted: ' + row.range].filter(Boolean).join('. ');
        }
        for (const [path, r] of formRows) if (!seen.has(path)) r.wrap.remove(), formRows.delete(path);
        const errors = rows.filter((row) => row.error).map((row) => `${row.label}: ${row.error}`).join(' ');
        if (formStatus.textContent !== errors) formStatus.textContent = errors;
    };

    const renderSummary = (s) => {
        renderForm(s.form || []);
        if (!a11yTitle || !a11yInputs || !a11yResults) return;  // a page without the summary (the widget)
        a11yTitle.textContent = s.title;
        fillTable(a11yInputs, 'Inputs', s.inputs);
        a11yResults.replaceChildren();
        if (s.error) {
            const p = document.createElement('p');
            p.textContent = 'Invalid input: ' + s.error;
            a11yResults.appendChild(p);
        }
        const results = document.createElement('table');
        fillTable(results, 'Results', s.results);
        const breakdown = document.createElement('table');
        fillTable(breakdown, 'Memory per GPU by component', s.breakdown);
        a11yResults.append(results, breakdown);
    };

    // History: a change pushes an entry at most once a second (a drag or typing replaces it), so
    // back/forward step through states a person would recognise.
    const kPushIntervalMs = 1000;
    let lastPush = 0;
    const currentFragment = () => location.hash.replace(/^#/, '');
    const host = {
        copyText: (text) => {
            lastCopied = text;
            const fallback = () => {
                const area = document.createElement('textarea');
                area.value = text;
                area.setAttribute('readonly', '');
                area.style.cssText = 'position:fixed;left:-9999px;top:0';
                document.body.appendChild(area);
                area.select();
                try { document.execCommand('copy'); } catch (e) { /* nothing more to try */ }
                area.remove();
                canvas.focus();
            };
            if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).catch(fallback);
            else fallback();
        },
        download: (name, mime, content) => {
            const url = URL.createObjectURL(new Blob([content], { type: mime + ';charset=utf-8' }));
            const a = document.createElement('a');
            a.href = url;
            a.download = name;
            document.body.appendChild(a);
            a.click();
            a.remove();
            setTimeout(() => URL.revokeObjectURL(url), 10000);
        },
        publish: (fragment, summaryJson, replace) => {
            renderSummary(JSON.parse(summaryJson));
            // The widget's fragment is its embedding page's (web/embed.js): it is never rewritten.
            if (document.documentElement.dataset.vramcalc === 'widget' || fragment === currentFragment()) return;
            const url = location.pathname + location.search + (fragment ? '#' + fragment : '');
            const now = performance.now();
            try {
                if (replace || now - lastPush < kPushIntervalMs) history.replaceState(null, '', url);
                else history.pushState(null, '', url);
            } catch (e) { /* sandboxed or file:// pages may refuse: the state still works */ }
            lastPush = now;
        },
        pageUrl: () => location.href.replace(/#.*$/, ''),
        initialFragment: () => location.hash.replace(/^#/, ''),
        prefersDark: () => !window.matchMedia || window.matchMedia('(prefers-color-scheme: dark)').matches,
    };
    window.vramcalcHost = host;

    const followUrl = () => {
        if (!runtimeReady || document.documentElement.dataset.vramcalc === 'widget') return;
        Module.applyFragment(location.hash.replace(/^#/, ''));
    };
    window.addEventListener('popstate', followUrl);
    window.addEventListener('hashchange', followUrl);
    if (window.matchMedia) {
        window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', (e) => {
            if (runtimeReady) Module.setSystemDark(e.matches);
        });
    }

    // Before the runtime is ready there is no state and no frame yet.
    const shellState = () => (runtimeReady ? JSON.parse(Module.shellState()) : null);

    // The API's members arrive with the engine (onRuntimeInitialized above).
    window.vramcalc = { ready };

    window.vramcalcTest = {
        ready,
        state: shellState,
        result: () => shellState()?.result ?? null,
        error: () => shellState()?.error ?? null,
        frameCount: () => (runtimeReady ? Module.framesDrawn() : 0),
        idle: () => runtimeReady && Module.isIdle(),
        widget: (id) => shellState()?.widgets[id] ?? null,
        widgets: () => shellState()?.widgets ?? {},
        firstFrameMs: () => firstFrameMs,
        runtimeReadyMs: () => runtimeReadyMs,
        completeFrameMs: () => completeFrameMs,
        lastCopied: () => lastCopied,
        a11yText: () => document.getElementById('a11y').textContent,
        summaryText: () => (runtimeReady ? Module.summaryText() : null),
    };
})();
