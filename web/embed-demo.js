// vramcalc embed demo: the host side of the widget's postMessage protocol (docs/embed.md), as a
// documentation page would write it. Each widget gets its initial inputs, locked fields, theme and
// this page's origin in its URL fragment; results arrive by message.
// window.demo is the hook the browser test and the benchmark use.
'use strict';

(function () {
    // Each widget's link, as a docs author writes it (docs/embed.md, "URL fragment"); this page
    // adds its own origin (the only one the widget will talk to) and the widget's id.
    const kWidgets = {
        'quick-7b': 'v=1&method=quick&params_b=7&precision=bf16&optimizer=adamw-mixed&batch=4&seq=2048&lock=method&theme=light',
        'guide-70b': 'v=1&method=guide&params_b=70&model.layers=80&model.hidden=8192&model.heads=64&batch=1&seq=4096&gpus=8' +
            '&lock=method,model.layers,model.hidden,model.heads&theme=dark',
    };
    const GB = 1e9;
    const frames = {};     // id -> iframe
    const received = {};   // id -> messages, oldest first
    const pending = {};    // requestId -> {resolve, sent}
    let nextRequest = 1;

    const hosts = {};      // id -> the panel beside the widget
    const out = (id, name, text) => { hosts[id].querySelector(`[data-out="${name}"]`).textContent = text; };

    // NOTE: a sandboxed widget has an opaque origin, so messages go to it with targetOrigin '*';
    // the inputs sent are the page's own, and replies are checked by their source window.
    function send(id, message) {
        const requestId = `r${nextRequest++}`;
        return new Promise((resolve) => {
            pending[requestId] = { resolve, sent: performance.now() };
            frames[id].contentWindow.postMessage(Object.assign({ vramcalc: 1, requestId }, message), '*');
        });
    }

    function show(id, m) {
        out(id, 'raw', JSON.stringify(m, null, 1));
        if (m.type !== 'result') return;
        const c = m.config, r = m.result;
        out(id, 'inputs', `${c.method}, ${c.params_b}B, batch ${c.batch}, seq ${c.seq}`);
        if (r) {
            out(id, 'total', `${(r.total_bytes / GB).toFixed(2)} GB`);
            out(id, 'buffered', `${(r.buffered_bytes / GB).toFixed(2)} GB`);
            out(id, 'gpus', r.fits.filter((f) => f.gpus_needed > 0).map((f) => `${f.gpus_needed} × ${f.gpu}`).join(', ') || 'none fits');
        }
        out(id, 'error', m.refused && m.refused.length ? `not applied: ${m.refused.map((e) => e.message).join('; ')}` : m.error ? m.error.message : 'none');
    }

    window.addEventListener('message', (event) => {
        const id = Object.keys(frames).find((k) => frames[k].contentWindow === event.source);
        const m = event.data;
        if (!id || !m || m.vramcalc !== 1) return;  // not one of our widgets
        // The round trip ends when the reply arrives, before this page shows it.
        const p = m.requestId && pending[m.requestId];
        const ms = p ? performance.now() - p.sent : 0;
        (received[id] = received[id] || []).push(m);
        if (m.type === 'height') frames[id].style.height = `${m.height}px`;
        else show(id, m);
        if (p) {
            delete pending[m.requestId];
            out(id, 'rtt', `${ms.toFixed(1)} ms`);
            p.resolve(Object.assign({ roundTripMs: ms }, m));
        }
    });

    for (const [id, link] of Object.entries(kWidgets)) {
        const example = document.querySelector(`[data-example="${id}"]`);
        frames[id] = example.querySelector('iframe');
        frames[id].src = `widget.html#${link}&origins=${encodeURIComponent(location.origin)}&id=${id}`;
        const h = hosts[id] = document.getElementById('host-panel').content.firstElementChild.cloneNode(true);
        example.appendChild(h);
        const input = h.querySelector('input');
        const field = example.dataset.input;
        input.value = example.dataset.value;
        out(id, 'label', example.dataset.label);
        h.querySelector('[data-action="set"]').addEventListener('click', () => send(id, { type: 'set', inputs: { [field]: Number(input.value) } }));
        h.querySelector('[data-action="get"]').addEventListener('click', () => send(id, { type: 'get' }));
    }
    if (location.origin === 'null') {
        document.querySelector('[data-out="note"]').textContent =
            'Opened from a file: this page has no origin to name, so the widgets cannot talk to it. Serve it (scripts/run.sh) to see messages.';
    }

    window.demo = {
        received: (id) => (received[id] || []).slice(),
        last: (id, type) => (received[id] || []).filter((m) => !type || m.type === type).pop() || null,
        set: (id, inputs) => send(id, { type: 'set', inputs }),
        get: (id) => send(id, { type: 'get' }),
        send,
        frame: (id) => frames[id],
    };
})();
