// vramcalc web: local model import on the page (docs/import.md). A model file reaches the page by
// the model panel's "Import model file..." button (a file picker), by a drop on the page, or by
// pasting config.json text; only the file's header is read, with File.slice, and handed to the
// engine in this page (Module.importIntoPage, web/import_bindings.cpp), which fills the model
// inputs. Nothing is uploaded: the page's Content-Security-Policy forbids every connection.
//   vramcalcImport.pick()              opens the file picker (the shell's button calls it)
//   vramcalcImport.file(file)          -> Promise of the import document, as the engine read it,
//                                      with `read_bytes` and `slices` (what was read of the file)
//   vramcalcImport.text(text, name)    -> the same for JSON text (a paste)
//   vramcalcImport.message()           -> {message, problem}: the line the model panel shows
'use strict';

(function () {
    const canvas = document.getElementById('canvas');
    // The first slice; a reader asks for exactly what its header needs beyond it (need_bytes).
    const kFirstSliceBytes = 1 << 20;
    const kMaxSlices = 16;

    const ready = () => (window.vramcalc ? window.vramcalc.ready : Promise.resolve());
    const engine = () => window.Module;

    function importBytes(bytes, name, size) {
        return JSON.parse(engine().importIntoPage(bytes, name, size));
    }

    function failed(name, e) {
        const message = name + ': the file could not be read (' + (e && e.message ? e.message : String(e)) + ')';
        engine().importFailed(message);
        return { ok: false, error: { field: 'import', message: message } };
    }

    async function importFile(file) {
        await ready();
        const name = typeof file.name === 'string' && file.name ? file.name : 'the file';
        const slices = [];
        let length = Math.min(file.size, kFirstSliceBytes);
        for (let round = 1; ; ++round) {
            let buffer;
            try {
                buffer = await file.slice(0, length).arrayBuffer();
            } catch (e) {
                return failed(name, e);
            }
            slices.push(buffer.byteLength);
            const doc = importBytes(new Uint8Array(buffer), name, file.size);
            const more = !doc.ok && doc.need_bytes > length && length < file.size && round < kMaxSlices;
            if (!more) {
                if (!doc.ok && doc.need_bytes > 0) engine().importFailed(name + ': ' + doc.error.message);
                doc.slices = slices;
                doc.read_bytes = slices.reduce((a, b) => a + b, 0);
                return doc;
            }
            length = Math.min(doc.need_bytes, file.size);
        }
    }

    async function importText(text, name) {
        await ready();
        const bytes = new TextEncoder().encode(text);
        return importBytes(bytes, name || 'pasted config.json', bytes.length);
    }

    // The file picker: a hidden input the shell's button clicks (within the click's user activation).
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = '.json,.gguf,.safetensors,application/json';
    input.hidden = true;
    input.id = 'import-file';
    input.setAttribute('aria-label', 'Import a model file (config.json, .gguf, .safetensors): only its header is read, nothing is uploaded');
    input.addEventListener('change', () => {
        const file = input.files && input.files[0];
        input.value = '';
        if (canvas) canvas.focus();
        if (file) importFile(file);
    });
    document.body.appendChild(input);

    // A file dropped anywhere on the page (the browser would otherwise open it in place of the page).
    const hasFiles = (e) => e.dataTransfer && Array.from(e.dataTransfer.types || []).includes('Files');
    document.addEventListener('dragover', (e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
    });
    document.addEventListener('drop', (e) => {
        if (!e.dataTransfer) return;
        const file = e.dataTransfer.files && e.dataTransfer.files[0];
        if (!file) return;
        e.preventDefault();
        importFile(file);
    });

    // Pasted config.json text (or a pasted file). Other text is left alone.
    document.addEventListener('paste', (e) => {
        const data = e.clipboardData;
        if (!data) return;
        const file = data.files && data.files[0];
        if (file) {
            e.preventDefault();
            importFile(file);
            return;
        }
        const text = data.getData('text/plain') || data.getData('text');
        if (text && /^\s*\{/.test(text)) {
            e.preventDefault();
            importText(text);
        }
    });

    window.vramcalcImport = {
        pick: () => input.click(),
        file: importFile,
        text: importText,
        message: () => (window.Module && window.Module.importMessage ? JSON.parse(window.Module.importMessage()) : null),
    };
})();
