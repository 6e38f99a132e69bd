// vramcalc JS API: TypeScript declarations for the library (vramcalc.mjs / vramcalc.js) and the
// page's `window.vramcalc`, one API shape (web/api.js; docs/embed.md).
// Configs and results are the JSON documents of the CLI (docs/config.md): the types below name the
// fields every build has; sections added by later schema versions pass through as unknown fields.

/** An error as a value: `field` is the config field's dotted path ("batch", "model.layers"),
 *  "config" for the document itself, "question" for solve()'s question, "" for an engine failure. */
export interface VramCalcError {
    field: string;
    message: string;
}

export interface Failure {
    ok: false;
    error: VramCalcError;
}

// [SECTION] config types ----------------------------------------------------------------------------
// NOTE: Config and ModelConfig are the config document's types; issue 10's field table generates
// them (with every section's fields). Until then they are written here; the generated declarations
// replace this section (or are imported here) and the API below keeps naming `Config`.

/** The config document (docs/config.md). Every field is optional; unknown fields are errors. */
export interface Config {
    schema_version?: number;
    method?: 'quick' | 'guide' | 'detailed';
    task?: 'training' | 'finetune' | 'inference';
    model?: ModelConfig;
    params_b?: number;
    precision?: 'fp32' | 'fp16' | 'bf16' | 'int8' | 'int4';
    optimizer?: 'adamw-mixed' | 'adamw' | 'adamw-8bit' | 'sgd' | 'inference';
    batch?: number;
    seq?: number;
    checkpointing?: boolean;
    gpus?: number;
    gpu?: string;
    target_utilization?: number;
    guide?: { bytes?: number; weight_bytes?: number; overhead_factor?: number };
    constants?: {
        activation_bytes_per_token_param?: number;
        checkpoint_factor?: number;
        buffer_fraction?: number;
        a100_gb?: number;
        rtx4090_gb?: number;
    };
    /** Sections of the detailed methods (training, parallel, runtime, inference...). */
    [section: string]: unknown;
}

/** A preset by id, a custom architecture, or `{params_b}` alone (docs/config.md, docs/models.md). */
export interface ModelConfig {
    preset?: string;
    name?: string;
    params_b?: number;
    layers?: number;
    hidden?: number;
    heads?: number;
    kv_heads?: number;
    head_dim?: number;
    ffn?: number;
    mlp?: 'gelu' | 'swiglu' | 'geglu';
    vocab?: number;
    tied_embeddings?: boolean;
    norm?: 'layernorm' | 'rmsnorm';
    /** Tokens the model is configured for (its config.json max_position_embeddings); 0 = unknown. The what-fits answers stop there. */
    context_limit?: number;
    [field: string]: unknown;
}

// [SECTION] results -------------------------------------------------------------------------------

export interface Component {
    key: string;
    label: string;
    /** Bytes per GPU. */
    bytes: number;
    formula: string;
}

export interface GpuFit {
    gpu: string;
    gpus_needed: number;
    utilization: number;
    fits: boolean;
    within_target: boolean;
}

export interface Metric {
    label: string;
    value: number;
    unit: string;
}

/** What `vramcalc --format json` prints. All sizes in bytes, per GPU. */
export interface Estimate {
    ok: true;
    schema_version: number;
    method: string;
    task: string;
    components: Component[];
    breakdown: Record<string, number>;
    total_bytes: number;
    buffered_bytes: number;
    fits: GpuFit[];
    metrics: Record<string, Metric>;
    notes: string[];
}

/** What `vramcalc solve QUESTION --format json` prints. */
export interface Answer {
    ok: true;
    question: string;
    label: string;
    value: number;
    unit: string;
    explanation: string;
    items: string[];
}

export interface Question {
    id: string;
    label: string;
    /** The tasks it applies to, comma-separated: "inference", "training,finetune". */
    tasks: string;
}

export interface Preset {
    id: string;
    name: string;
    family: string;
    /** Derived from the architecture, billions. */
    params_b: number;
    active_params_b: number;
    /** As the model card states it, billions. */
    published_params_b: number;
    approximate: boolean;
    /** The config's "model" fields for this preset (give `{preset: id}` or these). */
    architecture: ModelConfig;
}

