// The standard OTEL_* variables this platform reads. Tracing is off unless an exporter is configured: by
// OTEL_TRACES_EXPORTER, or by an OTLP endpoint (which implies the otlp exporter).
import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace';

export type ExporterName = 'otlp' | 'console';

export interface TracingSettings {
  exporter: ExporterName;
  sampler: Sampler;
}

export class TracingSettingsError extends Error {}

function ratioOf(arg: string | undefined): number {
  if (arg === undefined || arg.trim() === '') return 1;
  const ratio = Number(arg);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1)
    throw new TracingSettingsError(`OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1, got "${arg}"`);
  return ratio;
}

export function samplerOf(name: string | undefined, arg: string | undefined): Sampler {
  switch ((name ?? '').trim() || 'parentbased_always_on') {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratioOf(arg));
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratioOf(arg)) });
    default:
      throw new TracingSettingsError(
        `OTEL_TRACES_SAMPLER "${name}" is not one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio`,
      );
  }
}

function exporterOf(env: NodeJS.ProcessEnv): ExporterName | null {
  const listed = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (listed.length === 0) return env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? 'otlp' : null;
  if (listed.includes('none')) return null;
  const unknown = listed.filter((s) => s !== 'otlp' && s !== 'console');
  if (unknown.length > 0)
    throw new TracingSettingsError(`OTEL_TRACES_EXPORTER "${unknown.join(',')}" is not supported: use otlp, console or none`);
  return listed[0] as ExporterName;
}

/** The tracing configuration of the environment, or null when tracing is off. */
export function tracingSettings(env: NodeJS.ProcessEnv = process.env): TracingSettings | null {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return null;
  const exporter = exporterOf(env);
  if (!exporter) return null;
  return { exporter, sampler: samplerOf(env.OTEL_TRACES_SAMPLER, env.OTEL_TRACES_SAMPLER_ARG) };
}
