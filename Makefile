# Translation management service. `make help` lists the targets.
SHELL := /bin/bash
export CGO_ENABLED := 0
BIN := $(CURDIR)/.bin
MODULES := pkg proto/gen/go services/catalog services/translation services/changelog services/notification gateway deploy/check

BUF_VERSION := v1.75.0
PROTOC_GEN_GO_VERSION := v1.36.12
PROTOC_GEN_GO_GRPC_VERSION := v1.6.2
GRPC_GATEWAY_VERSION := v2.32.0
GOLANGCI_LINT_VERSION := v2.15.0

.PHONY: help tools generate lint build run run-split run-scale test bench walkthrough deploy-check api-image

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-10s %s\n", $$1, $$2}'

$(BIN)/buf:
	GOBIN=$(BIN) go install github.com/bufbuild/buf/cmd/buf@$(BUF_VERSION)
$(BIN)/protoc-gen-go:
	GOBIN=$(BIN) go install google.golang.org/protobuf/cmd/protoc-gen-go@$(PROTOC_GEN_GO_VERSION)
$(BIN)/protoc-gen-go-grpc:
	GOBIN=$(BIN) go install google.golang.org/grpc/cmd/protoc-gen-go-grpc@$(PROTOC_GEN_GO_GRPC_VERSION)
$(BIN)/golangci-lint:
	GOBIN=$(BIN) go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION)

tools: $(BIN)/buf $(BIN)/protoc-gen-go $(BIN)/protoc-gen-go-grpc $(BIN)/golangci-lint ## install the pinned code generators and linters into .bin/

generate: tools ## regenerate proto/gen/go from proto/ (buf, local plugins)
	$(BIN)/buf generate

lint: tools ## buf lint, buf breaking (against the released API), gofmt, go vet, a tidy go.mod and golangci-lint (.golangci.yml) on every module
	$(BIN)/buf lint
	$(BIN)/buf breaking --against proto/released.binpb
	@test -z "$$(gofmt -l $(MODULES))" || { gofmt -l $(MODULES); echo 'gofmt: files above need formatting'; exit 1; }
	@for m in $(MODULES); do (cd $$m && go vet ./... && GOWORK=off go mod tidy -diff >/dev/null) || { echo "$$m: go vet or go mod tidy -diff failed"; exit 1; }; done
	@for m in $(MODULES); do echo "golangci-lint $$m"; (cd $$m && $(BIN)/golangci-lint run --config $(CURDIR)/.golangci.yml ./...) || { echo "$$m: golangci-lint failed"; exit 1; }; done

api-image: tools ## after an intended, documented breaking change: make the current API the one buf breaking compares against
	$(BIN)/buf build -o proto/released.binpb

VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

build: ## build bin/tms (VERSION from git describe)
	CGO_ENABLED=0 go build -trimpath -ldflags "-X github.com/tmsproject/tms/pkg/version.Version=$(VERSION)" -o bin/tms ./gateway/cmd/tms

run: build ## run every service and the gateway in one process on SQLite (TMS_DATA_DIR, default ./data)
	exec ./bin/tms serve

run-split: build ## run each service as its own process on a throwaway PostgreSQL (machine's binaries); Ctrl-C stops all
	exec ./bin/tms run-split

run-scale: build ## run 2 replicas of every service and 2 gateways (TMS_HTTP_ADDR and the next port) as separate processes on a throwaway PostgreSQL; a dead replica restarts; Ctrl-C stops all
	exec ./bin/tms run-scale

test: ## run every module's tests with the race detector, 30 minutes per package (SQLite, and PostgreSQL from a throwaway cluster unless TMS_TEST_DATABASE_URL is set)
	@for m in $(MODULES); do echo "== $$m"; (cd $$m && CGO_ENABLED=1 go test -race -count=1 -timeout 30m ./...) || exit 1; done

walkthrough: ## run the README's Getting started walkthrough as pasted, against a fresh make run (port 8080, /tmp/hello)
	./scripts/walkthrough.sh

deploy-check: ## render every kustomize overlay offline and decode each object strictly (k8s.io/api)
	go run ./deploy/check deploy/k8s/overlays/*/

bench: build ## run the benchmarks and rewrite BENCHMARKS.md
	./scripts/bench.sh
