// Two small concurrency tools of the delivery worker. MicroBatcher gathers the calls made within one turn of the
// event loop into one call of `run` (one SQL statement for many deliveries instead of one each); Semaphore bounds
// how many deliveries are in flight on a node.

interface Waiting<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (reason: unknown) => void;
}

export class MicroBatcher<I, O> {
  private waiting: Array<Waiting<I, O>> = [];
  private scheduled = false;

  /** `run` answers one result per item, in order. */
  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly max = 200,
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.max);
      this.run(batch.map((w) => w.item)).then(
        (results) => batch.forEach((w, i) => w.resolve(results[i]!)),
        (err: unknown) => batch.forEach((w) => w.reject(err)),
      );
    }
  }
}

export class Semaphore {
  private free: number;
  private readonly queue: Array<() => void> = [];

  constructor(size: number) {
    this.free = size;
  }

  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.queue.push(resolve));
  }

  release(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.free++;
  }
}