export interface Gpu {
    id: string;
    name: string;
    nominal_gb: number;
    memory_bytes: number;
    bandwidth_gbps: number;
    bf16_tflops: number;
    fp8_tflops: number;
    price_per_hour_usd: number;
    source: string;
}

/** One change that makes a config fit its GPU within the target (`vramcalc suggest`). */
export interface Suggestion {
    id: string;
    label: string;
    /** The fields that change, e.g. "training.recompute: none -> full". */
    detail: string;
    /** The device total per GPU with the change, bytes. */
    total_bytes: number;
    /** Of the chosen GPU's memory. */
    utilization: number;
    /** The whole config with the change (method "detailed"). */
    config: Config;
}

export interface Suggestions {
    ok: true;
    /** Smallest change first; empty when it fits already, no GPU is chosen, or nothing helps. */
    suggestions: Suggestion[];
}

/** A parallel layout (docs/planner.md). */
export interface PlanLayout {
    tp: number; pp: number; dp: number; cp: number; ep: number; virtual_stages: number; sp: boolean;
    sharding: 'ddp' | 'zero1' | 'zero2' | 'zero3';
    micro_batch: number; grad_accum: number;
    recompute: 'none' | 'selective' | 'full';
    /** "TP8 SP PP4 DP2 zero1 mb1 x64 selective" */
    label: string;
}

export interface PlanLayoutResult {
    layout: PlanLayout;
    /** Per GPU as nvidia-smi shows it (the detailed training engine). */
    memory_bytes: number;
    memory_share: number;
    fits: boolean;
    step_s: number; compute_s: number; bubble_s: number; optimizer_s: number; comm_exposed_s: number;
    comm_s: { tp: number; cp: number; ep: number; pp: number; dp: number; dp_total: number };
    tokens_per_s_per_gpu: number;
    mfu: number;
    train_days: number;
    rent_usd: number;
}

export interface PlanRequestFields {
    gpus?: number; fabric?: string; global_batch?: number; train_tokens?: number; top?: number;
    rank?: 'time' | 'cost' | 'tokens_per_gpu'; tp_across_nodes?: boolean; uneven_pp?: boolean;
    max_micro_batch?: number; max_cp?: number;
    search?: { recompute?: boolean; sharding?: boolean; interleave?: boolean };
    gpus_per_node?: number; price_per_hour_usd?: number; purchase_usd?: number; network_share?: number;
    fabric_spec?: { line_gbps: number; efficiency: number; latency_us: number };
    intra_spec?: { line_gbps: number; efficiency: number; latency_us: number };
    constants?: Record<string, number | boolean>;
    clusters?: { gpu: string; gpus: number; fabric: string }[];
    deadline_days?: number; max_gpus?: number;
    batch_sizing?: boolean | { fabrics?: string[]; target_efficiency?: number };
}

/** What `vramcalc plan --format json` prints. */
export interface PlanResult {
    ok: true;
    plan: {
        gpu: string; gpus: number; gpus_per_node: number; fabric: string; intra_fabric: string;
        global_batch: number; seq: number; target_bytes: number; evaluated: number; fitting: number;
        ranked: PlanLayoutResult[];
        rejected: { reason: string; count: number; example: string }[];
        notes: string[];
    };
    clusters?: { gpu: string; gpus: number; fabric: string; ok: boolean; why: string; best: PlanLayoutResult | null;
                 train_days: number; rent_usd: number; purchase_usd: number }[];
    fewest_gpus?: { ok: boolean; gpus: number; why: string; best: PlanLayoutResult | null; train_days: number;
                    rent_usd: number; purchase_usd: number };
    batch_sizing?: { fabric: string; layout: PlanLayout; per_gpu_batch: number; global_batch: number; efficiency: number;
                     memory_bytes: number; activation_bytes: number; fits: boolean; step_s: number; verdict: string }[];
}

export interface Fabric {
    id: string; name: string; intra_node: boolean; line_gbps: number; efficiency: number;
    achieved_gbps: number; latency_us: number; source: string;
}

export interface GpuNode {
    gpu: string; gpus_per_node: number; intra_fabric: string; purchase_usd: number;
    gemm_share: number; attention_share: number; source: string; speed_source: string;
}

