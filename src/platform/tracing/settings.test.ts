import { AlwaysOffSampler, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace';
import { TracingSettingsError, tracingSettings } from './settings.js';

describe('tracingSettings', () => {
  test('off unless an exporter or an OTLP endpoint is configured', () => {
    expect(tracingSettings({})).toBeNull();
    expect(tracingSettings({ OTEL_SERVICE_NAME: 'chat' })).toBeNull();
    expect(tracingSettings({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBeNull();
  });

  test('an OTLP endpoint alone means the otlp exporter; OTEL_SDK_DISABLED wins over both', () => {
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })?.exporter).toBe('otlp');
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })?.exporter).toBe('otlp');
    expect(tracingSettings({ OTEL_TRACES_EXPORTER: 'console' })?.exporter).toBe('console');
    expect(tracingSettings({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' })).toBeNull();
  });

  test('the sampler: parent-based always-on by default, the named one otherwise, with its ratio', () => {
    expect(tracingSettings({ OTEL_TRACES_EXPORTER: 'otlp' })?.sampler).toBeInstanceOf(ParentBasedSampler);
    expect(tracingSettings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'always_off' })?.sampler).toBeInstanceOf(AlwaysOffSampler);
    const ratio = tracingSettings({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_TRACES_SAMPLER: 'traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    })?.sampler;
    expect(ratio).toBeInstanceOf(TraceIdRatioBasedSampler);
    expect(ratio?.toString()).toContain('0.25');
  });

  test('values it cannot honour are refused, not ignored', () => {
    expect(() => tracingSettings({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(TracingSettingsError);
    expect(() => tracingSettings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(TracingSettingsError);
    expect(() =>
      tracingSettings({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' }),
    ).toThrow(TracingSettingsError);
  });
});
