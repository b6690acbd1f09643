# tender — see README.md. `make demo` runs the main job, `make test` every test.
GO       ?= go
TAGS     := urfave_cli_no_docs
VERSION  ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -X main.version=$(VERSION)
FUZZTIME ?= 20s
# FUZZMINTIME bounds the minimising of each new input (go test's default,
# 60s, could take a whole FUZZTIME and leave the target barely run).
FUZZMINTIME ?= 5s

.PHONY: build test unit e2e lint cross cross-test demo bench bench-scale fuzz fuzz-diff clean hello-agent hello-agents setup-test setup-demo

build:
	$(GO) build -tags $(TAGS) -ldflags '$(LDFLAGS)' -o bin/tender ./cmd/tender

## test: every test the project has: lint, unit and golden tests, and the
## end-to-end tests on the docker-compose fleet (E2E=0 skips those).
test: setup-test lint cross-test unit e2e

## cross: tender builds for the controllers it supports (cgo off: the
## SQLite ledger needs cgo, so those builds use PostgreSQL's), and its
## tests compile and pass vet for Windows and macOS (they run on Linux).
## `make test` builds one of each system and both architectures on Linux
## (TESTCROSS): no file of tender's is chosen by architecture, so the
## other two builds check only that the dependencies still build there,
## and cost CI two of its six cold compiles; `make cross` builds all six.
CROSS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64
TESTCROSS := linux/amd64 linux/arm64 darwin/arm64 windows/amd64
cross: PLATFORMS = $(CROSS)
cross-test: PLATFORMS = $(TESTCROSS)
cross cross-test:
	@for p in $(PLATFORMS); do \
	  echo "build $$p"; \
	  CGO_ENABLED=0 GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) build -o /dev/null ./cmd/tender || exit 1; \
	done
	@for p in windows/amd64 darwin/arm64; do \
	  echo "vet $$p (tests included)"; \
	  CGO_ENABLED=0 GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) vet -tags $(TAGS) ./... || exit 1; \
	done

## setup-test, setup-demo: install what the tests (or the demo) need on a
## fresh machine, once (.ci/install.sh; a machine that has it all runs nothing).
setup-test:
	@bash .ci/install.sh $(if $(filter 0,$(E2E)),unit,test)

setup-demo:
	@bash .ci/install.sh demo

unit:
	$(GO) test -tags $(TAGS) -count=1 ./...

## e2e: the e2e package and the fleet tests of the modules, at once.
## The e2e package's tests before TestDifferential leave about 40 % of
## the two cores idle (containers starting, hosts killed and waited for),
## and so do system's virtual machine tests, which run on one core: the
## two runs fill each other's gaps instead of running one after the
## other. The e2e package's output is kept in a file and printed when it
## ends (its path is printed first, to follow it). The fleet tests name
## their longest packages first (system's virtual machine tests take about
## 10 minutes), so the short ones fill go test's other slot around them.
E2E_FLEET_RUN := -run '^(TestSystemFidelity|TestPkgFidelity|TestAptBatchFleet|TestAptRunLoop|TestAptUpgradeFidelity|TestDnfBatchFleet|TestDnfFidelity|TestAptRepositoryFidelity|TestAptKeyFidelity|TestDpkgSelectionsFidelity|TestPackageFactsFidelity|TestPackageFactsRedHatFidelity|TestRpmKeyFleet|TestServiceFactsFleet|TestSysvinitFleet|TestYumRepositoryFleet|TestIptablesFidelity|TestExpectFidelity|TestGitFleet|TestSubversionFleet|TestPamLimitsFleet|TestLocaleGenFleet|TestMountFleet|TestAtFleet|TestTimezoneFleet|TestAlternativesFleet|TestACLFleet|TestPatchFleet|TestGitConfigFleet|TestMakeFleet|TestArchiveFleet|TestSynchronizeFleet|TestUfwFidelity|TestFilesystemFleet|TestPartedFleet|TestFirewalldFidelity|TestNpmFleet|TestFleetVM|TestLvgFleet|TestLvolFleet|TestSebooleanFleet|TestSelinuxFleet|TestSecontextFleet)$$'
E2E_FLEET_PKGS := ./tasks/builtin/system ./tasks/builtin/files ./tasks/builtin/packages ./tasks/builtin/net ./tasks/builtin/...
e2e:
	@if [ "$(E2E)" = "0" ]; then echo "e2e: skipped (E2E=0)"; else \
	  log=$$(mktemp); rc=0; \
	  echo "e2e package: running beside the fleet tests (log: $$log)"; \
	  $(GO) test -tags '$(TAGS) e2e' -count=1 -shuffle=on -timeout 75m ./e2e/ ./transport/ssh/ >"$$log" 2>&1 & pid=$$!; \
	  $(GO) test -tags '$(TAGS) e2e' -count=1 -shuffle=on -timeout 60m $(E2E_FLEET_RUN) $(E2E_FLEET_PKGS) || rc=1; \
	  wait $$pid || rc=1; \
	  echo "--- e2e package:"; cat "$$log"; rm -f "$$log"; \
	  exit $$rc; fi

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null; git ls-files --others --exclude-standard '*.go' 2>/dev/null)); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet -tags '$(TAGS) e2e' ./...
	bash .ci/importrules.sh
	bash .ci/gofloor.sh
	shellcheck -S warning $$(git ls-files 'tasks/*.sh'; git ls-files --others --exclude-standard 'tasks/*.sh')