/** Exact weight bytes read from a model file's tensor table (config "inference.weights_file"). */
export interface WeightsFile {
    source?: string;
    total_bytes: number;
    params?: number;
    parts?: { embedding: number; output: number; attention: number; mlp: number; experts: number; experts_routed: number; router: number; other: number };
    layer_bytes?: number[];
    mix?: string;
}

/** What `vramcalc --model-file F --print-import` prints (docs/import.md). */
export interface ModelImport {
    ok: true;
    kind: 'hf-config' | 'gguf' | 'safetensors' | 'safetensors-index';
    name: string;
    /** config.json architectures[0] or model_type; GGUF general.architecture. */
    architecture: string;
    /** Every architecture field was read; otherwise `missing` names the rest and `model` holds what was read. */
    complete: boolean;
    missing: { field: string; keys: string }[];
    /** Empty when complete; else names the missing keys. */
    message: string;
    notes: string[];
    model: ModelConfig;
    /** Parameters counted in the file's tensor table, or derived from the architecture. */
    params: number;
    /** Exact bytes of the tensors (0: the file has no tensor table). */
    weights_bytes: number;
    /** The checkpoint's format as inference.weights names it ("q4_k_m", "gptq-int4", "bf16"); "" = unknown. */
    weights_format: string;
    header_bytes: number;
    tensor_count: number;
    /** A config fragment to merge into yours: {model, inference?: {engine?, weights?, group_size?, weights_file?}}. */
    config: { model: ModelConfig; inference?: { engine?: string; weights?: string; group_size?: number; zero_point?: boolean; act_order?: boolean; weights_file?: WeightsFile } };
}

/** A failed import: field "import"; need_bytes > 0 when the header runs past the bytes given (read that many from the start). */
export interface ImportFailure extends Failure {
    need_bytes?: number;
    kind?: string;
}

/** What importFile reads: a browser File or Blob, or anything with their size and slice() (no DOM
 *  types needed, so the declarations compile under Node's libs too). */
export interface FileLike {
    readonly size: number;
    readonly name?: string;
    slice(start?: number, end?: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

/** A config object, or its JSON text. */
export type ConfigInput = Config | string;

// [SECTION] the API -------------------------------------------------------------------------------

/** The engine's API: the library's createVramCalc() resolves to it; the page's and the widget's
 *  `window.vramcalc` has the same members once `ready` resolves (VramCalcPage). */
export interface VramCalc {
    /** The engine's version, e.g. "0.1.0". */
    readonly version: string;
    /** The config/result schema version (docs/config.md). */
    readonly schemaVersion: number;
    estimate(config?: ConfigInput): Estimate | Failure;
    solve(config: ConfigInput | undefined, question: string): Answer | Failure;
    /** What to change when the config does not fit its GPU (`vramcalc suggest --format json`). */
    suggest(config?: ConfigInput): Suggestions | Failure;
    /** The config with every field and its default filled in (`vramcalc --print-config`). */
    resolveConfig(config?: ConfigInput): Config | Failure;
    /** Reads a model file's first bytes: config.json (bytes or text), a .gguf or .safetensors header, an index.
     *  `size` is the whole file's length when `data` is its start. Nothing leaves the page. */
    importModel(data: Uint8Array | ArrayBuffer | string, name?: string, size?: number): ModelImport | ImportFailure;
    /** importModel over a File or Blob, reading only its header with File.slice (growing the slice when the header is longer). */
    importFile(file: FileLike): Promise<ModelImport | ImportFailure>;
    presets(): Preset[] | Failure;
    gpus(): Gpu[] | Failure;
    questions(): Question[] | Failure;
    /** Every parallel layout of a cluster ranked by step time: a config with a "plan" object. */
    plan(request: (Config & { plan?: PlanRequestFields }) | string): PlanResult | Failure;
    fabrics(): { fabrics: Fabric[]; nodes: GpuNode[] } | Failure;
}

/** The page's `window.vramcalc` (index.html, widget.html): `ready` at once, the members of VramCalc
 *  when it resolves. The page carries estimate, solve, questions, version and schemaVersion; the
 *  other members are there but return a Failure naming the library (its download has a budget). */
export type VramCalcPage = { readonly ready: Promise<void> } & Partial<VramCalc>;

/** Instantiates the engine (the WebAssembly module is inside the library file: no request). */
export function createVramCalc(): Promise<VramCalc>;
export default createVramCalc;
