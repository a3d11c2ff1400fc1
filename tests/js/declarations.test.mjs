// Ties the hand-written declarations (web/src/api/index.d.ts, shipped as
// dist/lib/index.d.ts) to the runtime: every value the module or the API
// object exports is declared, and every declared value exists. The compiler
// (`tsc --strict`, tests/types/) checks the rest of the shapes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import ts from 'typescript';
import * as lib from '../../dist/lib/index.js';

const source = ts.createSourceFile(
  'index.d.ts',
  readFileSync(new URL('../../web/src/api/index.d.ts', import.meta.url), 'utf8'),
  ts.ScriptTarget.Latest,
);
const exported = (node) => node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** Names of the module's declared value exports (functions, classes, consts). */
function declaredModuleValues() {
  const names = [];
  for (const node of source.statements) {
    if (!exported(node)) continue;
    if (ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) names.push(node.name.text);
    if (ts.isVariableStatement(node))
      for (const d of node.declarationList.declarations) names.push(d.name.getText(source));
  }
  return names.sort();
}

/** Member names of `export interface <name>`. */
function declaredMembers(name) {
  const node = source.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === name);
  assert.ok(node, `index.d.ts declares interface ${name}`);
  return node.members.map((m) => m.name.getText(source)).sort();
}

test('every runtime export of the module is declared, and every declared value exists', () => {
  assert.deepEqual(declaredModuleValues(), Object.keys(lib).sort());
});

test('the API object has exactly the members interface Attention declares', async () => {
  const a = await lib.loadAttention();
  assert.deepEqual(declaredMembers('Attention'), Object.keys(a).sort());
});

test('wasm-backed classes have exactly the public members their interfaces declare', async () => {
  const a = await lib.loadAttention();
  const owned = declaredMembers('OwnedObject');
  const publicMembers = (object) => {
    const names = new Set();
    for (let p = Object.getPrototypeOf(object); p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
      for (const key of Object.getOwnPropertyNames(p)) if (key !== 'constructor' && key !== 'raw') names.add(key);
    }
    for (const key of Object.keys(object)) names.add(key);
    return [...names].sort();
  };
  const rs = new a.RandomState(0);
  const trainer = new a.Seq2SeqTrainer({ hidden: 4, embedding: 2, batch: 2 });
  const transformer = new a.TransformerTrainer({ layers: 1, heads: 1, dModel: 2, dFF: 2, batch: 1 });
  const table = a.embeddingsFromBinary((await a.loadEmbeddings('x 1 2\ny 3 4\n')).toBinary());
  try {
    assert.deepEqual(publicMembers(rs), [...declaredMembers('RandomState'), ...owned].sort());
    assert.deepEqual(publicMembers(trainer), [...declaredMembers('Seq2SeqTrainer'), ...owned].sort());
    assert.deepEqual(publicMembers(table), [...declaredMembers('Embeddings'), ...owned].sort());
    assert.deepEqual(publicMembers(transformer), [...declaredMembers('TransformerTrainer'), ...owned].sort());
    // Static members, own or inherited from the shared trainer base (trainer.js).
    const staticMembers = (cls) => {
      const names = new Set();
      for (let p = cls; p && p !== Function.prototype; p = Object.getPrototypeOf(p)) {
        for (const key of Object.getOwnPropertyNames(p))
          if (!['length', 'name', 'prototype'].includes(key)) names.add(key);
      }
      return [...names];
    };
    assert.deepEqual(staticMembers(a.TransformerTrainer), ['load']);
    assert.deepEqual(staticMembers(a.Seq2SeqTrainer), ['load']);
  } finally {
    rs.delete();
    trainer.delete();
    transformer.delete();
    table.delete();
  }
});