demo: setup-demo build hello-agent
	bash e2e/demo.sh

FUZZ := $(GO) test -run=NONE -fuzztime=$(FUZZTIME) -fuzzminimizetime=$(FUZZMINTIME)
fuzz:
	$(FUZZ) -fuzz='^FuzzParse$$' ./playbooks/expr
	$(FUZZ) -fuzz='^FuzzTemplate$$' ./playbooks/expr
	$(FUZZ) -fuzz='^FuzzSplitKV$$' ./internal/pykv
	$(FUZZ) -fuzz='^FuzzLoad$$' ./playbooks
	$(FUZZ) -fuzz='^FuzzINI$$' ./inventory
	$(FUZZ) -fuzz='^FuzzYAML$$' ./inventory
	$(FUZZ) -fuzz='^FuzzVars$$' ./internal/yaml11
	$(FUZZ) -fuzz='^FuzzCompile$$' ./internal/pyre
	$(FUZZ) -fuzz='^FuzzLoadBundle$$' ./agents
	$(FUZZ) -fuzz='^FuzzParse$$' ./vault

## fuzz-diff: the differential fuzzer (e2e/fuzzdiff): random playbooks run
## with ansible-playbook and tender side by side for FUZZDIFFTIME; each
## divergence not in e2e/fuzzdiff/DIFFERENCES.md is minimised and written
## below FUZZDIFFOUT. FUZZDIFFSEEDS picks the seeds (N, A-B or A-). Needs
## ansible-playbook; not part of `make test`. FUZZDIFFARGS passes more
## flags (-roles: draw roles too).
FUZZDIFFTIME  ?= 10m
FUZZDIFFSEEDS ?= 1-
FUZZDIFFOUT   ?= /tmp/fuzz-diff
FUZZDIFFARGS  ?=
fuzz-diff: build
	$(GO) run ./e2e/fuzzdiff -time $(FUZZDIFFTIME) -seeds $(FUZZDIFFSEEDS) -out $(FUZZDIFFOUT) $(FUZZDIFFARGS)

clean:
	rm -rf bin agents/examples/hello/build

## hello-agent: the example agent, static, stamped HELLO_VERSION, and its
## package: agents/examples/hello/build/bin/hello, packed as
## build/hello.tar.gz (bin/hello inside; the same bytes for the same
## build). hello-agents also makes version 2 in build/v2/ for the upgrade test.
HELLO_VERSION ?= 1
HELLO_DIR     := agents/examples/hello
# hello_pack DIR VERSION: build the agent into DIR/bin/hello, pack DIR/hello.tar.gz.
define hello_pack
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '-s -w -X main.version=$(2)' -o $(1)/bin/hello ./$(HELLO_DIR)
	tar -C $(1) --sort=name --mtime=2024-01-01T00:00:00Z --owner=0 --group=0 --numeric-owner --mode=0755 -cf - bin/hello | gzip -9n >$(1)/hello.tar.gz
endef
hello-agent:
	$(call hello_pack,$(HELLO_DIR)/build,$(HELLO_VERSION))

hello-agents: hello-agent
	$(call hello_pack,$(HELLO_DIR)/build/v2,2)

## bench-scale: tender agent deploy on a simulated fleet of 100 and 1,000
## hosts (e2e/scale, no docker); rewrites the scale section of
## docs/BENCHMARKS.md. SCALE_FLAGS passes flags (e.g. -hosts 100,1000,10000).
SCALE_FLAGS ?=
bench-scale:
	$(GO) run ./e2e/scale/bench $(SCALE_FLAGS)

## bench: ansible-playbook vs tender on the same fleet; writes docs/BENCHMARKS.md.
bench: setup-test
	$(GO) run ./e2e/bench
