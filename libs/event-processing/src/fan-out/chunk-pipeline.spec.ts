import { describe, expect, it } from '@jest/globals';
import { ChunkPipeline } from './chunk-pipeline.js';

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ChunkPipeline', () => {
  it('keeps at most `depth` writes in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const pipeline = new ChunkPipeline<number>(async () => {
      most = Math.max(most, ++inFlight);
      await tick();
      inFlight--;
      return true;
    }, 2);
    for (let chunk = 0; chunk < 6; chunk++) await pipeline.push(chunk);
    await pipeline.drain();
    expect(most).toBe(2);
  });

  it('a failed write is thrown by the next push or by drain, never lost or unhandled', async () => {
    const pipeline = new ChunkPipeline<number>(async (chunk) => {
      await tick();
      if (chunk === 1) throw new Error('chunk 1 failed');
      return true;
    }, 2);
    await pipeline.push(0);
    await pipeline.push(1);
    await expect(pipeline.drain()).rejects.toThrow('chunk 1 failed');
  });

  it('stops taking chunks once a write reports the event canceled', async () => {
    const written: number[] = [];
    const pipeline = new ChunkPipeline<number>((chunk) => {
      written.push(chunk);
      return Promise.resolve(chunk !== 0);
    }, 1);
    await pipeline.push(0);
    await pipeline.push(1);
    await pipeline.drain();
    expect(pipeline.stopped).toBe(true);
    expect(written).toEqual([0]);
  });
});
