// A float64's 64 bits, for pages that show two results agreeing "to the last bit".

/** The bits of x as 16 hex digits. */
export function bitsOf(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return view.getBigUint64(0).toString(16).padStart(16, '0');
}

/** How many doubles apart a and b are (units in the last place; 0: the same bits). */
export function ulpsApart(a, b) {
  if (Object.is(a, b)) return 0;
  const view = new DataView(new ArrayBuffer(8));
  const ordered = (x) => {
    view.setFloat64(0, x);
    const u = view.getBigInt64(0);
    return u < 0n ? -(u & 0x7fffffffffffffffn) : u; // negatives below positives, ±0 together
  };
  const d = ordered(a) - ordered(b);
  return Number(d < 0n ? -d : d);
}

/** Entry by entry: both values, how many ulps apart; whether all are the same bits, and the worst. */
export function compareBits(got, want) {
  const entries = Array.from(got, (a, i) => ({ a, b: want[i], ulps: ulpsApart(a, want[i]) }));
  return { entries, identical: entries.every((e) => e.ulps === 0), worst: Math.max(0, ...entries.map((e) => e.ulps)) };
}
