// vramcalc web: local model import on the page (docs/import.md). A model file reaches the page by
// the model panel's "Import model file..." button (a file picker), by a drop on the page, or by
// pasting config.json text. The readers are in the page's own wasm (io/model_import.hpp, exported by
// web/engine_bindings.cpp) and reached through the page's JS API (web/api.js, window.vramcalc: its
// importFile reads only the file's header with File.slice, the same code the JS library runs), so
// the single offline file (vramcalc.html) imports too; the import document goes to the engine in the
// page (Module.applyImport, web/import_bindings.cpp), which fills the model inputs. Nothing is
// uploaded and nothing is fetched: the page's Content-Security-Policy forbids every connection.
//   vramcalcImport.pick()              opens the file picker (the shell's button calls it)
//   vramcalcImport.file(file)          -> Promise of the import document, with `applied` and
//                                      `page_message` (what the model panel now says)
//   vramcalcImport.files(fileList)     -> the same for several files of one model, merged (importFiles)
//   vramcalcImport.text(text, name)    -> the same for JSON text (a paste)
//   vramcalcImport.message()           -> {message, problem}: the line the model panel shows
'use strict';

(function () {
    const canvas = document.getElementById('canvas');

    // The page's JS API (web/vramcalc.js), once its wasm is running.
    const ready = () => window.vramcalc.ready.then(() => window.vramcalc);

    function apply(doc) {
        const page = JSON.parse(Module.applyImport(JSON.stringify(doc)));
        return Object.assign(doc, page);
    }

    function failed(name, e) {
        const message = name + ': ' + (e && e.message ? e.message : String(e));
        Module.importFailed(message);
        return { ok: false, error: { field: 'import', message: message } };
    }

    async function importFile(file) {
        const name = typeof file.name === 'string' && file.name ? file.name : 'the file';
        try {
            const vc = await ready();
            return apply(await vc.importFile(file));
        } catch (e) {
            return failed(name, e);
        }
    }

    // Several files of one model (config.json + its .safetensors, a split GGUF's parts, a GGUF + its
    // mmproj): window.vramcalc.importFiles merges them in the engine; one file goes as importFile.
    async function importFiles(files) {
        const list = Array.from(files || []);
        if (list.length <= 1) return list.length ? importFile(list[0]) : null;
        const names = list.map((f) => (typeof f.name === 'string' && f.name ? f.name : 'a file')).join(', ');
        try {
            const vc = await ready();
            return apply(await vc.importFiles(list));
        } catch (e) {
            return failed(names, e);
        }
    }

    async function importText(text, name) {
        const label = name || 'pasted config.json';
        try {
            const vc = await ready();
            return apply(vc.importModel(text, label));
        } catch (e) {
            return failed(label, e);
        }
    }

    // The file picker: a hidden input the shell's button clicks (within the click's user activation).
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = '.json,.gguf,.safetensors,application/json';
    input.multiple = true;  // a config.json with its weights, a split GGUF's parts, a GGUF with its mmproj
    input.hidden = true;
    input.id = 'import-file';
    input.setAttribute('aria-label', 'Import model files (config.json, .gguf, .safetensors; several of one model merge): only their headers are read, nothing is uploaded');
    input.addEventListener('change', () => {
        const files = Array.from(input.files || []);
        input.value = '';
        if (canvas) canvas.focus();
        if (files.length) importFiles(files);
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
        const files = Array.from(e.dataTransfer.files || []);
        if (!files.length) return;
        e.preventDefault();
        importFiles(files);
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
        files: importFiles,
        text: importText,
        message: () => (window.Module && window.Module.importMessage ? JSON.parse(window.Module.importMessage()) : null),
    };
})();
