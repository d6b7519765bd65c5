// @ts-check
// The wasm side of scripts/bench/memory.sh: runs scenario JSON the way the page
// does (a recording Playground with its time-travel checkpoints, to the
// end of the run) in Node against the built www/pkg, and prints one JSON
// object with the events run, the trace events kept, the trace hash and
// the wasm memory size afterwards (memory.buffer.byteLength: wasm memory
// never shrinks, so this is the peak).
//
//   node scripts/bench/memory-wasm.mjs '<scenario json>'

import { loadWasm } from '../build/wasm-node.mjs';

const json = process.argv[2];
if (!json) {
  console.error("usage: memory-wasm.mjs '<scenario json>'");
  process.exit(2);
}
const { pkg, exports } = await loadWasm();
let p;
try {
  p = new pkg.Playground(json);
} catch (e) {
  console.error(`memory-wasm: bad scenario: ${e instanceof Error ? e.message : e}`);
  process.exit(2);
}
p.run_to_end();
const summary = p.summary();
console.log(JSON.stringify({
  events: summary.events,
  trace_events: p.event_count(),
  checkpoints: p.checkpoint_count(),
  trace_hash: p.trace_hash(),
  memory_bytes: exports.memory.buffer.byteLength,
}));
