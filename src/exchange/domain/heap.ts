/** A binary min-heap of timed events: the one schedule of order blocks and transaction hashes. */

export interface TimedEvent {
  at: number;
  seq: number;
  kind: 'tx' | 'block';
  orderId: string;
}

function before(a: TimedEvent, b: TimedEvent): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

export class EventHeap {
  private readonly items: TimedEvent[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): TimedEvent | undefined {
    return this.items[0];
  }

  push(e: TimedEvent): void {
    const a = this.items;
    a.push(e);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(a[i]!, a[parent]!)) break;
      [a[i], a[parent]] = [a[parent]!, a[i]!];
      i = parent;
    }
  }

  pop(): TimedEvent | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && before(a[l]!, a[m]!)) m = l;
        if (r < a.length && before(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }

  clear(): void {
    this.items.length = 0;
  }
}
