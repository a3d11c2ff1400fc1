// Compiled by `tsc --strict`: the RandomState declarations as they are used.
import { loadAttention, Matrix, type Attention, type RandomState } from '../../dist/lib/index.js';

export async function randomStateUsage(): Promise<number> {
  const a: Attention = await loadAttention();
  const rs: RandomState = new a.RandomState(42);
  try {
    const normals: Matrix = rs.randn(5, 16);
    const uniforms: Matrix = rs.rand(2, 3);
    const ints: Matrix = rs.randint(0, 3, 3, 3);
    const deleted: boolean = rs.deleted;
    // @ts-expect-error the seed is a number, not a string
    new a.RandomState('42');
    // @ts-expect-error randint needs low, high, rows and cols
    rs.randint(3, 3, 3);
    return normals.get(0, 0) + uniforms.rows + ints.data[0] + (deleted ? 1 : 0);
  } finally {
    rs.delete();
  }
}
