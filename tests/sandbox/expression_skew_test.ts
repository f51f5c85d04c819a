/**
 * The expression sandbox's emotion-by-body-part counts have structure:
 * plausible pairings (tears with sorrow, eyes with surprise) dominate, the
 * heatmap is not a flat field, and the data stay deterministic per seed.
 */

import assert from "node:assert/strict";
import { ExpressionSearch } from "../../lib/expressions/mod.ts";
import { startExpressionSandbox } from "../../lib/sandbox/expressions/mod.ts";

async function cells(seed?: number): Promise<Map<string, number>> {
  const sandbox = startExpressionSandbox(seed === undefined ? {} : { seed });
  try {
    const ex = new ExpressionSearch(sandbox.url, { progress: false });
    const { emotionBodyPart } = await ex.analytics();
    const out = new Map<string, number>();
    for (
      const row of emotionBodyPart.objects() as {
        emotion: string;
        bodyPart: string;
        count: number;
      }[]
    ) {
      out.set(`${row.emotion}/${row.bodyPart}`, row.count);
    }
    return out;
  } finally {
    await sandbox.close();
  }
}

Deno.test("expression sandbox: co-occurrences are skewed the way a corpus is, and seeded", async () => {
  const counts = await cells();
  const values = [...counts.values()].sort((a, b) => a - b);
  const median = values[Math.floor(values.length / 2)];
  assert.ok(values.at(-1)! > 8 * values[0], `max ${values.at(-1)} vs min ${values[0]}`);
  const sorrowTears = counts.get("哀/涙")!;
  assert.ok(sorrowTears > 3 * median, `哀/涙 ${sorrowTears} vs median ${median}`);
  const otherTears = (counts.get("喜/涙") ?? 0) + (counts.get("怒/涙") ?? 0);
  assert.ok(
    sorrowTears > 3 * otherTears,
    `tears are mostly sorrow: ${sorrowTears} vs ${otherTears}`,
  );
  const surpriseEyes = counts.get("驚/目")!;
  assert.ok(surpriseEyes > 3 * median, `驚/目 ${surpriseEyes} vs median ${median}`);
  assert.ok(
    surpriseEyes > 3 * (counts.get("驚/口") ?? 0),
    "surprise shows in the eyes more than the mouth",
  );
  assert.deepEqual(await cells(), counts, "the same seed gives the same data");
});
