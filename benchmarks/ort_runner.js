// ONNX Runtime side of benchmarks/peers.py: loads one ONNX model and answers
// line commands on stdin so the Python driver can interleave it with the
// other systems.
//
//   node ort_runner.js MODEL.onnx THREADS INPUTS.json
//   INPUTS.json: [{"name": ..., "dtype": "float32"|"int64", "shape": [...], "file": raw.bin}]
//   stdin "run"        -> one inference, prints its latency in ms
//   stdin "dump DIR"   -> one inference, writes DIR/<i>.bin (float32 raw) per output, prints "ok"
//   stdin "quit"
'use strict';
const fs = require('fs');
const path = require('path');
const readline = require('readline');
const ort = require('onnxruntime-node');

async function main() {
  const [modelPath, threads, inputsJson] = process.argv.slice(2);
  const session = await ort.InferenceSession.create(modelPath, {
    intraOpNumThreads: Number(threads),
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const feeds = {};
  for (const spec of JSON.parse(fs.readFileSync(inputsJson, 'utf8'))) {
    const buf = fs.readFileSync(spec.file);
    const bytes = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
    const data = spec.dtype === 'int64' ? new BigInt64Array(bytes) : new Float32Array(bytes);
    feeds[spec.name] = new ort.Tensor(spec.dtype, data, spec.shape);
  }
  const rl = readline.createInterface({input: process.stdin});
  console.log('ready');
  for await (const line of rl) {
    const [cmd, arg] = line.trim().split(/\s+/);
    if (cmd === 'quit') break;
    const t0 = process.hrtime.bigint();
    const out = await session.run(feeds);
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (cmd === 'dump') {
      session.outputNames.forEach((name, i) => {
        const t = out[name];
        fs.writeFileSync(path.join(arg, i + '.bin'), Buffer.from(t.data.buffer, t.data.byteOffset,
                                                                  t.data.byteLength));
        fs.writeFileSync(path.join(arg, i + '.json'), JSON.stringify(t.dims));
      });
      console.log('ok');
    } else {
      console.log(ms.toFixed(4));
    }
  }
  process.exit(0);
}

main().catch((e) => {
  console.error('ort_runner: ' + (e && e.stack ? e.stack : e));
  process.exit(1);
});
