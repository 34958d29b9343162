/** Golden-section search for a one-parameter minimum on [lower, upper] (Kiefer 1953); deterministic. */
export function goldenSection(
  objective: (x: number) => number,
  lower: number,
  upper: number,
  tolerance = 1e-4,
): { x: number; value: number } {
  const ratio = (Math.sqrt(5) - 1) / 2;
  let a = lower;
  let b = upper;
  let c = b - ratio * (b - a);
  let d = a + ratio * (b - a);
  let fc = objective(c);
  let fd = objective(d);
  while (b - a > tolerance) {
    if (fc <= fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - ratio * (b - a);
      fc = objective(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + ratio * (b - a);
      fd = objective(d);
    }
  }
  return fc <= fd ? { x: c, value: fc } : { x: d, value: fd };
}
