# Everything the project needs is installed by this Makefile: Node 24 (from the npm registry when the
# machine's node is older), npm packages, redis-server (Debian package, as root) and the schemathesis
# virtualenv. `make run` starts the platform; `make test` is what CI runs.
SHELL := /bin/bash
.DEFAULT_GOAL := help

NODE_MAJOR := 24
ARCH := $(shell uname -m | sed -e 's/x86_64/x64/' -e 's/aarch64/arm64/')
TOOLS := $(CURDIR)/.tools
LOCAL_NODE_BIN := $(TOOLS)/node/node_modules/node-linux-$(ARCH)/bin
SYSTEM_NODE_MAJOR := $(shell node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
ifneq ($(SYSTEM_NODE_MAJOR),$(NODE_MAJOR))
export PATH := $(LOCAL_NODE_BIN):$(PATH)
NODE_STAMP := $(LOCAL_NODE_BIN)/node
else
NODE_STAMP :=
endif
VENV := $(TOOLS)/venv
SCHEMATHESIS_VERSION := 4.32.5
# The Python bot libraries of the Bot API conformance matrix (test/integration/bots/matrix), in the same virtualenv.
PTB_VERSION := 22.8
AIOGRAM_VERSION := 3.31.0
# PTB with the extras its example bots use (the job queue of timerbot, the callback-data cache of arbitrarycallbackdatabot).
BOT_LIBRARIES := $(VENV)/.bot-libraries-ptb$(PTB_VERSION)-extras-aiogram$(AIOGRAM_VERSION)
# The same versions' source distributions, whose examples/ folders the example-bot suite (test/integration/bots/examples)
# runs as shipped; unpacked into .tools, nothing of them is kept in the repository.
BOT_EXAMPLES := $(TOOLS)/bot-examples
BOT_EXAMPLES_STAMP := $(BOT_EXAMPLES)/.ptb$(PTB_VERSION)-aiogram$(AIOGRAM_VERSION)
# The Java and Rust bots of the same matrix (docs/adr/0149-java-and-rust-in-the-bot-matrix.md), built into .tools
# from what test/integration/bots/matrix/java and rust pin: java-telegram-bot-api's jars resolved by Maven from the
# pom (its own local repository in .tools, not ~/.m2) and EchoBot.java compiled against them; the frankenstein bot
# built by cargo from the committed Cargo.lock. A changed pom, source or lock rebuilds; otherwise nothing runs.
MATRIX := test/integration/bots/matrix
JAVA_BOT := $(TOOLS)/java-bot
JAVA_BOT_STAMP := $(JAVA_BOT)/.built
RUST_BOT := $(TOOLS)/rust-bot/debug/frankenstein-echo-bot
# The client generator of the generated-client check (test/integration/generated-clients), in the same virtualenv.
OPENAPI_PYTHON_CLIENT_VERSION := 0.29.1
GENERATED_CLIENTS := $(VENV)/.openapi-python-client$(OPENAPI_PYTHON_CLIENT_VERSION)

# Inside `make test` (PHASES_FILE set), a step's time goes to the phase table; run alone, the step just runs.
timed = $(if $(PHASES_FILE),scripts/phases.sh run $(1))

.PHONY: help node deps redis chromium venv chart-tools chart-check image-tools image test-image image-of-build test-image-of-build test-rolling bot-libraries bot-java bot-rust generated-clients generate check-generated snapshots architecture format format-check lint openapi-lint build sdks typecheck typecheck-and-lint run test test-repeat unit contract bench bench-chat bench-partner bench-realtime bench-typing bench-scheduled bench-bots bench-webhooks bench-receipts bench-tracing bench-typed-queries bench-sockets bench-peer clean

help:
	@echo "make run    install what is missing, generate, build, migrate and start the platform"
	@echo "make test   typecheck, unit + integration + SDK tests on real PostgreSQL and Redis, contract fuzzing"
	@echo "make test-repeat   the integration files 3 times (REPEAT=n) under added CPU load; lists the files that failed"
	@echo "make image   the platform as an OCI image (.data/image/chat-platform.tar); make test-image runs it against PostgreSQL and Redis (part of make test as root)"
	@echo "make chart-check   helm lint, helm template and kubeconform for deploy/helm/chat-platform (part of make test)"
	@echo "make test-rolling   two nodes restarted one at a time under 1,000 sends and 200 STOMP sessions: nothing lost"
	@echo "make generate | check-generated | snapshots | architecture | format (format-check) | lint | openapi-lint | build (sdks) | typecheck | contract | bench (bench-chat, bench-partner, bench-realtime, bench-typing, bench-scheduled, bench-bots, bench-webhooks) | bench-tracing | bench-typed-queries | bench-sockets | bench-peer | clean"

# Node 24 LTS from the npm registry's node-linux-<arch> package, into a git-ignored tools folder.
$(LOCAL_NODE_BIN)/node:
	@echo "node $(SYSTEM_NODE_MAJOR) found; installing Node $(NODE_MAJOR) into .tools/node"
	npm install --no-save --no-audit --no-fund --prefix $(TOOLS)/node node-linux-$(ARCH)@$(NODE_MAJOR)
	@$(LOCAL_NODE_BIN)/node --version

node: $(NODE_STAMP)
	@node --version

# `npm install` honours the committed lock; `npm ci` would refuse a lock that lacks entries for other platforms'
# optional binaries (which the registry mirror here does not list).
node_modules/.installed: package-lock.json package.json $(NODE_STAMP)
	npm install --no-audit --no-fund
	@touch $@

# The SDKs' schema copies of generated/types/ are build inputs of the typecheck, jest, the console and the SDKs.
deps: node_modules/.installed
	@node scripts/sdk-schemas.mjs

# redis-cli (Debian's redis-tools, a dependency of redis-server) joins the Redis Cluster suite's local cluster.
redis:
	@if { command -v redis-server && command -v redis-cli; } >/dev/null 2>&1 || [ -n "$$REDIS_URL" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "redis-server or redis-cli missing: installing Debian's redis-server and redis-tools"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server redis-tools >/dev/null; \
	  systemctl disable --now redis-server >/dev/null 2>&1 || true; \
	else \
	  echo "redis-server or redis-cli is not installed. Install them (Debian/Ubuntu: apt-get install redis-server redis-tools) or set REDIS_URL." >&2; exit 1; \
	fi

# The console's browser tests drive Debian's chromium (puppeteer-core brings no browser of its own).
# After redis: both may run apt-get, which takes one lock (make -j runs the install steps side by side).
chromium: | redis
	@if command -v chromium >/dev/null 2>&1 || [ -n "$$CHROMIUM_PATH" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "chromium missing: installing Debian's chromium"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else \
	  echo "chromium is not installed. Install it (Debian/Ubuntu: apt-get install chromium) or set CHROMIUM_PATH." >&2; exit 1; \
	fi

# The virtualenv's interpreter: Debian's python3 where there is one. It is built with profile-guided optimisation and
# link-time optimisation, so Schemathesis generates the same cases with about a fifth less CPU than on an unoptimised
# build (pyenv's default); elsewhere the python3 on PATH. Debian ships venv apart (python3-venv): installed if missing.
VENV_PYTHON := $(firstword $(wildcard /usr/bin/python3) python3)

$(VENV)/bin/schemathesis:
	$(VENV_PYTHON) -m venv $(VENV) 2>/dev/null || { \
	  rm -rf $(VENV); \
	  if command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null; \
	  fi; \
	  $(VENV_PYTHON) -m venv $(VENV); }
	$(VENV)/bin/pip install --quiet --disable-pip-version-check schemathesis==$(SCHEMATHESIS_VERSION)

venv: $(VENV)/bin/schemathesis

# `python -m pip` rather than bin/pip: a copied virtualenv's scripts name the interpreter of the original.
$(BOT_LIBRARIES): $(VENV)/bin/schemathesis
	$(VENV)/bin/python -m pip install --quiet --disable-pip-version-check "python-telegram-bot[job-queue,callback-data]==$(PTB_VERSION)" aiogram==$(AIOGRAM_VERSION)
	@touch $@

# Straight from the package index, checked by its sha256 (scripts/fetch-sdist.py): pip download would build each sdist's
# build backend from source to read metadata nobody uses.
$(BOT_EXAMPLES_STAMP): scripts/fetch-sdist.py
	rm -rf $(BOT_EXAMPLES) && mkdir -p $(BOT_EXAMPLES)
	$(VENV_PYTHON) scripts/fetch-sdist.py $(BOT_EXAMPLES) python-telegram-bot==$(PTB_VERSION) aiogram==$(AIOGRAM_VERSION)
	for sdist in $(BOT_EXAMPLES)/*.tar.gz; do tar xzf "$$sdist" -C $(BOT_EXAMPLES) --wildcards '*/examples/*'; done
	@touch $@

bot-libraries: $(BOT_LIBRARIES) $(BOT_EXAMPLES_STAMP)

# dependency:copy-dependencies resolves the pom's one dependency and what it needs (okhttp, gson, the Kotlin standard
# library) from Maven Central; the plugin's version is pinned in the pom. A missing tool fails here, by name.
$(JAVA_BOT_STAMP): $(MATRIX)/java/pom.xml $(MATRIX)/java/EchoBot.java
	@command -v mvn >/dev/null || { echo "mvn is not installed: it resolves the Java bot's jars (Debian/Ubuntu: apt-get install maven)" >&2; exit 1; }
	@command -v javac >/dev/null || { echo "javac is not installed: it compiles the Java bot (Debian/Ubuntu: apt-get install openjdk-17-jdk-headless)" >&2; exit 1; }
	@rm -rf $(JAVA_BOT) && mkdir -p $(JAVA_BOT)
	$(call timed,java-bot-jars) mvn --quiet --batch-mode -Dstyle.color=never -f $(MATRIX)/java/pom.xml -Dmaven.repo.local=$(TOOLS)/m2 dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory=$(JAVA_BOT)/lib
	$(call timed,java-bot-javac) javac -d $(JAVA_BOT)/classes -cp '$(JAVA_BOT)/lib/*' $(MATRIX)/java/EchoBot.java
	@touch $@

bot-java: $(JAVA_BOT_STAMP)

# A debug build: it is what the test runs, and it costs far less CPU than --release. --locked: the committed lock or
# nothing. Touched, since cargo leaves the binary as it is when nothing changed.
$(RUST_BOT): $(MATRIX)/rust/Cargo.toml $(MATRIX)/rust/Cargo.lock $(MATRIX)/rust/src/main.rs
	@command -v cargo >/dev/null || { echo "cargo is not installed: it builds the Rust bot, whose dependencies need Rust 1.88 or newer (rustup: https://rustup.rs; Debian bookworm's cargo package is older)" >&2; exit 1; }
	$(call timed,rust-bot) env CARGO_TARGET_DIR=$(TOOLS)/rust-bot cargo build --quiet --locked --manifest-path $(MATRIX)/rust/Cargo.toml
	@touch $@

bot-rust: $(RUST_BOT)

# After the bot libraries: one pip at a time in the virtualenv.
$(GENERATED_CLIENTS): $(VENV)/bin/schemathesis | $(BOT_LIBRARIES)
	$(VENV)/bin/python -m pip install --quiet --disable-pip-version-check openapi-python-client==$(OPENAPI_PYTHON_CLIENT_VERSION)
	@touch $@

generated-clients: $(GENERATED_CLIENTS)

generate: deps
	node scripts/generate.mjs

check-generated: deps
	$(call timed,check-generated) node scripts/generate.mjs --check

# Emit only: `make typecheck` checks the same sources (tsconfig.json includes everything tsconfig.build.json does).
build: deps sdks
	$(call timed,build) npx tsc -p tsconfig.build.json --noCheck
	$(call timed,console-build) npx vite build --config console/vite.config.ts --logLevel warn

# The SDK packages' dist/ (what `npm pack` ships): the shared core first, since the four compile against its types.
sdks: deps
	$(call timed,sdk-core) npm run --silent build -w @chat-platform/sdk-core
	$(call timed,sdks) npm run --silent build -w @chat-platform/chat-sdk -w @chat-platform/bot-sdk -w @chat-platform/partner-sdk -w @chat-platform/workspace-sdk

# Rewrites the checked-in SQL of every query module (src/**/queries.ts, *-queries.ts) from its examples; the jest run
# fails while one is stale (test/architecture/sql-snapshots.test.ts, docs/adr/0153-query-modules-and-sql-snapshots.md).
snapshots: deps
	UPDATE_SQL_SNAPSHOTS=1 npx jest test/architecture/sql-snapshots.test.ts

# The layers of src/ (.dependency-cruiser.cjs): imports run one way and never in a circle.
architecture: deps
	$(call timed,architecture) npx depcruise src --config .dependency-cruiser.cjs

# Prettier's formatting (.prettierrc.json; generated and non-code files in .prettierignore): `make format` writes it.
format-check: deps
	$(call timed,format-check) npx prettier --check --log-level warn .

format: deps
	npx prettier --write --log-level warn .

# ESLint with type information (eslint.config.js): unawaited promises, type-only imports, the recommended rules.
lint: deps
	$(call timed,lint) npx eslint src test sdk

# The generated OpenAPI documents against Redocly's recommended rules (redocly.yaml); no telemetry, no update check.
openapi-lint: deps
	$(call timed,openapi-lint) env REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true npx redocly lint --format=summary generated/openapi/*.json

typecheck: deps
	$(call timed,typecheck) npx tsc -p tsconfig.json --noEmit
	$(call timed,typecheck-console) npx tsc -p console/tsconfig.json

# `make typecheck` and `make lint` in one process on one TypeScript program (scripts/typecheck-and-lint.mjs): make test runs this.
typecheck-and-lint: deps
	$(call timed,typecheck+lint) node scripts/typecheck-and-lint.mjs
	$(call timed,typecheck-console) npx tsc -p console/tsconfig.json

run: deps redis generate build
	DEV_SIGNING_KEY=1 node dist/src/main.js

unit: deps redis chromium bot-libraries bot-java bot-rust generated-clients build
	npm test --silent

contract: deps redis venv build
	node test/contract/run.mjs

# What CI runs. Each step's time goes to a table printed at the end (scripts/phases.sh), also when a step fails. The
# Rust bot's build, the longest install, starts first so that the others run beside it. After
# the installs: the build, then jest and the contract run side by side; the checks run beside them at the lowest
# priority, on the CPU they leave idle (scripts/test-after-install.sh).
test: export PHASES_FILE := $(CURDIR)/.data/test-phases.tsv
test:
	@scripts/phases.sh reset
	@scripts/phases.sh run install $(MAKE) --no-print-directory -j2 --output-sync=target bot-rust deps redis chromium venv bot-libraries bot-java generated-clients
	@MAKE="$(MAKE)" scripts/test-after-install.sh || { scripts/phases.sh table; exit 1; }
	@scripts/phases.sh table

# The integration files REPEAT times (default 3) under added CPU load; lists every file that failed at least once.
test-repeat: deps redis chromium bot-libraries bot-java bot-rust generated-clients build
	scripts/test-repeat.sh

bench: bench-chat bench-partner bench-realtime bench-typing bench-scheduled bench-bots bench-webhooks
	node dist/test/bench/summary.js

bench-chat: deps redis build
	node dist/test/bench/run.js

bench-partner: deps redis build
	node dist/test/bench/partner.js

bench-realtime: deps redis build
	node dist/test/bench/realtime.js
bench-typing: deps redis build
	node dist/test/bench/typing.js
bench-scheduled: deps redis build
	node dist/test/bench/scheduled.js
bench-bots: deps redis build
	node dist/test/bench/bots.js
bench-webhooks: deps redis build
	node dist/test/bench/webhooks.js
# Read receipts of a message in a room of 100 and the scroll page with and without read counts, beside a floor.
bench-receipts: deps redis build
	node dist/test/bench/receipts.js
# What typed queries cost beside hand-written SQL (docs/adr/0119-typed-queries-over-entities.md); not part of make bench.
bench-typed-queries: deps redis build
	node dist/test/bench/typed-queries.js
# What tracing costs off (the default) and on; not part of make bench (it writes no goal rows).
bench-tracing: deps redis build
	node dist/test/bench/tracing.js
# 100,000 STOMP sessions on one chat node (BENCH_SOCKETS=n for fewer); not part of `make bench`: it holds the
# machine for several minutes.
bench-sockets: deps redis build
	node dist/test/bench/sockets.js
# Synapse (matrix-synapse from PyPI) in a virtualenv of its own, beside ours on the same PostgreSQL; not in make test.
SYNAPSE_VENV := $(TOOLS)/synapse
$(SYNAPSE_VENV)/bin/synctl:
	python3 -m venv $(SYNAPSE_VENV)
	$(SYNAPSE_VENV)/bin/pip install --quiet "matrix-synapse[postgres]"

bench-peer: deps redis build $(SYNAPSE_VENV)/bin/synctl
	SYNAPSE_PYTHON=$(SYNAPSE_VENV)/bin/python node dist/test/bench/peer.js

# Kubernetes: helm and kubeconform from the Go module proxy; the Kubernetes JSON schemas kubeconform reads come from the
# kubernetes-validate wheel on PyPI (unpacked for the named versions only), so nothing is downloaded from GitHub.
HELM_VERSION := v3.22.0
KUBECONFORM_VERSION := v0.8.0
# The chart's oldest supported Kubernetes (Chart.yaml's kubeVersion) and a newer one.
KUBERNETES_VERSIONS := 1.31.0 1.34.0
KUBERNETES_VALIDATE_VERSION := 1.37.0
HELM := $(TOOLS)/helm-$(HELM_VERSION)/helm
KUBECONFORM := $(TOOLS)/kubeconform-$(KUBECONFORM_VERSION)/kubeconform
KUBE_SCHEMAS := $(TOOLS)/kube-schemas-$(KUBERNETES_VALIDATE_VERSION)
empty :=
space := $(empty) $(empty)
KUBE_SCHEMAS_STAMP := $(KUBE_SCHEMAS)/.versions-$(subst $(space),-,$(KUBERNETES_VERSIONS))

# `go install` prints a line per module it downloads: kept in a log, shown only on failure.
$(HELM):
	@command -v go >/dev/null || { echo "go is not installed: it builds helm (Debian/Ubuntu: apt-get install golang)" >&2; exit 1; }
	@mkdir -p $(dir $@)
	@GOBIN=$(dir $@) $(call timed,helm-build) go install helm.sh/helm/v3/cmd/helm@$(HELM_VERSION) >$(dir $@)install.log 2>&1 || { cat $(dir $@)install.log; exit 1; }

$(KUBECONFORM):
	@command -v go >/dev/null || { echo "go is not installed: it builds kubeconform (Debian/Ubuntu: apt-get install golang)" >&2; exit 1; }
	@mkdir -p $(dir $@)
	@GOBIN=$(dir $@) $(call timed,kubeconform-build) go install github.com/yannh/kubeconform/cmd/kubeconform@$(KUBECONFORM_VERSION) >$(dir $@)install.log 2>&1 || { cat $(dir $@)install.log; exit 1; }

$(KUBE_SCHEMAS_STAMP): scripts/deploy/kube-schemas.py | $(VENV)/bin/schemathesis
	@rm -rf $(KUBE_SCHEMAS) && mkdir -p $(KUBE_SCHEMAS)/wheel
	@$(VENV)/bin/python -m pip download --quiet --disable-pip-version-check --no-deps kubernetes-validate==$(KUBERNETES_VALIDATE_VERSION) -d $(KUBE_SCHEMAS)/wheel
	@$(VENV_PYTHON) scripts/deploy/kube-schemas.py $(KUBE_SCHEMAS)/wheel/*.whl $(KUBE_SCHEMAS) $(KUBERNETES_VERSIONS)
	@rm -rf $(KUBE_SCHEMAS)/wheel
	@touch $@

chart-tools: $(HELM) $(KUBECONFORM) $(KUBE_SCHEMAS_STAMP)

chart-check: chart-tools
	@HELM=$(HELM) KUBECONFORM=$(KUBECONFORM) KUBERNETES_VERSIONS="$(KUBERNETES_VERSIONS)" \
	  KUBE_SCHEMAS=$(KUBE_SCHEMAS)/kubernetes_validate/kubernetes-json-schema $(call timed,chart) scripts/deploy/check-chart.sh

# The image is built with Debian's mmdebstrap and buildah (vfs storage, chroot isolation); tini comes into the image from
# Debian's package through mmdebstrap. apt-get waits for the lock should another install hold it.
image-tools:
	@if command -v mmdebstrap >/dev/null && command -v buildah >/dev/null && command -v unshare >/dev/null; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "mmdebstrap or buildah missing: installing Debian's mmdebstrap and buildah"; \
	  apt-get -o DPkg::Lock::Timeout=300 update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends mmdebstrap buildah >/dev/null; \
	else \
	  echo "mmdebstrap and buildah are not installed. Install them (Debian/Ubuntu: apt-get install mmdebstrap buildah)." >&2; exit 1; \
	fi

# Node 24 from the npm registry goes into the image even when the machine's own node is 24.
image: deps build
	@$(MAKE) --no-print-directory image-of-build

# The image unpacked and run against the test PostgreSQL and Redis (test/deploy/image.deploy.ts).
test-image: deps build redis
	@$(MAKE) --no-print-directory test-image-of-build

# The same without a build of their own: make test runs the image test beside the contract run, whose platform runs
# from the dist/ a build would write again.
image-of-build: image-tools $(LOCAL_NODE_BIN)/node
	NODE_BIN=$(LOCAL_NODE_BIN)/node scripts/image/build.sh

test-image-of-build: image-of-build redis
	TEST_FILES_REPORT=image-test-files.tsv npm test --silent -- --testMatch '<rootDir>/test/deploy/image.deploy.ts'

# Two nodes restarted one at a time behind a load balancer under 1,000 sends and 200 STOMP sessions
# (test/deploy/rolling-restart.deploy.ts); not in make test: it holds both cores for about a minute.
test-rolling: deps redis build
	npm test --silent -- --testMatch '<rootDir>/test/deploy/rolling-restart.deploy.ts'

clean:
	rm -rf dist .data sdk/*/dist
