/** The part of autocannon's API the benchmark uses (the package ships no types). */
declare module 'autocannon' {
  namespace autocannon {
    interface RequestParams {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }
    interface Request extends RequestParams {
      setupRequest?: (req: RequestParams, context: Record<string, unknown>) => RequestParams;
    }
    /** The per-connection client handed to setupClient. */
    interface Client {
      /** The bytes of the next request (autocannon's own method; the bench replaces it). */
      getRequestBuffer(): Buffer;
    }
    interface Options {
      url: string;
      setupClient?: (client: Client) => void;
      connections?: number;
      duration?: number;
      amount?: number;
      requests?: Request[];
    }
    interface Histogram {
      average: number;
      total: number;
      p50: number;
      p99: number;
      max: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
    }
  }
  function autocannon(opts: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
