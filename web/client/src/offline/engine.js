// engine.js — the Ramparts engine compiled to WebAssembly (src/wasm, docs/wasm.md), loaded
// with the four WASI calls it imports (clocks, and writes to stderr for messages) supplied
// here, so the same module runs in a Web Worker and in Node. One call: a request object in,
// the answer object out ({error} when refused); strings cross as UTF-8 in the module's memory.

const WASI_ESUCCESS = 0;
const WASI_EBADF = 8;
const WASI_ESPIPE = 70;
const CLOCK_REALTIME = 0;

export class Engine {
  /** @param {WebAssembly.Instance} instance */
  constructor(instance) {
    this.exports = /** @type {any} */ (instance.exports);
    this.encoder = new TextEncoder();
    this.decoder = new TextDecoder();
  }

  /**
   * Answer one request, e.g. {op: 'new', game: 'castle-danger', options: 'seed=7'}.
   * @param {{op: string, [key: string]: any}} request @returns {{[key: string]: any}}
   */
  call(request) {
    const bytes = this.encoder.encode(JSON.stringify(request));
    const inPtr = this.exports.rw_alloc(bytes.length + 1);
    const mem = new Uint8Array(this.exports.memory.buffer);
    mem.set(bytes, inPtr);
    mem[inPtr + bytes.length] = 0;
    const outPtr = this.exports.rw_call(inPtr);
    this.exports.rw_free(inPtr);
    if (!outPtr) return { error: 'the engine ran out of memory' };
    const text = this.readString(outPtr);
    this.exports.rw_free(outPtr);
    return JSON.parse(text);
  }

  /** @param {number} ptr */
  readString(ptr) {
    const mem = new Uint8Array(this.exports.memory.buffer);
    let end = ptr;
    while (mem[end] !== 0) end++;
    return this.decoder.decode(mem.subarray(ptr, end));
  }
}

/**
 * The WASI imports the module uses. Writes (the C library's messages) go to the console.
 * @param {() => WebAssembly.Memory} memory
 */
function wasiImports(memory) {
  const view = () => new DataView(memory().buffer);
  const decoder = new TextDecoder();
  return {
    clock_time_get(/** @type {number} */ id, /** @type {bigint} */ _precision, /** @type {number} */ out) {
      const ms = id === CLOCK_REALTIME ? Date.now() : performance.now();
      view().setBigUint64(out, BigInt(Math.round(ms * 1e6)), true);
      return WASI_ESUCCESS;
    },
    fd_write(/** @type {number} */ fd, /** @type {number} */ iovs, /** @type {number} */ count, /** @type {number} */ written) {
      if (fd !== 1 && fd !== 2) return WASI_EBADF;
      const v = view();
      let text = '';
      let total = 0;
      for (let i = 0; i < count; i++) {
        const ptr = v.getUint32(iovs + i * 8, true);
        const len = v.getUint32(iovs + i * 8 + 4, true);
        text += decoder.decode(new Uint8Array(memory().buffer, ptr, len));
        total += len;
      }
      if (text.trim()) console.warn(`ramparts.wasm: ${text.trimEnd()}`);
      v.setUint32(written, total, true);
      return WASI_ESUCCESS;
    },
    fd_close: () => WASI_ESUCCESS,
    fd_seek: () => WASI_ESPIPE,
  };
}

/**
 * Instantiate the engine from its compiled module or its bytes.
 * @param {WebAssembly.Module|BufferSource} module @returns {Promise<Engine>}
 */
export async function loadEngine(module) {
  /** @type {WebAssembly.Memory|null} */
  let memory = null;
  const imports = { wasi_snapshot_preview1: wasiImports(() => /** @type {WebAssembly.Memory} */ (memory)) };
  const instance = module instanceof WebAssembly.Module
    ? await WebAssembly.instantiate(module, imports)
    : (await WebAssembly.instantiate(module, imports)).instance;
  memory = /** @type {any} */ (instance.exports).memory;
  /** @type {any} */ (instance.exports)._initialize();
  return new Engine(instance);
}
