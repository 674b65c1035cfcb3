/** The latency buckets of http_request_duration_seconds, in seconds. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

interface RouteAnswers {
  /** Answers by status code. */
  byStatus: Map<number, number>;
  /** Answers per latency bucket (not cumulative); the last slot is above the largest bucket. */
  buckets: Float64Array;
  count: number;
  sumSeconds: number;
}

const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/**
 * Every answer's count and latency by method and route pattern, kept in plain numbers: a map
 * lookup, two additions and a bucket index per request. prom-client's labelled counter and
 * histogram validated and hashed their labels on every call, the largest part of what the
 * metrics cost each request (docs/decisions.md, "The hot path"); these are turned into
 * Prometheus's text format only when scraped, as http_requests_total{method,route,status} and
 * http_request_duration_seconds{method,route}. Routes are patterns (few, fixed), so the series
 * stay bounded.
 */
export class HttpAnswers {
  private readonly routes = new Map<string, Map<string, RouteAnswers>>();

  record(method: string, route: string, status: number, seconds: number): void {
    let methods = this.routes.get(route);
    if (!methods) this.routes.set(route, (methods = new Map()));
    let answers = methods.get(method);
    if (!answers) methods.set(method, (answers = { byStatus: new Map(), buckets: new Float64Array(BUCKETS.length + 1), count: 0, sumSeconds: 0 }));
    answers.byStatus.set(status, (answers.byStatus.get(status) ?? 0) + 1);
    let bucket = 0;
    while (bucket < BUCKETS.length && seconds > BUCKETS[bucket]!) bucket++;
    answers.buckets[bucket]! += 1;
    answers.count += 1;
    answers.sumSeconds += seconds;
  }

  /** The two metrics in Prometheus's text format (version 0.0.4), each with its HELP and TYPE. */
  exposition(): string {
    const counts: string[] = [];
    const durations: string[] = [];
    for (const [route, methods] of this.routes) {
      for (const [method, answers] of methods) {
        const labels = `method="${escapeLabel(method)}",route="${escapeLabel(route)}"`;
        for (const [status, count] of answers.byStatus) counts.push(`http_requests_total{${labels},status="${status}"} ${count}`);
        let cumulative = 0;
        BUCKETS.forEach((upper, i) => {
          cumulative += answers.buckets[i]!;
          durations.push(`http_request_duration_seconds_bucket{le="${upper}",${labels}} ${cumulative}`);
        });
        durations.push(`http_request_duration_seconds_bucket{le="+Inf",${labels}} ${answers.count}`);
        durations.push(`http_request_duration_seconds_sum{${labels}} ${answers.sumSeconds}`);
        durations.push(`http_request_duration_seconds_count{${labels}} ${answers.count}`);
      }
    }
    return [
      '# HELP http_requests_total Requisições HTTP atendidas, por método, rota (o padrão da URL) e status',
      '# TYPE http_requests_total counter',
      ...counts,
      '',
      '# HELP http_request_duration_seconds Tempo de resposta das requisições HTTP, por método e rota',
      '# TYPE http_request_duration_seconds histogram',
      ...durations,
    ].join('\n');
  }
}
