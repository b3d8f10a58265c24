{{/* The release's base name, cut to the 63 characters a label value or DNS name allows. */}}
{{- define "chat-platform.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* One role's objects are named <fullname>-<role>. Called with (dict "root" $ "role" $name). */}}
{{- define "chat-platform.roleName" -}}
{{- printf "%s-%s" (include "chat-platform.fullname" .root) .role | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "chat-platform.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selects the pods of one role. Called with (dict "root" $ "role" $name). */}}
{{- define "chat-platform.selectorLabels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .role }}
{{- end -}}

{{/* The ports of the listeners a role's SERVICES names, as "name:port" lines; the metrics port is always there. */}}
{{- define "chat-platform.ports" -}}
{{- $services := splitList "," (.role.services | nospace) -}}
{{- range $listener := list "chat" "partner" "workspace" -}}
{{- if has $listener $services }}
{{ $listener }}: {{ index $.root.Values.ports $listener }}
{{- end -}}
{{- end }}
metrics: {{ .root.Values.ports.metrics }}
{{- end -}}

{{/* The port the probes ask: the first listener of the role, else the operations listener (a workers-only role). */}}
{{- define "chat-platform.probePort" -}}
{{- $services := splitList "," (.role.services | nospace) -}}
{{- $port := "metrics" -}}
{{- range $listener := list "workspace" "partner" "chat" -}}
{{- if has $listener $services -}}{{- $port = $listener -}}{{- end -}}
{{- end -}}
{{- $port -}}
{{- end -}}

{{/* The role whose pods serve a listener (the first enabled one, by name), or nothing. */}}
{{- define "chat-platform.roleServing" -}}
{{- $found := "" -}}
{{- range $name, $role := .root.Values.roles -}}
{{- if and $role.enabled (not $found) (has $.listener (splitList "," ($role.services | nospace))) -}}
{{- $found = $name -}}
{{- end -}}
{{- end -}}
{{- $found -}}
{{- end -}}

{{- define "chat-platform.secretName" -}}
{{- .Values.secrets.existingSecret | default (printf "%s-secrets" (include "chat-platform.fullname" .)) -}}
{{- end -}}

{{/*
SIGTERM to exit: the preStop pause (endpoints are removed meanwhile), then at most SHUTDOWN_TIMEOUT_MS of drain, and 4 s
more with WORKERS > 1 (docs/operations.md); 5 s of margin on top.
*/}}
{{- define "chat-platform.gracePeriod" -}}
{{- $drain := div (int .root.Values.config.SHUTDOWN_TIMEOUT_MS) 1000 -}}
{{- $cluster := ternary 0 4 (eq (toString .role.workers) "1") -}}
{{- add .root.Values.preStopSleepSeconds $drain $cluster 5 -}}
{{- end -}}
